/*
 * CUDA ordinals (SPEC.md §5.5) against the simulator: the NVML-only resolution (what runs on this
 * machine, which has no CUDA driver) on the MIG scenario, and the CUDA child process against a
 * stand-in libcuda whose device order differs from NVML's.
 */
/* cmocka needs these four headers first, in this order. */
/* clang-format off */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
/* clang-format on */

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib_testutil.h"

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

static const char *fake_cuda(void) {
    static char path[4096];
    snprintf(path, sizeof(path), "%s/tests/lib/libfakecuda.so",
             getenv("NVT_BINARY_DIR") != NULL ? getenv("NVT_BINARY_DIR") : "build");
    return path;
}

static void test_cuda_child(void **state) {
    (void)state;
    /* CUDA orders the two GPUs the other way round (as CUDA_DEVICE_ORDER=FASTEST_FIRST may). */
    setenv("FAKE_CUDA_UUIDS", WS_GPU1 "," WS_GPU0, 1);
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
    setenv("FAKE_CUDA_INIT_ERROR", "100", 1); /* CUDA_ERROR_NO_DEVICE: nothing is visible */
    expect(ctx, NULL, "");
    setenv("FAKE_CUDA_INIT_ERROR", "999", 1); /* any other failure: NVML resolution */
    expect(ctx, "1", "1");
    unsetenv("FAKE_CUDA_INIT_ERROR");
    nvt_close(ctx);
}

static void test_cuda_child_with_mig(void **state) {
    (void)state;
    /* With a MIG-capable GPU the UUIDs CUDA reports go through the full resolution. */
    setenv("FAKE_CUDA_UUIDS",
           "5e3b8a31-8d6f-4c1e-9a2b-3f8e1c7d2a40,9f1e2d3c-4b5a-6978-8a9b-0c1d2e3f4a5b,"
           "d184f67c-c95f-5ef2-a935-b69bb2cd6d7e",
           1);
    nvt_context *ctx = open_with_cuda(tu_test_scenario("lib-basic.json"), fake_cuda());
    expect(ctx, "0,1", "1,2");
    expect(ctx, NULL, "0:2");
    nvt_close(ctx);
    unsetenv("FAKE_CUDA_UUIDS");
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_nvml_path),
        cmocka_unit_test(test_missing_cuda_library),
        cmocka_unit_test(test_cuda_child),
        cmocka_unit_test(test_cuda_child_with_mig),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
