/*
 * CUDA ordinals (docs/nvitop-behaviour.md §5.5) against the simulator: the NVML-only resolution
 * (what runs on this machine, which has no CUDA driver) on the MIG scenario, and the CUDA helper
 * process (nvitop-cuda-probe, $NVITOP_CUDA_PROBE from the test environment) against a stand-in
 * libcuda whose device order differs from NVML's; the helper inherits nothing of a busy caller.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib_testutil.h"
#include "nvt_cmocka.h"

#define A100_UUID "GPU-3eb79704-1571-707c-aee8-f43ce747313d"
#define RTX_UUID  "GPU-5e3b8a31-8d6f-4c1e-9a2b-3f8e1c7d2a40"
#define MIG_1G    "MIG-d184f67c-c95f-5ef2-a935-b69bb2cd6d7e"
#define MIG_3G    "MIG-37b51284-1df4-5451-979d-3231ccb0822e"
#define WS_GPU0   "5e3b8a31-8d6f-4c1e-9a2b-3f8e1c7d2a40"
#define WS_GPU1   "a2c47f09-61d3-4b8e-b5f0-7e9d4c1a8b63"

static nvt_context *open_with_cuda(const char *scenario, const char *cuda_library) {
    tu_use_scenario(scenario);
    struct nvt_options opts = {.struct_size = sizeof(struct nvt_options),
                               .cuda_library_path = cuda_library};
    nvt_context *ctx = NULL;
    assert_int_equal(nvt_open(&opts, &ctx), NVT_OK);
    return ctx;
}

/* The resolution as "1,0:2" (index, or index:mig_index). */
static void expect(nvt_context *ctx, const char *value, const char *expected) {
    struct nvt_cuda_device *devices = NULL;
    size_t count = 99;
    assert_int_equal(nvt_cuda_visible_devices(ctx, value, &devices, &count), NVT_OK);
    char text[256] = "";
    for (size_t i = 0; i < count; i++) {
        char item[32];
        assert_int_equal(devices[i].cuda_index, i);
        if (devices[i].mig_index == NVT_NA_U32) {
            snprintf(item, sizeof(item), "%s%u", i > 0 ? "," : "", devices[i].index);
        } else {
            snprintf(item, sizeof(item), "%s%u:%u", i > 0 ? "," : "", devices[i].index,
                     devices[i].mig_index);
        }
        strcat(text, item);
    }
    free(devices);
    if (strcmp(text, expected) != 0) {
        fail_msg("CUDA_VISIBLE_DEVICES=%s: got \"%s\", expected \"%s\"",
                 value != NULL ? value : "(unset)", text, expected);
    }
}

static void test_nvml_path(void **state) {
    (void)state;
    nvt_context *ctx = open_with_cuda(tu_test_scenario("lib-basic.json"), "");
    expect(ctx, NULL, "0:0"); /* GPU 0 has MIG enabled: its first MIG device stands for all */
    expect(ctx, "1,2", "1,2");
    expect(ctx, "2,1,3", "2,1,3");
    expect(ctx, "1,1", "");
    expect(ctx, "", "");
    expect(ctx, "7", "");
    expect(ctx, "1,7,2", "1");
    expect(ctx, "1,0", "0:0");
    expect(ctx, "GPU-5e3b8a31", "1");
    expect(ctx, RTX_UUID ",GPU-9f1e2d3c", "1,2");
    expect(ctx, MIG_1G, "0:2");
    expect(ctx, "MIG-GPU-3eb79704-1571-707c-aee8-f43ce747313d/13/0", "0:2");
    expect(ctx, MIG_1G "," MIG_3G, "0:2");

    char buffer[128];
    size_t needed = nvt_cuda_normalize_visible_devices(ctx, "2,1", buffer, sizeof(buffer));
    assert_string_equal(buffer, "GPU-9f1e2d3c-4b5a-6978-8a9b-0c1d2e3f4a5b," RTX_UUID);
    assert_int_equal(needed, strlen(buffer));
    assert_int_equal(nvt_cuda_normalize_visible_devices(ctx, "GPU-d", buffer, sizeof(buffer)), 0);
    assert_string_equal(buffer, "");
    needed = nvt_cuda_normalize_visible_devices(ctx, NULL, buffer, 8);
    assert_int_equal(needed, strlen(MIG_3G));
    assert_string_equal(buffer, "MIG-37b");
    nvt_close(ctx);
}

static void test_missing_cuda_library(void **state) {
    (void)state;
    /* A CUDA library that cannot be loaded: the NVML-only resolution answers. */
    nvt_context *ctx =
        open_with_cuda(tu_test_scenario("lib-basic.json"), "/nonexistent/libcuda.so");
    expect(ctx, "GPU-5e3b8a31,GPU-9f1e2d3c", "1,2");
    expect(ctx, "GPU-5e3b8a31,2", "1"); /* a later entry of the other kind ends the list */
    expect(ctx, "2", "2");
    nvt_close(ctx);
}

/* A directory holding a link to the stand-in libcuda and its configuration file. */
static char fake_dir[4096];

static const char *fake_cuda(void) {
    static char path[4200];
    if (fake_dir[0] == '\0') {
        snprintf(fake_dir, sizeof(fake_dir), "%s/nvt-fake-cuda-XXXXXX",
                 getenv("TMPDIR") != NULL ? getenv("TMPDIR") : "/tmp");
        assert_non_null(mkdtemp(fake_dir));
        char target[4096];
        const char *binary = getenv("NVT_BINARY_DIR");
        snprintf(target, sizeof(target), "%s/tests/lib/libfakecuda.so",
                 binary != NULL ? binary : "build");
        char *absolute = realpath(target, NULL);
        assert_non_null(absolute);
        snprintf(path, sizeof(path), "%s/libcuda.so.1", fake_dir);
        assert_int_equal(symlink(absolute, path), 0);
        free(absolute);
    }
    return path;
}

/* Write fake_cuda.conf (init_error NULL for none). */
static void fake_conf(const char *uuids, const char *init_error) {
    fake_cuda();
    char path[4200];
    snprintf(path, sizeof(path), "%s/fake_cuda.conf", fake_dir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fprintf(f, "uuids=%s\n", uuids);
    if (init_error != NULL) {
        fprintf(f, "init_error=%s\n", init_error);
    }
    assert_int_equal(fclose(f), 0);
}

/* The line "key=..." of fake_cuda.report, without the key, in buf. */
static void fake_report(const char *key, char *buf, size_t size) {
    char path[4200];
    snprintf(path, sizeof(path), "%s/fake_cuda.report", fake_dir);
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    char line[4096];
    buf[0] = '\0';
    while (fgets(line, sizeof(line), f) != NULL) {
        line[strcspn(line, "\n")] = '\0';
        if (strncmp(line, key, strlen(key)) == 0 && line[strlen(key)] == '=') {
            snprintf(buf, size, "%s", line + strlen(key) + 1);
        }
    }
    fclose(f);
}

static int fake_teardown(void **state) {
    (void)state;
    if (fake_dir[0] != '\0') {
        char command[4200];
        snprintf(command, sizeof(command), "rm -rf '%s'", fake_dir);
        if (system(command) != 0) {
            return -1;
        }
    }
    return 0;
}

static void test_cuda_child(void **state) {
    (void)state;
    /* CUDA orders the two GPUs the other way round (as CUDA_DEVICE_ORDER=FASTEST_FIRST may). */
    fake_conf(WS_GPU1 "," WS_GPU0, NULL);
    nvt_context *ctx = open_with_cuda(tu_bundled_scenario("workstation-2gpu.json"), fake_cuda());
    expect(ctx, NULL, "1,0");
    expect(ctx, "0", "1");
    expect(ctx, "1,0", "0,1");
    expect(ctx, "GPU-5e3b", "0"); /* CUDA's own abbreviation rules apply */
    expect(ctx, "7", "");
    /* A program that ignores SIGCHLD gets no exit status; the answer still counts. */
    void (*previous)(int) = signal(SIGCHLD, SIG_IGN);
    expect(ctx, "1,0", "0,1");
    signal(SIGCHLD, previous);
    fake_conf(WS_GPU1 "," WS_GPU0, "100"); /* CUDA_ERROR_NO_DEVICE: nothing is visible */
    expect(ctx, NULL, "");
    fake_conf(WS_GPU1 "," WS_GPU0, "999"); /* any other failure: NVML resolution */
    expect(ctx, "1", "1");
    nvt_close(ctx);
}

static void test_cuda_child_with_mig(void **state) {
    (void)state;
    /* With a MIG-capable GPU the UUIDs CUDA reports go through the full resolution. */
    fake_conf("5e3b8a31-8d6f-4c1e-9a2b-3f8e1c7d2a40,9f1e2d3c-4b5a-6978-8a9b-0c1d2e3f4a5b,"
              "d184f67c-c95f-5ef2-a935-b69bb2cd6d7e",
              NULL);
    nvt_context *ctx = open_with_cuda(tu_test_scenario("lib-basic.json"), fake_cuda());
    expect(ctx, "0,1", "1,2");
    expect(ctx, NULL, "0:2");
    nvt_close(ctx);
}

/* A busy caller: another thread holding a lock, a lock held here, descriptors open without
 * O_CLOEXEC, an atfork handler, variables of its own in the environment.  The helper inherits
 * none of it and the caller's state is untouched (with fork(), the prepare handler would run
 * here and the child would hold the descriptors). */
static pthread_mutex_t held_by_thread = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t held_here = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t release = PTHREAD_MUTEX_INITIALIZER;
static int atfork_calls;

static void count_atfork(void) {
    atfork_calls++;
}

static void *hold_lock(void *arg) {
    (void)arg;
    pthread_mutex_lock(&held_by_thread);
    pthread_mutex_lock(&release); /* until the test is done */
    pthread_mutex_unlock(&release);
    pthread_mutex_unlock(&held_by_thread);
    return NULL;
}

static void test_helper_inherits_nothing(void **state) {
    (void)state;
    fake_conf(WS_GPU1 "," WS_GPU0, NULL);
    nvt_context *ctx = open_with_cuda(tu_bundled_scenario("workstation-2gpu.json"), fake_cuda());
    assert_int_equal(pthread_atfork(count_atfork, NULL, NULL), 0);
    pthread_mutex_lock(&release);
    pthread_mutex_lock(&held_here);
    pthread_t thread;
    assert_int_equal(pthread_create(&thread, NULL, hold_lock, NULL), 0);
    while (pthread_mutex_trylock(&held_by_thread) == 0) { /* until the thread holds it */
        pthread_mutex_unlock(&held_by_thread);
        sched_yield();
    }
    int leaked[2];
    assert_int_equal(pipe(leaked), 0); /* no O_CLOEXEC */
    int file = open("/dev/null", O_RDONLY);
    assert_true(file >= 0);
    setenv("NVT_TEST_SECRET", "do-not-pass", 1);
    setenv("CUDA_DEVICE_ORDER", "PCI_BUS_ID", 1);

    expect(ctx, "1,0", "0,1");

    char fds[256];
    char env[1024];
    fake_report("fds", fds, sizeof(fds));
    fake_report("env", env, sizeof(env));
    assert_string_equal(fds, "0,1,2");
    const char *ld = getenv("LD_LIBRARY_PATH");
    assert_string_equal(env, ld != NULL ? "CUDA_VISIBLE_DEVICES,CUDA_DEVICE_ORDER,LD_LIBRARY_PATH"
                                        : "CUDA_VISIBLE_DEVICES,CUDA_DEVICE_ORDER");
    assert_int_equal(atfork_calls, 0);
    /* Nobody else holds the pipe's write end: closing ours gives end of file at once. */
    assert_int_equal(close(leaked[1]), 0);
    char byte;
    assert_int_equal(read(leaked[0], &byte, 1), 0);
    assert_int_equal(pthread_mutex_trylock(&held_by_thread), EBUSY);

    pthread_mutex_unlock(&release);
    assert_int_equal(pthread_join(thread, NULL), 0);
    pthread_mutex_unlock(&held_here);
    close(leaked[0]);
    close(file);
    unsetenv("NVT_TEST_SECRET");
    unsetenv("CUDA_DEVICE_ORDER");
    nvt_close(ctx);
}

/* No helper program: the NVML resolution answers, as without libcuda. */
static void test_missing_helper(void **state) {
    (void)state;
    fake_conf(WS_GPU1 "," WS_GPU0, NULL);
    char *saved = getenv("NVITOP_CUDA_PROBE") != NULL ? strdup(getenv("NVITOP_CUDA_PROBE")) : NULL;
    setenv("NVITOP_CUDA_PROBE", "/nonexistent/nvitop-cuda-probe", 1);
    nvt_context *ctx = open_with_cuda(tu_bundled_scenario("workstation-2gpu.json"), fake_cuda());
    expect(ctx, NULL, "0,1"); /* NVML's order, not the stand-in CUDA's */
    expect(ctx, "1", "1");
    nvt_close(ctx);
    if (saved != NULL) {
        setenv("NVITOP_CUDA_PROBE", saved, 1);
        free(saved);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_nvml_path),
        cmocka_unit_test(test_missing_cuda_library),
        cmocka_unit_test(test_cuda_child),
        cmocka_unit_test(test_cuda_child_with_mig),
        cmocka_unit_test(test_helper_inherits_nothing),
        cmocka_unit_test(test_missing_helper),
    };
    return cmocka_run_group_tests(tests, NULL, fake_teardown);
}
