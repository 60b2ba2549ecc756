/*
 * Static device facts: read once per context, group by group, only when first asked for.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nvml/nvml_backend.h"
#include "nvml/nvml_private.h"
#include "util/array.h"
#include "util/text/str.h"

static uint32_t u32_or_na(nvmlReturn_t result, unsigned int value) {
    return result == NVML_SUCCESS ? value : NVT_NA_U32;
}

/* "DDDD:BB:DD.F" (any number of hex digits per part) to NVML's "DDDDDDDD:BB:DD.F". */
static bool format_bus_id(const char *text, char *out, size_t size) {
    unsigned long parts[4];
    const char separators[] = {':', ':', '.', '\0'};
    for (size_t i = 0; i < 4; i++) {
        char *end = NULL;
        parts[i] = strtoul(text, &end, 16);
        if (end == text || *end != separators[i] || parts[i] > 0xFFFFFFFFUL) {
            return false;
        }
        text = end + 1;
    }
    snprintf(out, size, "%08lX:%02lX:%02lX.%lX", parts[0], parts[1], parts[2], parts[3]);
    return true;
}

/* A 16-byte bus id with a 4-digit domain ("0000:1A:00.0"), in the 8-digit form of current
 * drivers, so that ids look and compare the same. */
static void widen_bus_id(const char *legacy, size_t size, struct nvt_device_info *info) {
    char bus_id[NVML_DEVICE_PCI_BUS_ID_BUFFER_SIZE];
    size_t n = strnlen(legacy, size < sizeof(bus_id) ? size : sizeof(bus_id) - 1);
    memcpy(bus_id, legacy, n);
    bus_id[n] = '\0';
    if (!format_bus_id(bus_id, info->bus_id, sizeof(info->bus_id))) {
        str_copy(info->bus_id, sizeof(info->bus_id), bus_id);
    }
}

/* Old drivers: the unversioned call and its layout. */
static void read_pci_legacy(struct nvml_backend *backend, nvmlDevice_t handle,
                            struct nvt_device_info *info) {
    nvmlPciInfo_v1_t legacy;
    memset(&legacy, 0, sizeof(legacy));
    nvmlReturn_t result = NVML_QUERY(backend, nvmlDeviceGetPciInfo, handle, &legacy);
    if (result == NVML_SUCCESS) {
        widen_bus_id(legacy.busId, sizeof(legacy.busId), info);
        info->pci_domain = legacy.domain;
        info->pci_bus = legacy.bus;
        info->pci_device = legacy.device;
        info->pci_device_id = legacy.pciDeviceId;
        info->pci_subsystem_id = legacy.pciSubSystemId;
    }
}

static void read_pci(struct nvml_backend *backend, nvmlDevice_t handle,
                     struct nvt_device_info *info) {
    struct nvml_lib *lib = &backend->lib;
    nvmlReturn_t result = NVML_ERROR_FUNCTION_NOT_FOUND;
    nvmlPciInfo_t pci;
    memset(&pci, 0, sizeof(pci));
    if (lib->pci_info != NULL) {
        result = lib->pci_info(handle, &pci);
        /* A _v3 stub: _v2 (its 16-byte field, widened below); without it, the legacy call. */
        if (result == NVML_ERROR_FUNCTION_NOT_FOUND &&
            lib->pci_info != lib->api.nvmlDeviceGetPciInfo_v2 &&
            lib->api.nvmlDeviceGetPciInfo_v2 != NULL) {
            lib->pci_info = lib->api.nvmlDeviceGetPciInfo_v2;
            result = lib->pci_info(handle, &pci);
        }
        if (result == NVML_ERROR_FUNCTION_NOT_FOUND) {
            lib->pci_info = NULL;
            lib->pci_info_legacy = lib->api.nvmlDeviceGetPciInfo;
        }
    }
    if (result != NVML_ERROR_FUNCTION_NOT_FOUND) {
        nvml_note(backend, "nvmlDeviceGetPciInfo", result);
        if (result == NVML_SUCCESS && pci.busId[0] == '\0') {
            /* _v2 fills only the 16-byte field (a real driver leaves busId as it was). */
            widen_bus_id(pci.busIdLegacy, sizeof(pci.busIdLegacy), info);
        } else if (result == NVML_SUCCESS) {
            str_copy(info->bus_id, sizeof(info->bus_id), pci.busId);
        }
        if (result == NVML_SUCCESS) {
            info->pci_domain = pci.domain;
            info->pci_bus = pci.bus;
            info->pci_device = pci.device;
            info->pci_device_id = pci.pciDeviceId;
            info->pci_subsystem_id = pci.pciSubSystemId;
        }
        return;
    }
    read_pci_legacy(backend, handle, info);
}

/* Each reader returns the result of its first query, so that a group read while the GPU was
 * lost can be read again later. */
static nvmlReturn_t read_core(struct nvml_backend *backend, nvmlDevice_t handle, bool is_mig,
                              struct nvt_device_info *info) {
    char name[NVML_DEVICE_NAME_V2_BUFFER_SIZE];
    nvmlReturn_t result = NVML_QUERY(backend, nvmlDeviceGetName, handle, name, sizeof(name));
    nvml_copy_string(info->name, sizeof(info->name), name, result);
    /* A MIG device shares its parent's PCI location; the caller copies it from the parent. */
    if (!is_mig && result != NVML_ERROR_GPU_IS_LOST) {
        read_pci(backend, handle, info);
    }
    return result;
}

static nvmlReturn_t read_uuid(struct nvml_backend *backend, nvmlDevice_t handle,
                              struct nvt_device_info *info) {
    char uuid[NVML_DEVICE_UUID_V2_BUFFER_SIZE];
    nvmlReturn_t result = NVML_QUERY(backend, nvmlDeviceGetUUID, handle, uuid, sizeof(uuid));
    nvml_copy_string(info->uuid, sizeof(info->uuid), uuid, result);
    return result;
}

static nvmlReturn_t read_extra(struct nvml_backend *backend, nvmlDevice_t handle,
                               struct nvt_device_info *info) {
    char text[NVML_DEVICE_SERIAL_BUFFER_SIZE + NVML_DEVICE_VBIOS_VERSION_BUFFER_SIZE];
    nvmlReturn_t result;
    unsigned int value = 0;
    unsigned int second = 0;

    nvmlReturn_t first = NVML_QUERY(backend, nvmlDeviceGetSerial, handle, text, sizeof(text));
    nvml_copy_string(info->serial, sizeof(info->serial), text, first);
    if (first == NVML_ERROR_GPU_IS_LOST) {
        return first;
    }
    result = NVML_QUERY(backend, nvmlDeviceGetVbiosVersion, handle, text, sizeof(text));
    nvml_copy_string(info->vbios_version, sizeof(info->vbios_version), text, result);

    static const nvmlClockType_t clocks[] = {NVML_CLOCK_GRAPHICS, NVML_CLOCK_SM, NVML_CLOCK_MEM,
                                             NVML_CLOCK_VIDEO};
    uint32_t *targets[] = {&info->max_clock_graphics_mhz, &info->max_clock_sm_mhz,
                           &info->max_clock_memory_mhz, &info->max_clock_video_mhz};
    for (size_t i = 0; i < ARRAY_SIZE(clocks); i++) {
        result = NVML_QUERY(backend, nvmlDeviceGetMaxClockInfo, handle, clocks[i], &value);
        *targets[i] = u32_or_na(result, value);
    }

    result =
        NVML_QUERY(backend, nvmlDeviceGetPowerManagementLimitConstraints, handle, &value, &second);
    info->power_limit_min_mw = u32_or_na(result, value);
    info->power_limit_max_mw = u32_or_na(result, second);
    result = NVML_QUERY(backend, nvmlDeviceGetMaxPcieLinkGeneration, handle, &value);
    info->pcie_link_gen_max = u32_or_na(result, value);
    result = NVML_QUERY(backend, nvmlDeviceGetMaxPcieLinkWidth, handle, &value);
    info->pcie_link_width_max = u32_or_na(result, value);

    int major = 0;
    int minor = 0;
    result = NVML_QUERY(backend, nvmlDeviceGetCudaComputeCapability, handle, &major, &minor);
    info->cuda_cc_major = result == NVML_SUCCESS ? major : NVT_NA_I32;
    info->cuda_cc_minor = result == NVML_SUCCESS ? minor : NVT_NA_I32;
    return first;
}

static nvmlReturn_t read_nvlink_count(struct nvml_backend *backend, nvmlDevice_t handle,
                                      struct nvt_device_info *info) {
    nvmlFieldValue_t field;
    memset(&field, 0, sizeof(field));
    field.fieldId = NVML_FI_DEV_NVLINK_LINK_COUNT;
    nvmlReturn_t result = NVML_QUERY_QUIET(backend, nvmlDeviceGetFieldValues, handle, 1, &field);
    info->nvlink_count = 0;
    if (result == NVML_SUCCESS && field.nvmlReturn == NVML_SUCCESS) {
        unsigned long long count = field.valueType == NVML_VALUE_TYPE_UNSIGNED_LONG_LONG
                                       ? field.value.ullVal
                                       : field.value.uiVal;
        info->nvlink_count = count > NVT_NVLINK_MAX_LINKS ? NVT_NVLINK_MAX_LINKS : (uint32_t)count;
    }
    return result;
}

static nvmlReturn_t read_mig(struct nvml_backend *backend, nvmlDevice_t handle, bool is_mig,
                             struct nvt_device_info *info) {
    unsigned int value = 0;
    nvmlReturn_t result = NVML_SUCCESS;
    if (is_mig) {
        /* 0xFFFFFFFF is NVML's own "no id", which is NVT_NA_U32 as well. */
        result = NVML_QUERY_QUIET(backend, nvmlDeviceGetGpuInstanceId, handle, &value);
        info->gpu_instance_id = u32_or_na(result, value);
        nvmlReturn_t second =
            NVML_QUERY_QUIET(backend, nvmlDeviceGetComputeInstanceId, handle, &value);
        info->compute_instance_id = u32_or_na(second, value);
        return result;
    }
    /* The caller has set mig_supported from the MIG mode of a state read (which reads it
     * anyway), so that the mode is not queried twice. */
    info->mig_max_count = 0;
    if (info->mig_supported) {
        result = NVML_QUERY_QUIET(backend, nvmlDeviceGetMaxMigDeviceCount, handle, &value);
        info->mig_max_count = result == NVML_SUCCESS ? value : 0;
    }
    return result;
}

unsigned nvml_device_facts(struct nvml_backend *backend, struct nvml_device *device,
                           unsigned groups, struct nvt_device_info *info) {
    nvmlDevice_t handle = device->handle;
    if (handle == NULL) {
        return groups; /* nothing will ever be readable */
    }
    unsigned lost = 0;
    if ((groups & NVML_FACTS_CORE) != 0 &&
        read_core(backend, handle, device->is_mig, info) == NVML_ERROR_GPU_IS_LOST) {
        lost |= NVML_FACTS_CORE;
    }
    if ((groups & NVML_FACTS_UUID) != 0 &&
        read_uuid(backend, handle, info) == NVML_ERROR_GPU_IS_LOST) {
        lost |= NVML_FACTS_UUID;
    }
    if ((groups & NVML_FACTS_EXTRA) != 0 &&
        read_extra(backend, handle, info) == NVML_ERROR_GPU_IS_LOST) {
        lost |= NVML_FACTS_EXTRA;
    }
    if ((groups & NVML_FACTS_NVLINK) != 0 && !device->is_mig &&
        read_nvlink_count(backend, handle, info) == NVML_ERROR_GPU_IS_LOST) {
        lost |= NVML_FACTS_NVLINK;
    }
    if ((groups & NVML_FACTS_MIG) != 0 &&
        read_mig(backend, handle, device->is_mig, info) == NVML_ERROR_GPU_IS_LOST) {
        lost |= NVML_FACTS_MIG;
    }
    return groups & ~lost;
}
