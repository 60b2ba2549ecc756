/*
 * Our own declarations of the subset of NVIDIA's NVML C ABI that this project uses.
 *
 * The names, values, struct layouts and version words follow NVIDIA's public nvml.h, so that a
 * library built from this header is interchangeable with the real libnvidia-ml.so.1 and a client
 * built from it can load the real driver.  No NVIDIA header is needed at build time (the nvtop
 * recipe).  tests/abi/abi_layout_test.c checks every struct here against an independent
 * reference: the bindgen output of NVIDIA's header shipped in Debian's
 * librust-nvml-wrapper-sys-dev.
 *
 * Users: src/lib/nvml/ (the loader resolves NVML_ABI_FUNCTIONS into function pointers) and sim/
 * (which defines NVML_ABI_PROTOTYPES and implements every entry point).  Nothing else includes
 * this file.
 */
#ifndef NVITOP_SRC_LIB_NVML_NVML_ABI_H
#define NVITOP_SRC_LIB_NVML_NVML_ABI_H

/* Return codes (nvmlReturn_t).  The values are ABI and never change. */
typedef enum nvmlReturn_enum {
    NVML_SUCCESS = 0,
    NVML_ERROR_UNINITIALIZED = 1,
    NVML_ERROR_INVALID_ARGUMENT = 2,
    NVML_ERROR_NOT_SUPPORTED = 3,
    NVML_ERROR_NO_PERMISSION = 4,
    NVML_ERROR_ALREADY_INITIALIZED = 5,
    NVML_ERROR_NOT_FOUND = 6,
    NVML_ERROR_INSUFFICIENT_SIZE = 7,
    NVML_ERROR_INSUFFICIENT_POWER = 8,
    NVML_ERROR_DRIVER_NOT_LOADED = 9,
    NVML_ERROR_TIMEOUT = 10,
    NVML_ERROR_IRQ_ISSUE = 11,
    NVML_ERROR_LIBRARY_NOT_FOUND = 12,
    NVML_ERROR_FUNCTION_NOT_FOUND = 13,
    NVML_ERROR_CORRUPTED_INFOROM = 14,
    NVML_ERROR_GPU_IS_LOST = 15,
    NVML_ERROR_RESET_REQUIRED = 16,
    NVML_ERROR_OPERATING_SYSTEM = 17,
    NVML_ERROR_LIB_RM_VERSION_MISMATCH = 18,
    NVML_ERROR_IN_USE = 19,
    NVML_ERROR_MEMORY = 20,
    NVML_ERROR_NO_DATA = 21,
    NVML_ERROR_VGPU_ECC_NOT_SUPPORTED = 22,
    NVML_ERROR_INSUFFICIENT_RESOURCES = 23,
    NVML_ERROR_FREQ_NOT_SUPPORTED = 24,
    NVML_ERROR_ARGUMENT_VERSION_MISMATCH = 25,
    NVML_ERROR_UNKNOWN = 999
} nvmlReturn_t;

/* Buffer sizes from nvml.h. */
#define NVML_DEVICE_PCI_BUS_ID_BUFFER_SIZE     32
#define NVML_DEVICE_PCI_BUS_ID_BUFFER_V2_SIZE  16
#define NVML_DEVICE_UUID_BUFFER_SIZE           80
#define NVML_DEVICE_UUID_V2_BUFFER_SIZE        96
#define NVML_DEVICE_NAME_BUFFER_SIZE           64
#define NVML_DEVICE_NAME_V2_BUFFER_SIZE        96
#define NVML_DEVICE_SERIAL_BUFFER_SIZE         30
#define NVML_DEVICE_VBIOS_VERSION_BUFFER_SIZE  32
#define NVML_SYSTEM_DRIVER_VERSION_BUFFER_SIZE 80
#define NVML_SYSTEM_NVML_VERSION_BUFFER_SIZE   80
#define NVML_NVLINK_MAX_LINKS                  18
#define NVML_VALUE_NOT_AVAILABLE               (-1)
#define NVML_VALUE_NOT_AVAILABLE_ULL           (~0ULL)

#define NVML_INIT_FLAG_NO_GPUS   1
#define NVML_INIT_FLAG_NO_ATTACH 2

#define NVML_DEVICE_MIG_DISABLE 0
#define NVML_DEVICE_MIG_ENABLE  1

/* Field ids used with nvmlDeviceGetFieldValues. */
#define NVML_FI_DEV_NVLINK_LINK_COUNT         91
#define NVML_FI_DEV_NVLINK_THROUGHPUT_DATA_TX 138
#define NVML_FI_DEV_NVLINK_THROUGHPUT_DATA_RX 139
/* Cumulative PCIe bytes since the driver loaded (R555 and later). */
#define NVML_FI_DEV_PCIE_COUNT_TX_BYTES 197
#define NVML_FI_DEV_PCIE_COUNT_RX_BYTES 198

/* Versioned structs carry (sizeof(struct) | version << 24) in their first word. */
#define NVML_STRUCT_VERSION(size, ver) ((unsigned int)(size) | ((unsigned int)(ver) << 24U))

typedef struct nvmlDevice_st *nvmlDevice_t;

typedef enum nvmlEnableState_enum {
    NVML_FEATURE_DISABLED = 0,
    NVML_FEATURE_ENABLED = 1
} nvmlEnableState_t;

typedef enum nvmlTemperatureSensors_enum {
    NVML_TEMPERATURE_GPU = 0,
    NVML_TEMPERATURE_COUNT
} nvmlTemperatureSensors_t;

/* nvmlDeviceGetTemperatureThreshold.  Older headers lack GPS_CURR, so their COUNT is 7. */
typedef enum nvmlTemperatureThresholds_enum {
    NVML_TEMPERATURE_THRESHOLD_SHUTDOWN = 0,
    NVML_TEMPERATURE_THRESHOLD_SLOWDOWN = 1,
    NVML_TEMPERATURE_THRESHOLD_MEM_MAX = 2,
    NVML_TEMPERATURE_THRESHOLD_GPU_MAX = 3,
    NVML_TEMPERATURE_THRESHOLD_ACOUSTIC_MIN = 4,
    NVML_TEMPERATURE_THRESHOLD_ACOUSTIC_CURR = 5,
    NVML_TEMPERATURE_THRESHOLD_ACOUSTIC_MAX = 6,
    NVML_TEMPERATURE_THRESHOLD_GPS_CURR = 7,
    NVML_TEMPERATURE_THRESHOLD_COUNT
} nvmlTemperatureThresholds_t;

typedef enum nvmlComputeMode_enum {
    NVML_COMPUTEMODE_DEFAULT = 0,
    NVML_COMPUTEMODE_EXCLUSIVE_THREAD = 1,
    NVML_COMPUTEMODE_PROHIBITED = 2,
    NVML_COMPUTEMODE_EXCLUSIVE_PROCESS = 3,
    NVML_COMPUTEMODE_COUNT
} nvmlComputeMode_t;

typedef enum nvmlMemoryErrorType_enum {
    NVML_MEMORY_ERROR_TYPE_CORRECTED = 0,
    NVML_MEMORY_ERROR_TYPE_UNCORRECTED = 1,
    NVML_MEMORY_ERROR_TYPE_COUNT
} nvmlMemoryErrorType_t;

typedef enum nvmlEccCounterType_enum {
    NVML_VOLATILE_ECC = 0,
    NVML_AGGREGATE_ECC = 1,
    NVML_ECC_COUNTER_TYPE_COUNT
} nvmlEccCounterType_t;

typedef enum nvmlClockType_enum {
    NVML_CLOCK_GRAPHICS = 0,
    NVML_CLOCK_SM = 1,
    NVML_CLOCK_MEM = 2,
    NVML_CLOCK_VIDEO = 3,
    NVML_CLOCK_COUNT
} nvmlClockType_t;

typedef enum nvmlPstates_enum {
    NVML_PSTATE_0 = 0,
    NVML_PSTATE_15 = 15,
    NVML_PSTATE_UNKNOWN = 32
} nvmlPstates_t;

typedef enum nvmlPcieUtilCounter_enum {
    NVML_PCIE_UTIL_TX_BYTES = 0,
    NVML_PCIE_UTIL_RX_BYTES = 1,
    NVML_PCIE_UTIL_COUNT
} nvmlPcieUtilCounter_t;

typedef enum nvmlDriverModel_enum {
    NVML_DRIVER_WDDM = 0,
    NVML_DRIVER_WDM = 1
} nvmlDriverModel_t;

typedef enum nvmlValueType_enum {
    NVML_VALUE_TYPE_DOUBLE = 0,
    NVML_VALUE_TYPE_UNSIGNED_INT = 1,
    NVML_VALUE_TYPE_UNSIGNED_LONG = 2,
    NVML_VALUE_TYPE_UNSIGNED_LONG_LONG = 3,
    NVML_VALUE_TYPE_SIGNED_LONG_LONG = 4,
    NVML_VALUE_TYPE_SIGNED_INT = 5,
    NVML_VALUE_TYPE_COUNT
} nvmlValueType_t;

/* nvmlDeviceGetPciInfo_v2/_v3 layout. */
typedef struct nvmlPciInfo_st {
    char busIdLegacy[NVML_DEVICE_PCI_BUS_ID_BUFFER_V2_SIZE];
    unsigned int domain;
    unsigned int bus;
    unsigned int device;
    unsigned int pciDeviceId;
    unsigned int pciSubSystemId;
    char busId[NVML_DEVICE_PCI_BUS_ID_BUFFER_SIZE];
} nvmlPciInfo_t;

/* The layout the unversioned nvmlDeviceGetPciInfo of old drivers fills. */
typedef struct nvmlPciInfo_v1_st {
    char busId[NVML_DEVICE_PCI_BUS_ID_BUFFER_V2_SIZE];
    unsigned int domain;
    unsigned int bus;
    unsigned int device;
    unsigned int pciDeviceId;
    unsigned int pciSubSystemId;
    unsigned int reserved0;
    unsigned int reserved1;
    unsigned int reserved2;
    unsigned int reserved3;
} nvmlPciInfo_v1_t;

typedef struct nvmlUtilization_st {
    unsigned int gpu;
    unsigned int memory;
} nvmlUtilization_t;

typedef struct nvmlMemory_st {
    unsigned long long total;
    unsigned long long free;
    unsigned long long used;
} nvmlMemory_t;

typedef struct nvmlMemory_v2_st {
    unsigned int version;
    unsigned long long total;
    unsigned long long reserved;
    unsigned long long free;
    unsigned long long used;
} nvmlMemory_v2_t;
#define nvmlMemory_v2 NVML_STRUCT_VERSION(sizeof(nvmlMemory_v2_t), 2)

typedef struct nvmlBAR1Memory_st {
    unsigned long long bar1Total;
    unsigned long long bar1Free;
    unsigned long long bar1Used;
} nvmlBAR1Memory_t;

/* Process-list element layouts: v1 (16 bytes), v2 (24 bytes) and the 32-byte struct that R535
 * briefly used for the _v3 entry points (see docs/nvitop-behaviour.md §9.1 and
 * docs/architecture.md). */
typedef struct nvmlProcessInfo_v1_st {
    unsigned int pid;
    unsigned long long usedGpuMemory;
} nvmlProcessInfo_v1_t;

typedef struct nvmlProcessInfo_v2_st {
    unsigned int pid;
    unsigned long long usedGpuMemory;
    unsigned int gpuInstanceId;
    unsigned int computeInstanceId;
} nvmlProcessInfo_v2_t;

typedef struct nvmlProcessInfo_v3_st {
    unsigned int pid;
    unsigned long long usedGpuMemory;
    unsigned int gpuInstanceId;
    unsigned int computeInstanceId;
    unsigned long long usedGpuCcProtectedMemory;
} nvmlProcessInfo_v3_t;

/* What current headers call nvmlProcessInfo_t: the 24-byte layout. */
typedef nvmlProcessInfo_v2_t nvmlProcessInfo_t;

typedef struct nvmlProcessDetail_v1_st {
    unsigned int pid;
    unsigned long long usedGpuMemory;
    unsigned int gpuInstanceId;
    unsigned int computeInstanceId;
    unsigned long long usedGpuCcProtectedMemory;
} nvmlProcessDetail_v1_t;

#define NVML_PROCESS_MODE_COMPUTE  0
#define NVML_PROCESS_MODE_GRAPHICS 1
#define NVML_PROCESS_MODE_MPS      2

typedef struct nvmlProcessDetailList_v1_st {
    unsigned int version;
    unsigned int mode;
    unsigned int numProcArrayEntries;
    nvmlProcessDetail_v1_t *procArray;
} nvmlProcessDetailList_v1_t;
#define nvmlProcessDetailList_v1 NVML_STRUCT_VERSION(sizeof(nvmlProcessDetailList_v1_t), 1)

typedef struct nvmlConfComputeMemSizeInfo_st {
    unsigned long long protectedMemSizeKib;
    unsigned long long unprotectedMemSizeKib;
} nvmlConfComputeMemSizeInfo_t;

typedef struct nvmlTemperature_v1_st {
    unsigned int version;
    nvmlTemperatureSensors_t sensorType;
    int temperature;
} nvmlTemperature_v1_t;
#define nvmlTemperature_v1 NVML_STRUCT_VERSION(sizeof(nvmlTemperature_v1_t), 1)

typedef struct nvmlProcessUtilizationSample_st {
    unsigned int pid;
    unsigned long long timeStamp;
    unsigned int smUtil;
    unsigned int memUtil;
    unsigned int encUtil;
    unsigned int decUtil;
} nvmlProcessUtilizationSample_t;

typedef union nvmlValue_st {
    double dVal;
    int siVal;
    unsigned int uiVal;
    unsigned long ulVal;
    unsigned long long ullVal;
    signed long long sllVal;
} nvmlValue_t;

typedef struct nvmlFieldValue_st {
    unsigned int fieldId;
    unsigned int scopeId;
    long long timestamp;
    long long latencyUsec;
    nvmlValueType_t valueType;
    nvmlReturn_t nvmlReturn;
    nvmlValue_t value;
} nvmlFieldValue_t;

/* Types of the monitoring entry points below (NVML_ABI_MONITOR_FUNCTIONS). */
#define NVML_DEVICE_INFOROM_VERSION_BUFFER_SIZE 16
#define NVML_DEVICE_PART_NUMBER_BUFFER_SIZE     80
#define NVML_SYSTEM_PROCESS_NAME_BUFFER_SIZE    256

typedef unsigned int nvmlDeviceArchitecture_t; /* NVML_DEVICE_ARCH_KEPLER (2) ... */
#define NVML_DEVICE_ARCH_KEPLER    2
#define NVML_DEVICE_ARCH_BLACKWELL 10
#define NVML_DEVICE_ARCH_UNKNOWN   0xffffffffU

typedef unsigned int nvmlBusType_t; /* 0 unknown, 1 PCI, 2 PCIe, 3 FPCI, 4 AGP */
#define NVML_BUS_TYPE_PCIE 2

typedef unsigned int nvmlPowerSource_t; /* 0 AC, 1 battery, 2 undersized */

/* What nvmlDeviceGetPcieLinkMaxSpeed answers: an enumeration of per-lane rates. */
#define NVML_PCIE_LINK_MAX_SPEED_INVALID   0
#define NVML_PCIE_LINK_MAX_SPEED_2500MBPS  1
#define NVML_PCIE_LINK_MAX_SPEED_5000MBPS  2
#define NVML_PCIE_LINK_MAX_SPEED_8000MBPS  3
#define NVML_PCIE_LINK_MAX_SPEED_16000MBPS 4
#define NVML_PCIE_LINK_MAX_SPEED_32000MBPS 5
#define NVML_PCIE_LINK_MAX_SPEED_64000MBPS 6

typedef enum nvmlBrandType_enum {
    NVML_BRAND_UNKNOWN = 0,
    NVML_BRAND_TITAN_RTX = 16,
    NVML_BRAND_COUNT = 17
} nvmlBrandType_t;

typedef enum nvmlClockId_enum {
    NVML_CLOCK_ID_CURRENT = 0,
    NVML_CLOCK_ID_APP_CLOCK_TARGET = 1,
    NVML_CLOCK_ID_APP_CLOCK_DEFAULT = 2,
    NVML_CLOCK_ID_CUSTOMER_BOOST_MAX = 3,
    NVML_CLOCK_ID_COUNT
} nvmlClockId_t;

typedef enum nvmlInforomObject_enum {
    NVML_INFOROM_OEM = 0,
    NVML_INFOROM_ECC = 1,
    NVML_INFOROM_POWER = 2,
    NVML_INFOROM_COUNT
} nvmlInforomObject_t;

typedef enum nvmlGom_enum {
    NVML_GOM_ALL_ON = 0,
    NVML_GOM_COMPUTE = 1,
    NVML_GOM_LOW_DP = 2
} nvmlGpuOperationMode_t;

typedef enum nvmlSamplingType_enum {
    NVML_TOTAL_POWER_SAMPLES = 0,
    NVML_GPU_UTILIZATION_SAMPLES = 1,
    NVML_MEMORY_UTILIZATION_SAMPLES = 2,
    NVML_ENC_UTILIZATION_SAMPLES = 3,
    NVML_DEC_UTILIZATION_SAMPLES = 4,
    NVML_PROCESSOR_CLK_SAMPLES = 5,
    NVML_MEMORY_CLK_SAMPLES = 6,
    NVML_SAMPLINGTYPE_COUNT
} nvmlSamplingType_t;

typedef struct nvmlSample_st {
    unsigned long long timeStamp;
    nvmlValue_t sampleValue;
} nvmlSample_t;

typedef struct nvmlAccountingStats_st {
    unsigned int gpuUtilization;
    unsigned int memoryUtilization;
    unsigned long long maxMemoryUsage;
    unsigned long long time;
    unsigned long long startTime;
    unsigned int isRunning;
    unsigned int reserved[5];
} nvmlAccountingStats_t;

typedef struct nvmlHwbcEntry_st {
    unsigned int hwbcId;
    char firmwareVersion[32];
} nvmlHwbcEntry_t;

/*
 * Every entry point, as X(name, parameter list).  All return nvmlReturn_t; nvmlErrorString is the
 * one exception and is declared separately.  The order groups entry points by subject only.
 */
#define NVML_ABI_FUNCTIONS(X)                                                                      \
    X(nvmlInit, (void))                                                                            \
    X(nvmlInit_v2, (void))                                                                         \
    X(nvmlInitWithFlags, (unsigned int flags))                                                     \
    X(nvmlShutdown, (void))                                                                        \
    X(nvmlSystemGetDriverVersion, (char *version, unsigned int length))                            \
    X(nvmlSystemGetNVMLVersion, (char *version, unsigned int length))                              \
    X(nvmlSystemGetCudaDriverVersion, (int *cudaDriverVersion))                                    \
    X(nvmlSystemGetCudaDriverVersion_v2, (int *cudaDriverVersion))                                 \
    X(nvmlDeviceGetCount, (unsigned int *deviceCount))                                             \
    X(nvmlDeviceGetCount_v2, (unsigned int *deviceCount))                                          \
    X(nvmlDeviceGetHandleByIndex, (unsigned int index, nvmlDevice_t *device))                      \
    X(nvmlDeviceGetHandleByIndex_v2, (unsigned int index, nvmlDevice_t *device))                   \
    X(nvmlDeviceGetHandleByUUID, (const char *uuid, nvmlDevice_t *device))                         \
    X(nvmlDeviceGetHandleByPciBusId, (const char *pciBusId, nvmlDevice_t *device))                 \
    X(nvmlDeviceGetHandleByPciBusId_v2, (const char *pciBusId, nvmlDevice_t *device))              \
    X(nvmlDeviceGetIndex, (nvmlDevice_t device, unsigned int *index))                              \
    X(nvmlDeviceGetName, (nvmlDevice_t device, char *name, unsigned int length))                   \
    X(nvmlDeviceGetUUID, (nvmlDevice_t device, char *uuid, unsigned int length))                   \
    X(nvmlDeviceGetSerial, (nvmlDevice_t device, char *serial, unsigned int length))               \
    X(nvmlDeviceGetVbiosVersion, (nvmlDevice_t device, char *version, unsigned int length))        \
    X(nvmlDeviceGetPciInfo, (nvmlDevice_t device, nvmlPciInfo_v1_t * pci))                         \
    X(nvmlDeviceGetPciInfo_v2, (nvmlDevice_t device, nvmlPciInfo_t * pci))                         \
    X(nvmlDeviceGetPciInfo_v3, (nvmlDevice_t device, nvmlPciInfo_t * pci))                         \
    X(nvmlDeviceGetCurrPcieLinkGeneration, (nvmlDevice_t device, unsigned int *currLinkGen))       \
    X(nvmlDeviceGetMaxPcieLinkGeneration, (nvmlDevice_t device, unsigned int *maxLinkGen))         \
    X(nvmlDeviceGetCurrPcieLinkWidth, (nvmlDevice_t device, unsigned int *currLinkWidth))          \
    X(nvmlDeviceGetMaxPcieLinkWidth, (nvmlDevice_t device, unsigned int *maxLinkWidth))            \
    X(nvmlDeviceGetPcieThroughput,                                                                 \
      (nvmlDevice_t device, nvmlPcieUtilCounter_t counter, unsigned int *value))                   \
    X(nvmlDeviceGetMemoryInfo, (nvmlDevice_t device, nvmlMemory_t * memory))                       \
    X(nvmlDeviceGetMemoryInfo_v2, (nvmlDevice_t device, nvmlMemory_v2_t * memory))                 \
    X(nvmlDeviceGetBAR1MemoryInfo, (nvmlDevice_t device, nvmlBAR1Memory_t * bar1Memory))           \
    X(nvmlDeviceGetUtilizationRates, (nvmlDevice_t device, nvmlUtilization_t * utilization))       \
    X(nvmlDeviceGetEncoderUtilization,                                                             \
      (nvmlDevice_t device, unsigned int *utilization, unsigned int *samplingPeriodUs))            \
    X(nvmlDeviceGetDecoderUtilization,                                                             \
      (nvmlDevice_t device, unsigned int *utilization, unsigned int *samplingPeriodUs))            \
    X(nvmlDeviceGetClockInfo, (nvmlDevice_t device, nvmlClockType_t type, unsigned int *clock))    \
    X(nvmlDeviceGetMaxClockInfo, (nvmlDevice_t device, nvmlClockType_t type, unsigned int *clock)) \
    X(nvmlDeviceGetFanSpeed, (nvmlDevice_t device, unsigned int *speed))                           \
    X(nvmlDeviceGetTemperature,                                                                    \
      (nvmlDevice_t device, nvmlTemperatureSensors_t sensorType, unsigned int *temp))              \
    X(nvmlDeviceGetTemperatureV, (nvmlDevice_t device, nvmlTemperature_v1_t * temperature))        \
    X(nvmlDeviceGetTemperatureThreshold,                                                           \
      (nvmlDevice_t device, nvmlTemperatureThresholds_t thresholdType, unsigned int *temp))        \
    X(nvmlDeviceGetPowerUsage, (nvmlDevice_t device, unsigned int *power))                         \
    X(nvmlDeviceGetPowerManagementMode, (nvmlDevice_t device, nvmlEnableState_t * mode))           \
    X(nvmlDeviceGetPowerManagementLimit, (nvmlDevice_t device, unsigned int *limit))               \
    X(nvmlDeviceGetPowerManagementLimitConstraints,                                                \
      (nvmlDevice_t device, unsigned int *minLimit, unsigned int *maxLimit))                       \
    X(nvmlDeviceGetEnforcedPowerLimit, (nvmlDevice_t device, unsigned int *limit))                 \
    X(nvmlDeviceGetDisplayActive, (nvmlDevice_t device, nvmlEnableState_t * isActive))             \
    X(nvmlDeviceGetDisplayMode, (nvmlDevice_t device, nvmlEnableState_t * display))                \
    X(nvmlDeviceGetPersistenceMode, (nvmlDevice_t device, nvmlEnableState_t * mode))               \
    X(nvmlDeviceGetPerformanceState, (nvmlDevice_t device, nvmlPstates_t * pState))                \
    X(nvmlDeviceGetPowerState, (nvmlDevice_t device, nvmlPstates_t * pState))                      \
    X(nvmlDeviceGetTotalEccErrors,                                                                 \
      (nvmlDevice_t device, nvmlMemoryErrorType_t errorType, nvmlEccCounterType_t counterType,     \
       unsigned long long *eccCounts))                                                             \
    X(nvmlDeviceGetComputeMode, (nvmlDevice_t device, nvmlComputeMode_t * mode))                   \
    X(nvmlDeviceGetDriverModel,                                                                    \
      (nvmlDevice_t device, nvmlDriverModel_t * current, nvmlDriverModel_t * pending))             \
    X(nvmlDeviceGetCudaComputeCapability, (nvmlDevice_t device, int *major, int *minor))           \
    X(nvmlDeviceIsMigDeviceHandle, (nvmlDevice_t device, unsigned int *isMigDevice))               \
    X(nvmlDeviceGetMigMode,                                                                        \
      (nvmlDevice_t device, unsigned int *currentMode, unsigned int *pendingMode))                 \
    X(nvmlDeviceGetMaxMigDeviceCount, (nvmlDevice_t device, unsigned int *count))                  \
    X(nvmlDeviceGetMigDeviceHandleByIndex,                                                         \
      (nvmlDevice_t device, unsigned int index, nvmlDevice_t *migDevice))                          \
    X(nvmlDeviceGetDeviceHandleFromMigDeviceHandle,                                                \
      (nvmlDevice_t migDevice, nvmlDevice_t * device))                                             \
    X(nvmlDeviceGetGpuInstanceId, (nvmlDevice_t device, unsigned int *id))                         \
    X(nvmlDeviceGetComputeInstanceId, (nvmlDevice_t device, unsigned int *id))                     \
    X(nvmlDeviceGetComputeRunningProcesses,                                                        \
      (nvmlDevice_t device, unsigned int *infoCount, nvmlProcessInfo_v1_t *infos))                 \
    X(nvmlDeviceGetComputeRunningProcesses_v2,                                                     \
      (nvmlDevice_t device, unsigned int *infoCount, nvmlProcessInfo_v2_t *infos))                 \
    X(nvmlDeviceGetComputeRunningProcesses_v3,                                                     \
      (nvmlDevice_t device, unsigned int *infoCount, void *infos))                                 \
    X(nvmlDeviceGetGraphicsRunningProcesses,                                                       \
      (nvmlDevice_t device, unsigned int *infoCount, nvmlProcessInfo_v1_t *infos))                 \
    X(nvmlDeviceGetGraphicsRunningProcesses_v2,                                                    \
      (nvmlDevice_t device, unsigned int *infoCount, nvmlProcessInfo_v2_t *infos))                 \
    X(nvmlDeviceGetGraphicsRunningProcesses_v3,                                                    \
      (nvmlDevice_t device, unsigned int *infoCount, void *infos))                                 \
    X(nvmlDeviceGetMPSComputeRunningProcesses,                                                     \
      (nvmlDevice_t device, unsigned int *infoCount, nvmlProcessInfo_v1_t *infos))                 \
    X(nvmlDeviceGetMPSComputeRunningProcesses_v2,                                                  \
      (nvmlDevice_t device, unsigned int *infoCount, nvmlProcessInfo_v2_t *infos))                 \
    X(nvmlDeviceGetMPSComputeRunningProcesses_v3,                                                  \
      (nvmlDevice_t device, unsigned int *infoCount, void *infos))                                 \
    X(nvmlDeviceGetRunningProcessDetailList,                                                       \
      (nvmlDevice_t device, nvmlProcessDetailList_v1_t * plist))                                   \
    X(nvmlDeviceGetConfComputeMemSizeInfo,                                                         \
      (nvmlDevice_t device, nvmlConfComputeMemSizeInfo_t * memInfo))                               \
    X(nvmlDeviceGetProcessUtilization,                                                             \
      (nvmlDevice_t device, nvmlProcessUtilizationSample_t * utilization,                          \
       unsigned int *processSamplesCount, unsigned long long lastSeenTimeStamp))                   \
    X(nvmlDeviceGetFieldValues, (nvmlDevice_t device, int valuesCount, nvmlFieldValue_t *values))

/*
 * The monitoring entry points that the library does not call but other NVML clients do
 * (nvidia-smi's users, nvml-wrapper, go-nvml, dcgm-exporter): the simulator exports them, the
 * loader does not resolve them.  Same form as NVML_ABI_FUNCTIONS.
 */
#define NVML_ABI_MONITOR_FUNCTIONS(X)                                                              \
    X(nvmlDeviceGetNumFans, (nvmlDevice_t device, unsigned int *numFans))                          \
    X(nvmlDeviceGetFanSpeed_v2, (nvmlDevice_t device, unsigned int fan, unsigned int *speed))      \
    X(nvmlDeviceGetEccMode,                                                                        \
      (nvmlDevice_t device, nvmlEnableState_t * current, nvmlEnableState_t * pending))             \
    X(nvmlDeviceGetNvLinkState,                                                                    \
      (nvmlDevice_t device, unsigned int link, nvmlEnableState_t *isActive))                       \
    X(nvmlDeviceGetNvLinkVersion, (nvmlDevice_t device, unsigned int link, unsigned int *version)) \
    X(nvmlDeviceGetNvLinkRemotePciInfo_v2,                                                         \
      (nvmlDevice_t device, unsigned int link, nvmlPciInfo_t *pci))                                \
    X(nvmlDeviceGetPowerManagementDefaultLimit, (nvmlDevice_t device, unsigned int *defaultLimit)) \
    X(nvmlDeviceGetTotalEnergyConsumption, (nvmlDevice_t device, unsigned long long *energy))      \
    X(nvmlDeviceGetCurrentClocksThrottleReasons,                                                   \
      (nvmlDevice_t device, unsigned long long *clocksThrottleReasons))                            \
    X(nvmlDeviceGetClock, (nvmlDevice_t device, nvmlClockType_t clockType, nvmlClockId_t clockId,  \
                           unsigned int *clockMHz))                                                \
    X(nvmlDeviceGetApplicationsClock,                                                              \
      (nvmlDevice_t device, nvmlClockType_t clockType, unsigned int *clockMHz))                    \
    X(nvmlDeviceGetMaxCustomerBoostClock,                                                          \
      (nvmlDevice_t device, nvmlClockType_t clockType, unsigned int *clockMHz))                    \
    X(nvmlDeviceGetArchitecture, (nvmlDevice_t device, nvmlDeviceArchitecture_t * arch))           \
    X(nvmlDeviceGetBrand, (nvmlDevice_t device, nvmlBrandType_t * type))                           \
    X(nvmlDeviceGetBoardId, (nvmlDevice_t device, unsigned int *boardId))                          \
    X(nvmlDeviceGetBoardPartNumber, (nvmlDevice_t device, char *partNumber, unsigned int length))  \
    X(nvmlDeviceGetBusType, (nvmlDevice_t device, nvmlBusType_t * type))                           \
    X(nvmlDeviceGetMemoryBusWidth, (nvmlDevice_t device, unsigned int *busWidth))                  \
    X(nvmlDeviceGetNumGpuCores, (nvmlDevice_t device, unsigned int *numCores))                     \
    X(nvmlDeviceGetPcieLinkMaxSpeed, (nvmlDevice_t device, unsigned int *maxSpeed))                \
    X(nvmlDeviceGetPcieReplayCounter, (nvmlDevice_t device, unsigned int *value))                  \
    X(nvmlDeviceGetPowerSource, (nvmlDevice_t device, nvmlPowerSource_t * powerSource))            \
    X(nvmlDeviceGetMinorNumber, (nvmlDevice_t device, unsigned int *minorNumber))                  \
    X(nvmlDeviceGetMultiGpuBoard, (nvmlDevice_t device, unsigned int *multiGpuBool))               \
    X(nvmlDeviceGetIrqNum, (nvmlDevice_t device, unsigned int *irqNum))                            \
    X(nvmlDeviceGetInforomImageVersion, (nvmlDevice_t device, char *version, unsigned int length)) \
    X(nvmlDeviceGetInforomVersion,                                                                 \
      (nvmlDevice_t device, nvmlInforomObject_t object, char *version, unsigned int length))       \
    X(nvmlDeviceGetGpuOperationMode,                                                               \
      (nvmlDevice_t device, nvmlGpuOperationMode_t * current, nvmlGpuOperationMode_t * pending))   \
    X(nvmlDeviceGetAutoBoostedClocksEnabled,                                                       \
      (nvmlDevice_t device, nvmlEnableState_t * isEnabled, nvmlEnableState_t * defaultIsEnabled))  \
    X(nvmlDeviceGetRetiredPagesPendingStatus,                                                      \
      (nvmlDevice_t device, nvmlEnableState_t * isPending))                                        \
    X(nvmlDeviceGetSamples,                                                                        \
      (nvmlDevice_t device, nvmlSamplingType_t type, unsigned long long lastSeenTimeStamp,         \
       nvmlValueType_t *sampleValType, unsigned int *sampleCount, nvmlSample_t *samples))          \
    X(nvmlDeviceGetAccountingMode, (nvmlDevice_t device, nvmlEnableState_t * mode))                \
    X(nvmlDeviceGetAccountingPids, (nvmlDevice_t device, unsigned int *count, unsigned int *pids)) \
    X(nvmlDeviceGetAccountingStats,                                                                \
      (nvmlDevice_t device, unsigned int pid, nvmlAccountingStats_t *stats))                       \
    X(nvmlDeviceGetHandleBySerial, (const char *serial, nvmlDevice_t *device))                     \
    X(nvmlSystemGetProcessName, (unsigned int pid, char *name, unsigned int length))               \
    X(nvmlSystemGetHicVersion, (unsigned int *hwbcCount, nvmlHwbcEntry_t *hwbcEntries))            \
    X(nvmlGetExcludedDeviceCount, (unsigned int *deviceCount))                                     \
    X(nvmlUnitGetCount, (unsigned int *unitCount))

/*
 * The _v3 process-list entry points take a void pointer above because the element layout they
 * fill depends on the driver generation (24 or 32 bytes); nvml_process.c decides which, by the
 * rule in docs/architecture.md.
 */

#ifdef NVML_ABI_PROTOTYPES
#define NVML_ABI_DECLARE(name, params) nvmlReturn_t name params;
NVML_ABI_FUNCTIONS(NVML_ABI_DECLARE)
NVML_ABI_MONITOR_FUNCTIONS(NVML_ABI_DECLARE)
#undef NVML_ABI_DECLARE
const char *nvmlErrorString(nvmlReturn_t result);
#endif

#endif /* NVITOP_SRC_LIB_NVML_NVML_ABI_H */
