/*
 * Our NVML declarations (src/lib/nvml/nvml_abi.h) against an independent reference: the bindgen
 * output of NVIDIA's nvml.h in Debian's librust-nvml-wrapper-sys-dev.  Every struct we share with
 * the reference must have the same size and every field the same offset and size (computed from
 * the Rust types with C layout rules), and every constant the same value.  What the reference's
 * older header lacks is listed below with hand-checked values.  A missing reference file is a
 * failure, not a skip: `make check` installs the package.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bindgen_model.h"
#include "lib/nvml/nvml_abi.h"
#include "nvt_cmocka.h"

#ifndef NVT_NVML_BINDINGS
#define NVT_NVML_BINDINGS ""
#endif

struct our_field {
    const char *name;
    size_t offset;
    size_t size;
};

struct our_record {
    const char *name; /* the struct tag, which is also bindgen's record name */
    size_t size;
    const struct our_field *fields;
    size_t count;
};

#define FIELD(type, member)                                                                        \
    { #member, offsetof(type, member), sizeof(((type *)0)->member) }
#define RECORD(tag, type, list)                                                                    \
    { #tag, sizeof(type), list, sizeof(list) / sizeof(list[0]) }

static const struct our_field pci_info[] = {
    FIELD(nvmlPciInfo_t, busIdLegacy), FIELD(nvmlPciInfo_t, domain),
    FIELD(nvmlPciInfo_t, bus),         FIELD(nvmlPciInfo_t, device),
    FIELD(nvmlPciInfo_t, pciDeviceId), FIELD(nvmlPciInfo_t, pciSubSystemId),
    FIELD(nvmlPciInfo_t, busId),
};
static const struct our_field utilization[] = {
    FIELD(nvmlUtilization_t, gpu),
    FIELD(nvmlUtilization_t, memory),
};
static const struct our_field memory[] = {
    FIELD(nvmlMemory_t, total),
    FIELD(nvmlMemory_t, free),
    FIELD(nvmlMemory_t, used),
};
static const struct our_field memory_v2[] = {
    FIELD(nvmlMemory_v2_t, version),  FIELD(nvmlMemory_v2_t, total),
    FIELD(nvmlMemory_v2_t, reserved), FIELD(nvmlMemory_v2_t, free),
    FIELD(nvmlMemory_v2_t, used),
};
static const struct our_field bar1[] = {
    FIELD(nvmlBAR1Memory_t, bar1Total),
    FIELD(nvmlBAR1Memory_t, bar1Free),
    FIELD(nvmlBAR1Memory_t, bar1Used),
};
static const struct our_field process_v1[] = {
    FIELD(nvmlProcessInfo_v1_t, pid),
    FIELD(nvmlProcessInfo_v1_t, usedGpuMemory),
};
static const struct our_field process_v2[] = {
    FIELD(nvmlProcessInfo_v2_t, pid),
    FIELD(nvmlProcessInfo_v2_t, usedGpuMemory),
    FIELD(nvmlProcessInfo_v2_t, gpuInstanceId),
    FIELD(nvmlProcessInfo_v2_t, computeInstanceId),
};
static const struct our_field process_sample[] = {
    FIELD(nvmlProcessUtilizationSample_t, pid),
    FIELD(nvmlProcessUtilizationSample_t, timeStamp),
    FIELD(nvmlProcessUtilizationSample_t, smUtil),
    FIELD(nvmlProcessUtilizationSample_t, memUtil),
    FIELD(nvmlProcessUtilizationSample_t, encUtil),
    FIELD(nvmlProcessUtilizationSample_t, decUtil),
};
/* siVal is newer than the reference's header; it is checked by hand below. */
static const struct our_field value[] = {
    FIELD(nvmlValue_t, dVal),   FIELD(nvmlValue_t, uiVal),  FIELD(nvmlValue_t, ulVal),
    FIELD(nvmlValue_t, ullVal), FIELD(nvmlValue_t, sllVal),
};
static const struct our_field field_value[] = {
    FIELD(nvmlFieldValue_t, fieldId),   FIELD(nvmlFieldValue_t, scopeId),
    FIELD(nvmlFieldValue_t, timestamp), FIELD(nvmlFieldValue_t, latencyUsec),
    FIELD(nvmlFieldValue_t, valueType), FIELD(nvmlFieldValue_t, nvmlReturn),
    FIELD(nvmlFieldValue_t, value),
};

static const struct our_record shared_records[] = {
    RECORD(nvmlPciInfo_st, nvmlPciInfo_t, pci_info),
    RECORD(nvmlUtilization_st, nvmlUtilization_t, utilization),
    RECORD(nvmlMemory_st, nvmlMemory_t, memory),
    RECORD(nvmlMemory_v2_st, nvmlMemory_v2_t, memory_v2),
    RECORD(nvmlBAR1Memory_st, nvmlBAR1Memory_t, bar1),
    RECORD(nvmlProcessInfo_v1_st, nvmlProcessInfo_v1_t, process_v1),
    RECORD(nvmlProcessInfo_v2_st, nvmlProcessInfo_v2_t, process_v2),
    /* Current headers' nvmlProcessInfo_t is the 24-byte layout, which ours aliases. */
    RECORD(nvmlProcessInfo_st, nvmlProcessInfo_t, process_v2),
    RECORD(nvmlProcessUtilizationSample_st, nvmlProcessUtilizationSample_t, process_sample),
    RECORD(nvmlValue_st, nvmlValue_t, value),
    RECORD(nvmlFieldValue_st, nvmlFieldValue_t, field_value),
};

static struct bindgen_model *model;

static int load_reference(void **state) {
    (void)state;
    char err[512];
    /* The environment may point at another copy (to see the test fail on a doctored one). */
    const char *path = getenv("NVT_NVML_BINDINGS");
    model = bindgen_model_load(path != NULL ? path : NVT_NVML_BINDINGS, err, sizeof(err));
    if (model == NULL) {
        fprintf(stderr, "abi_layout_test: %s\n", err);
        return -1;
    }
    return 0;
}

static int free_reference(void **state) {
    (void)state;
    bindgen_model_free(model);
    return 0;
}

static void check_record(const struct our_record *ours) {
    char err[512];
    size_t size = 0;
    if (!bindgen_model_sizeof(model, ours->name, &size, err, sizeof(err))) {
        fail_msg("%s: %s", ours->name, err);
    }
    if (size != ours->size) {
        fail_msg("%s: size %zu, reference %zu", ours->name, ours->size, size);
    }
    for (size_t i = 0; i < ours->count; i++) {
        const struct our_field *f = &ours->fields[i];
        size_t offset = 0;
        size_t field_size = 0;
        if (!bindgen_model_field(model, ours->name, f->name, &offset, &field_size, err,
                                 sizeof(err))) {
            fail_msg("%s: %s", ours->name, err);
        }
        if (offset != f->offset || field_size != f->size) {
            fail_msg("%s.%s: offset %zu size %zu, reference offset %zu size %zu", ours->name,
                     f->name, f->offset, f->size, offset, field_size);
        }
    }
    /* And the other way round: no reference field may be missing from ours. */
    for (size_t i = 0; i < bindgen_model_field_count(model, ours->name); i++) {
        const char *name = bindgen_model_field_name(model, ours->name, i);
        bool found = false;
        for (size_t j = 0; j < ours->count && !found; j++) {
            found = strcmp(ours->fields[j].name, name) == 0;
        }
        if (!found) {
            fail_msg("%s: reference field '%s' is not checked", ours->name, name);
        }
    }
}

static void test_shared_records(void **state) {
    (void)state;
    for (size_t i = 0; i < sizeof(shared_records) / sizeof(shared_records[0]); i++) {
        check_record(&shared_records[i]);
    }
}

/*
 * Layouts newer than the reference's header (R535+: nvmlProcessInfo_v3_t with the confidential-
 * computing counter, the process detail list, nvmlTemperature_v1_t) and the legacy PCI layout it
 * no longer carries.  Sizes and offsets checked by hand against NVIDIA's nvml.h.  If a newer
 * reference starts carrying one of them, it must not contradict these values.
 */
static void test_records_beyond_the_reference(void **state) {
    (void)state;
    assert_int_equal(sizeof(nvmlProcessInfo_v3_t), 32);
    assert_int_equal(offsetof(nvmlProcessInfo_v3_t, gpuInstanceId), 16);
    assert_int_equal(offsetof(nvmlProcessInfo_v3_t, usedGpuCcProtectedMemory), 24);
    assert_int_equal(sizeof(nvmlProcessDetail_v1_t), 32);
    assert_int_equal(offsetof(nvmlProcessDetail_v1_t, usedGpuCcProtectedMemory), 24);
    assert_int_equal(sizeof(nvmlProcessDetailList_v1_t), 24);
    assert_int_equal(offsetof(nvmlProcessDetailList_v1_t, numProcArrayEntries), 8);
    assert_int_equal(offsetof(nvmlProcessDetailList_v1_t, procArray), 16);
    assert_int_equal(nvmlProcessDetailList_v1, 24u | (1u << 24));
    assert_int_equal(sizeof(nvmlConfComputeMemSizeInfo_t), 16);
    assert_int_equal(sizeof(nvmlTemperature_v1_t), 12);
    assert_int_equal(offsetof(nvmlTemperature_v1_t, temperature), 8);
    assert_int_equal(nvmlTemperature_v1, 12u | (1u << 24));
    assert_int_equal(nvmlMemory_v2, 40u | (2u << 24));
    assert_int_equal(sizeof(nvmlPciInfo_v1_t), 52);
    assert_int_equal(offsetof(nvmlPciInfo_v1_t, pciSubSystemId), 32);
    assert_int_equal(offsetof(nvmlValue_t, siVal), 0);
    const char *beyond[] = {"nvmlProcessInfo_v3_st",       "nvmlProcessDetail_v1_st",
                            "nvmlProcessDetailList_v1_st", "nvmlConfComputeMemSizeInfo_st",
                            "nvmlTemperature_v1_st",       "nvmlPciInfo_v1_st"};
    const size_t sizes[] = {32, 32, 24, 16, 12, 52};
    for (size_t i = 0; i < sizeof(beyond) / sizeof(beyond[0]); i++) {
        size_t size = 0;
        char err[512];
        if (bindgen_model_has_record(model, beyond[i]) &&
            (!bindgen_model_sizeof(model, beyond[i], &size, err, sizeof(err)) ||
             size != sizes[i])) {
            fail_msg("%s: the reference now disagrees (%zu bytes)", beyond[i], size);
        }
    }
}

#include "abi_constants.h"

static void test_constants(void **state) {
    (void)state;
    for (size_t i = 0; i < sizeof(shared_constants) / sizeof(shared_constants[0]); i++) {
        const struct our_constant *c = &shared_constants[i];
        long long ref = 0;
        if (!bindgen_model_constant(model, c->reference_name, &ref)) {
            fail_msg("constant %s is not in the reference", c->reference_name);
        }
        if (ref != c->value) {
            fail_msg("constant %s: ours %lld, reference %lld", c->reference_name, c->value, ref);
        }
    }
    for (size_t i = 0; i < sizeof(newer_constants) / sizeof(newer_constants[0]); i++) {
        const struct newer_constant *c = &newer_constants[i];
        if (c->value != c->expected) {
            fail_msg("constant %s: ours %lld, NVIDIA's header %lld", c->name, c->value,
                     c->expected);
        }
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_shared_records),
        cmocka_unit_test(test_records_beyond_the_reference),
        cmocka_unit_test(test_constants),
    };
    return cmocka_run_group_tests(tests, load_reference, free_reference);
}
