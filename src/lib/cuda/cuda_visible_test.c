/*
 * CUDA_VISIBLE_DEVICES resolution against a fixed device table: docs/nvitop-behaviour.md §5.5's
 * examples adapted to three GPUs (a plain one, a MIG-enabled one with two MIG devices, a
 * MIG-capable one with MIG off).
 */
#include "cuda/cuda_visible.h"

#include <stdio.h>
#include <string.h>

#include "nvt_cmocka.h"

#define U0 "2a7c1a4e-5f3b-4c1d-9e8f-0123456789ab"
#define U1 "3eb79704-1571-707c-aee8-f43ce747313d"
#define U2 "3eb79704-0000-4000-8000-00000000cafe" /* shares 8 digits with U1 */
#define M0 "37b51284-1df4-5451-979d-3231ccb0822e"
#define M1 "d184f67c-c95f-5ef2-a935-b69bb2cd6d7e"

static const struct cuda_mig_entry migs[] = {
    {0, 1, 0, "MIG-" M0},
    {2, 13, 0, "MIG-" M1},
};

static const struct cuda_gpu_entry gpus[] = {
    {0, "GPU-" U0, false, false, NULL, 0},
    {1, "GPU-" U1, true, true, migs, 2},
    {2, "GPU-" U2, true, false, NULL, 0},
};

static const struct cuda_table table = {gpus, 3};

/* Only GPUs 0 and 2, so that an unset value lists physical GPUs. */
static const struct cuda_table plain = {(const struct cuda_gpu_entry[]){
                                            {0, "GPU-" U0, false, false, NULL, 0},
                                            {1, "GPU-" U2, false, false, NULL, 0},
                                        },
                                        2};

/* The result as "0,2" or "1:2" (index:mig_index) for easy comparison. */
static void render(const struct nvt_cuda_device *devices, size_t count, char *text, size_t size) {
    size_t used = 0;
    text[0] = '\0';
    for (size_t i = 0; i < count; i++) {
        assert_int_equal(devices[i].cuda_index, i);
        if (devices[i].mig_index == NVT_NA_U32) {
            used += (size_t)snprintf(text + used, size - used, "%s%u", i > 0 ? "," : "",
                                     devices[i].index);
        } else {
            used += (size_t)snprintf(text + used, size - used, "%s%u:%u", i > 0 ? "," : "",
                                     devices[i].index, devices[i].mig_index);
        }
    }
}

static void check(const struct cuda_table *t, const char *value, bool abbreviations,
                  const char *expected) {
    struct nvt_cuda_device devices[8];
    char text[128];
    size_t count = cuda_visible_resolve(value, t, abbreviations, devices);
    render(devices, count, text, sizeof(text));
    if (strcmp(text, expected) != 0) {
        fail_msg("value \"%s\": got \"%s\", expected \"%s\"", value != NULL ? value : "(unset)",
                 text, expected);
    }
}

static void test_integers(void **state) {
    (void)state;
    check(&plain, NULL, false, "0,1");
    check(&plain, "1,0", false, "1,0");
    check(&plain, "", false, "");
    check(&plain, "0,0", false, "");
    check(&plain, "16", false, "");
    check(&plain, "0,16,1", false, "0");
    check(&plain, "1abc", false, "1");
    check(&plain, " 1 , 0 ", false, "1,0");
    check(&plain, "-1", false, "");
    check(&plain, "+1", false, "");
    check(&plain, "0,", false, "0");
    check(&plain, "0,00", false, ""); /* the same device twice */
    check(&plain, "99999999999999999999", false, "");
}

static void test_uuids(void **state) {
    (void)state;
    check(&plain, "GPU-" U2 ",GPU-" U0, false, "1,0");
    check(&plain, "GPU-" U2 ",0", false, "1");
    check(&plain, "0,GPU-" U2, false, "0");
    check(&plain, "GPU-3EB79704-0000-4000-8000-00000000CAFE", false, ""); /* upper case */
    check(&plain, U2, false, "");                                         /* no prefix */
    check(&plain, "GPU-3eb79704", false, ""); /* abbreviated: needs libcuda in nvitop */
    check(&plain, "GPU-3eb79704", true, "1"); /* our NVML path accepts a unique prefix */
    check(&plain, "GPU-3eb79704,GPU-2a7c1a4e", true, "1,0");
    check(&plain, "GPU-3eb7", true, "");                /* fewer than 8 hex digits */
    check(&plain, "GPU-" U2 ",GPU-3eb79704", true, ""); /* the same device twice */
    check(&table, "GPU-3eb7", true, "");
    check(&table, "GPU-3eb79704", true, ""); /* ambiguous between GPU 1 and GPU 2 */
    check(&table, "GPU-3eb79704-0", true, "2");
}

static void test_mig(void **state) {
    (void)state;
    /* Unset: GPU 0 is kept until the MIG-enabled GPU 1, which stands for its first MIG device. */
    check(&table, NULL, false, "1:0");
    check(&table, "0,2", false, "0,2");
    check(&table, "0,1,2", false, "1:0");
    check(&table, "MIG-" M1, false, "1:2");
    check(&table, "MIG-" M1 ",MIG-" M0, false, "1:2");
    check(&table, "GPU-" U0 ",MIG-" M0, false, "1:0");
    check(&table, "MIG-GPU-" U1 "/13/0", false, "1:2");
    check(&table, "MIG-GPU-" U1 "/13/1", false, "");
    check(&table, "MIG-GPU-3eb79704-1571/13/0", true, "1:2");
    check(&table, "MIG-GPU-3eb79704-1571/13/0", false, "");
    check(&table, "MIG-GPU-3eb79704/13/0", true, ""); /* ambiguous GPU */
    check(&table, "MIG-d184f67c", true, "1:2");
    check(&table, "MIG-" U1, false, ""); /* a GPU UUID is no MIG UUID */
}

static void test_from_uuids(void **state) {
    (void)state;
    struct nvt_cuda_device devices[8];
    size_t count = 99;
    char value[256];
    assert_true(cuda_visible_from_uuids(U2 "," U0, &plain, devices, &count, value, sizeof(value)));
    assert_int_equal(count, 2);
    assert_int_equal(devices[0].index, 1);
    assert_string_equal(devices[0].uuid, "GPU-" U2);
    assert_int_equal(devices[1].index, 0);

    assert_true(cuda_visible_from_uuids("", &plain, devices, &count, value, sizeof(value)));
    assert_int_equal(count, 0);

    /* A MIG-capable GPU, or a UUID that is no GPU, goes through the full resolution. */
    assert_false(cuda_visible_from_uuids(U2 "," U0, &table, devices, &count, value, sizeof(value)));
    assert_string_equal(value, "GPU-" U2 ",GPU-" U0);
    assert_false(cuda_visible_from_uuids(M1, &table, devices, &count, value, sizeof(value)));
    assert_string_equal(value, "MIG-" M1);
    count = cuda_visible_resolve(value, &table, false, devices);
    assert_int_equal(count, 1);
    assert_int_equal(devices[0].mig_index, 2);
    assert_string_equal(devices[0].uuid, "MIG-" M1);
}

static void test_empty_table(void **state) {
    (void)state;
    const struct cuda_table none = {NULL, 0};
    assert_int_equal(cuda_visible_max(&none), 0);
    assert_int_equal(cuda_visible_resolve(NULL, &none, true, NULL), 0);
    assert_int_equal(cuda_visible_max(&table), 5);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_integers),    cmocka_unit_test(test_uuids),
        cmocka_unit_test(test_mig),         cmocka_unit_test(test_from_uuids),
        cmocka_unit_test(test_empty_table),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
