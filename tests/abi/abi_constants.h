/*
 * The NVML constants abi_layout_test.c compares, by the name bindgen gives them: enumerators are
 * "<enum tag>_<name>", #defines keep their name.  Included once, by abi_layout_test.c.
 */
#ifndef NVITOP_TESTS_ABI_ABI_CONSTANTS_H
#define NVITOP_TESTS_ABI_ABI_CONSTANTS_H

struct our_constant {
    const char *reference_name;
    long long value;
};

#define ENUMERATOR(tag, name)                                                                      \
    { #tag "_" #name, (long long)(name) }
#define DEFINE(name)                                                                               \
    { #name, (long long)(name) }

static const struct our_constant shared_constants[] = {
    ENUMERATOR(nvmlReturn_enum, NVML_SUCCESS),
    ENUMERATOR(nvmlReturn_enum, NVML_ERROR_UNINITIALIZED),
    ENUMERATOR(nvmlReturn_enum, NVML_ERROR_INVALID_ARGUMENT),
    ENUMERATOR(nvmlReturn_enum, NVML_ERROR_NOT_SUPPORTED),
    ENUMERATOR(nvmlReturn_enum, NVML_ERROR_NO_PERMISSION),
    ENUMERATOR(nvmlReturn_enum, NVML_ERROR_ALREADY_INITIALIZED),
    ENUMERATOR(nvmlReturn_enum, NVML_ERROR_NOT_FOUND),
    ENUMERATOR(nvmlReturn_enum, NVML_ERROR_INSUFFICIENT_SIZE),
    ENUMERATOR(nvmlReturn_enum, NVML_ERROR_INSUFFICIENT_POWER),
    ENUMERATOR(nvmlReturn_enum, NVML_ERROR_DRIVER_NOT_LOADED),
    ENUMERATOR(nvmlReturn_enum, NVML_ERROR_TIMEOUT),
    ENUMERATOR(nvmlReturn_enum, NVML_ERROR_IRQ_ISSUE),
    ENUMERATOR(nvmlReturn_enum, NVML_ERROR_LIBRARY_NOT_FOUND),
    ENUMERATOR(nvmlReturn_enum, NVML_ERROR_FUNCTION_NOT_FOUND),
    ENUMERATOR(nvmlReturn_enum, NVML_ERROR_CORRUPTED_INFOROM),
    ENUMERATOR(nvmlReturn_enum, NVML_ERROR_GPU_IS_LOST),
    ENUMERATOR(nvmlReturn_enum, NVML_ERROR_RESET_REQUIRED),
    ENUMERATOR(nvmlReturn_enum, NVML_ERROR_OPERATING_SYSTEM),
    ENUMERATOR(nvmlReturn_enum, NVML_ERROR_LIB_RM_VERSION_MISMATCH),
    ENUMERATOR(nvmlReturn_enum, NVML_ERROR_IN_USE),
    ENUMERATOR(nvmlReturn_enum, NVML_ERROR_MEMORY),
    ENUMERATOR(nvmlReturn_enum, NVML_ERROR_NO_DATA),
    ENUMERATOR(nvmlReturn_enum, NVML_ERROR_VGPU_ECC_NOT_SUPPORTED),
    ENUMERATOR(nvmlReturn_enum, NVML_ERROR_INSUFFICIENT_RESOURCES),
    ENUMERATOR(nvmlReturn_enum, NVML_ERROR_FREQ_NOT_SUPPORTED),
    ENUMERATOR(nvmlReturn_enum, NVML_ERROR_ARGUMENT_VERSION_MISMATCH),
    ENUMERATOR(nvmlReturn_enum, NVML_ERROR_UNKNOWN),
    DEFINE(NVML_DEVICE_PCI_BUS_ID_BUFFER_SIZE),
    DEFINE(NVML_DEVICE_PCI_BUS_ID_BUFFER_V2_SIZE),
    DEFINE(NVML_DEVICE_UUID_BUFFER_SIZE),
    DEFINE(NVML_DEVICE_UUID_V2_BUFFER_SIZE),
    DEFINE(NVML_DEVICE_NAME_BUFFER_SIZE),
    DEFINE(NVML_DEVICE_NAME_V2_BUFFER_SIZE),
    DEFINE(NVML_DEVICE_SERIAL_BUFFER_SIZE),
    DEFINE(NVML_DEVICE_VBIOS_VERSION_BUFFER_SIZE),
    DEFINE(NVML_SYSTEM_DRIVER_VERSION_BUFFER_SIZE),
    DEFINE(NVML_SYSTEM_NVML_VERSION_BUFFER_SIZE),
    DEFINE(NVML_NVLINK_MAX_LINKS),
    DEFINE(NVML_VALUE_NOT_AVAILABLE),
    DEFINE(NVML_INIT_FLAG_NO_GPUS),
    DEFINE(NVML_INIT_FLAG_NO_ATTACH),
    DEFINE(NVML_DEVICE_MIG_DISABLE),
    DEFINE(NVML_DEVICE_MIG_ENABLE),
    DEFINE(NVML_FI_DEV_NVLINK_LINK_COUNT),
    DEFINE(NVML_FI_DEV_NVLINK_THROUGHPUT_DATA_TX),
    DEFINE(NVML_FI_DEV_NVLINK_THROUGHPUT_DATA_RX),
    ENUMERATOR(nvmlEnableState_enum, NVML_FEATURE_DISABLED),
    ENUMERATOR(nvmlEnableState_enum, NVML_FEATURE_ENABLED),
    ENUMERATOR(nvmlTemperatureSensors_enum, NVML_TEMPERATURE_GPU),
    ENUMERATOR(nvmlTemperatureSensors_enum, NVML_TEMPERATURE_COUNT),
    ENUMERATOR(nvmlTemperatureThresholds_enum, NVML_TEMPERATURE_THRESHOLD_SHUTDOWN),
    ENUMERATOR(nvmlTemperatureThresholds_enum, NVML_TEMPERATURE_THRESHOLD_SLOWDOWN),
    ENUMERATOR(nvmlTemperatureThresholds_enum, NVML_TEMPERATURE_THRESHOLD_MEM_MAX),
    ENUMERATOR(nvmlTemperatureThresholds_enum, NVML_TEMPERATURE_THRESHOLD_GPU_MAX),
    ENUMERATOR(nvmlTemperatureThresholds_enum, NVML_TEMPERATURE_THRESHOLD_ACOUSTIC_MIN),
    ENUMERATOR(nvmlTemperatureThresholds_enum, NVML_TEMPERATURE_THRESHOLD_ACOUSTIC_CURR),
    ENUMERATOR(nvmlTemperatureThresholds_enum, NVML_TEMPERATURE_THRESHOLD_ACOUSTIC_MAX),
    ENUMERATOR(nvmlComputeMode_enum, NVML_COMPUTEMODE_DEFAULT),
    ENUMERATOR(nvmlComputeMode_enum, NVML_COMPUTEMODE_EXCLUSIVE_THREAD),
    ENUMERATOR(nvmlComputeMode_enum, NVML_COMPUTEMODE_PROHIBITED),
    ENUMERATOR(nvmlComputeMode_enum, NVML_COMPUTEMODE_EXCLUSIVE_PROCESS),
    ENUMERATOR(nvmlComputeMode_enum, NVML_COMPUTEMODE_COUNT),
    ENUMERATOR(nvmlMemoryErrorType_enum, NVML_MEMORY_ERROR_TYPE_CORRECTED),
    ENUMERATOR(nvmlMemoryErrorType_enum, NVML_MEMORY_ERROR_TYPE_UNCORRECTED),
    ENUMERATOR(nvmlMemoryErrorType_enum, NVML_MEMORY_ERROR_TYPE_COUNT),
    ENUMERATOR(nvmlEccCounterType_enum, NVML_VOLATILE_ECC),
    ENUMERATOR(nvmlEccCounterType_enum, NVML_AGGREGATE_ECC),
    ENUMERATOR(nvmlEccCounterType_enum, NVML_ECC_COUNTER_TYPE_COUNT),
    ENUMERATOR(nvmlClockType_enum, NVML_CLOCK_GRAPHICS),
    ENUMERATOR(nvmlClockType_enum, NVML_CLOCK_SM),
    ENUMERATOR(nvmlClockType_enum, NVML_CLOCK_MEM),
    ENUMERATOR(nvmlClockType_enum, NVML_CLOCK_VIDEO),
    ENUMERATOR(nvmlClockType_enum, NVML_CLOCK_COUNT),
    /* NVIDIA's tag is nvmlPStates_enum; ours (nvmlPstates_enum) differs only in the tag name. */
    ENUMERATOR(nvmlPStates_enum, NVML_PSTATE_0),
    ENUMERATOR(nvmlPStates_enum, NVML_PSTATE_15),
    ENUMERATOR(nvmlPStates_enum, NVML_PSTATE_UNKNOWN),
    ENUMERATOR(nvmlPcieUtilCounter_enum, NVML_PCIE_UTIL_TX_BYTES),
    ENUMERATOR(nvmlPcieUtilCounter_enum, NVML_PCIE_UTIL_RX_BYTES),
    ENUMERATOR(nvmlPcieUtilCounter_enum, NVML_PCIE_UTIL_COUNT),
    ENUMERATOR(nvmlDriverModel_enum, NVML_DRIVER_WDDM),
    ENUMERATOR(nvmlDriverModel_enum, NVML_DRIVER_WDM),
    ENUMERATOR(nvmlValueType_enum, NVML_VALUE_TYPE_DOUBLE),
    ENUMERATOR(nvmlValueType_enum, NVML_VALUE_TYPE_UNSIGNED_INT),
    ENUMERATOR(nvmlValueType_enum, NVML_VALUE_TYPE_UNSIGNED_LONG),
    ENUMERATOR(nvmlValueType_enum, NVML_VALUE_TYPE_UNSIGNED_LONG_LONG),
    ENUMERATOR(nvmlValueType_enum, NVML_VALUE_TYPE_SIGNED_LONG_LONG),
};

/* Constants the reference's header (NVML API 11) predates, with the values of NVIDIA's current
 * nvml.h, checked by hand. */
struct newer_constant {
    const char *name;
    long long value;
    long long expected;
};

static const struct newer_constant newer_constants[] = {
    /* R510 added SIGNED_INT (5), which moved COUNT from 5 to 6. */
    {"NVML_VALUE_TYPE_SIGNED_INT", NVML_VALUE_TYPE_SIGNED_INT, 5},
    {"NVML_VALUE_TYPE_COUNT", NVML_VALUE_TYPE_COUNT, 6},
    /* GPS_CURR (7) was added after the reference's header, which moved COUNT from 7 to 8. */
    {"NVML_TEMPERATURE_THRESHOLD_GPS_CURR", NVML_TEMPERATURE_THRESHOLD_GPS_CURR, 7},
    {"NVML_TEMPERATURE_THRESHOLD_COUNT", NVML_TEMPERATURE_THRESHOLD_COUNT, 8},
    {"NVML_VALUE_NOT_AVAILABLE_ULL", (long long)NVML_VALUE_NOT_AVAILABLE_ULL, -1},
    {"NVML_PROCESS_MODE_COMPUTE", NVML_PROCESS_MODE_COMPUTE, 0},
    {"NVML_PROCESS_MODE_GRAPHICS", NVML_PROCESS_MODE_GRAPHICS, 1},
    {"NVML_PROCESS_MODE_MPS", NVML_PROCESS_MODE_MPS, 2},
};

#endif /* NVITOP_TESTS_ABI_ABI_CONSTANTS_H */
