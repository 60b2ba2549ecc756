#include "sim_support.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "nvt_cmocka.h"

static const char *env_or_fail(const char *name) {
    const char *value = getenv(name);
    if (value == NULL || value[0] == '\0') {
        fail_msg("%s is not set (run the tests through ctest)", name);
    }
    return value;
}

void sim_api_load(struct sim_api *api, const char *variant) {
    char path[4096];
    memset(api, 0, sizeof(*api));
    if (variant == NULL) {
        snprintf(path, sizeof(path), "libnvidia-ml.so.1");
    } else {
        snprintf(path, sizeof(path), "%s/%s/libnvidia-ml.so.1", env_or_fail("NVT_BINARY_DIR"),
                 variant);
    }
    api->handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (api->handle == NULL) {
        fail_msg("dlopen(%s): %s", path, dlerror());
    }
#define SIM_API_RESOLVE(name, params) *(void **)&api->name = dlsym(api->handle, #name);
    NVML_ABI_FUNCTIONS(SIM_API_RESOLVE)
    NVML_ABI_MONITOR_FUNCTIONS(SIM_API_RESOLVE)
#undef SIM_API_RESOLVE
    *(void **)&api->nvmlErrorString = dlsym(api->handle, "nvmlErrorString");
}

void sim_api_unload(struct sim_api *api) {
    if (api->handle != NULL) {
        dlclose(api->handle);
    }
    memset(api, 0, sizeof(*api));
}

const char *sim_scenario_path(const char *name) {
    static char path[4096];
    snprintf(path, sizeof(path), "%s/%s", env_or_fail("NVT_SCENARIO_DIR"), name);
    return path;
}

void sim_write_file(const char *path, const char *text) {
    char tmp[4200];
    snprintf(tmp, sizeof(tmp), "%s.tmp", path);
    FILE *f = fopen(tmp, "w");
    assert_non_null(f);
    assert_int_equal(fputs(text, f) >= 0, 1);
    assert_int_equal(fclose(f), 0);
    assert_int_equal(rename(tmp, path), 0);
}

const char *sim_temp_dir(void) {
    static char dir[256];
    if (dir[0] == '\0') {
        snprintf(dir, sizeof(dir), "%s/nvt-sim-test.XXXXXX",
                 getenv("TMPDIR") != NULL ? getenv("TMPDIR") : "/tmp");
        assert_non_null(mkdtemp(dir));
    }
    return dir;
}

nvmlReturn_t sim_init_capturing(const struct sim_api *api, char *err, size_t size) {
    fflush(stderr);
    FILE *capture = tmpfile();
    assert_non_null(capture);
    int saved = dup(STDERR_FILENO);
    assert_true(saved >= 0);
    assert_true(dup2(fileno(capture), STDERR_FILENO) >= 0);
    nvmlReturn_t ret = api->nvmlInit_v2();
    fflush(stderr);
    assert_true(dup2(saved, STDERR_FILENO) >= 0);
    close(saved);
    rewind(capture);
    size_t n = fread(err, 1, size - 1, capture);
    err[n] = '\0';
    fclose(capture);
    return ret;
}
