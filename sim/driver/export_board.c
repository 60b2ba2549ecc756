/*
 * Exports: what a board is (architecture, brand, board id and part number, bus, memory bus
 * width, cores, PCIe maximum speed and replay counter, power source, minor number, IRQ,
 * inforom versions) and the handle by serial number.  Every value comes from the scenario; a key
 * it leaves out answers NOT_SUPPORTED, as a board without that fact does.
 */
#include <string.h>

#define NVML_ABI_PROTOTYPES
#include "driver/sim_export.h"
#include "driver/sim_handle.h"
#include "model/sim_value.h"

#define DEV(member) offsetof(struct sim_device, member)

nvmlReturn_t nvmlDeviceGetArchitecture(nvmlDevice_t device, nvmlDeviceArchitecture_t *arch) {
    unsigned int v = 0;
    nvmlReturn_t ret = sim_export_uint(SIM_CALL_nvmlDeviceGetArchitecture, device,
                                       DEV(architecture), arch != NULL ? &v : NULL);
    if (ret == NVML_SUCCESS) {
        *arch = NVML_DEVICE_ARCH_KEPLER + v;
    }
    return ret;
}

nvmlReturn_t nvmlDeviceGetBrand(nvmlDevice_t device, nvmlBrandType_t *type) {
    unsigned int v = 0;
    nvmlReturn_t ret =
        sim_export_uint(SIM_CALL_nvmlDeviceGetBrand, device, DEV(brand), type != NULL ? &v : NULL);
    if (ret == NVML_SUCCESS) {
        *type = (nvmlBrandType_t)v;
    }
    return ret;
}

nvmlReturn_t nvmlDeviceGetBoardId(nvmlDevice_t device, unsigned int *boardId) {
    return sim_export_uint(SIM_CALL_nvmlDeviceGetBoardId, device, DEV(board_id), boardId);
}

nvmlReturn_t nvmlDeviceGetBoardPartNumber(nvmlDevice_t device, char *partNumber,
                                          unsigned int length) {
    return sim_export_text(SIM_CALL_nvmlDeviceGetBoardPartNumber, device, DEV(board_part_number),
                           partNumber, length);
}

nvmlReturn_t nvmlDeviceGetBusType(nvmlDevice_t device, nvmlBusType_t *type) {
    return sim_export_uint(SIM_CALL_nvmlDeviceGetBusType, device, DEV(bus_type), type);
}

nvmlReturn_t nvmlDeviceGetMemoryBusWidth(nvmlDevice_t device, unsigned int *busWidth) {
    return sim_export_uint(SIM_CALL_nvmlDeviceGetMemoryBusWidth, device, DEV(memory_bus_width),
                           busWidth);
}

nvmlReturn_t nvmlDeviceGetNumGpuCores(nvmlDevice_t device, unsigned int *numCores) {
    return sim_export_uint(SIM_CALL_nvmlDeviceGetNumGpuCores, device, DEV(cores), numCores);
}

nvmlReturn_t nvmlDeviceGetPcieLinkMaxSpeed(nvmlDevice_t device, unsigned int *maxSpeed) {
    return sim_export_uint(SIM_CALL_nvmlDeviceGetPcieLinkMaxSpeed, device, DEV(pci.max_speed),
                           maxSpeed);
}

nvmlReturn_t nvmlDeviceGetPcieReplayCounter(nvmlDevice_t device, unsigned int *value) {
    return sim_export_uint(SIM_CALL_nvmlDeviceGetPcieReplayCounter, device, DEV(pci.replay_counter),
                           value);
}

nvmlReturn_t nvmlDeviceGetPowerSource(nvmlDevice_t device, nvmlPowerSource_t *powerSource) {
    return sim_export_uint(SIM_CALL_nvmlDeviceGetPowerSource, device, DEV(power_source),
                           powerSource);
}

nvmlReturn_t nvmlDeviceGetMinorNumber(nvmlDevice_t device, unsigned int *minorNumber) {
    return sim_export_uint(SIM_CALL_nvmlDeviceGetMinorNumber, device, DEV(minor_number),
                           minorNumber);
}

nvmlReturn_t nvmlDeviceGetMultiGpuBoard(nvmlDevice_t device, unsigned int *multiGpuBool) {
    return sim_export_uint(SIM_CALL_nvmlDeviceGetMultiGpuBoard, device, DEV(multi_gpu_board),
                           multiGpuBool);
}

nvmlReturn_t nvmlDeviceGetIrqNum(nvmlDevice_t device, unsigned int *irqNum) {
    return sim_export_uint(SIM_CALL_nvmlDeviceGetIrqNum, device, DEV(irq), irqNum);
}

nvmlReturn_t nvmlDeviceGetInforomImageVersion(nvmlDevice_t device, char *version,
                                              unsigned int length) {
    return sim_export_text(SIM_CALL_nvmlDeviceGetInforomImageVersion, device, DEV(inforom_image),
                           version, length);
}

nvmlReturn_t nvmlDeviceGetInforomVersion(nvmlDevice_t device, nvmlInforomObject_t object,
                                         char *version, unsigned int length) {
    bool valid = (unsigned int)object < NVML_INFOROM_COUNT;
    return sim_export_text(SIM_CALL_nvmlDeviceGetInforomVersion, device,
                           valid ? DEV(inforom[object]) : 0, valid ? version : NULL, length);
}

/* GPUs only: MIG devices have no serial number of their own. */
nvmlReturn_t nvmlDeviceGetHandleBySerial(const char *serial, nvmlDevice_t *device) {
    struct sim_query q;
    nvmlReturn_t ret = sim_begin(&q, SIM_CALL_nvmlDeviceGetHandleBySerial);
    if (ret == NVML_SUCCESS && (serial == NULL || device == NULL)) {
        ret = NVML_ERROR_INVALID_ARGUMENT;
    }
    if (ret != NVML_SUCCESS) {
        return sim_end(&q, ret);
    }
    ret = NVML_ERROR_NOT_FOUND;
    for (size_t i = 0; i < q.model->device_count; i++) {
        const struct sim_device *dev = &q.model->devices[i];
        if (dev->serial.value != NULL && strcmp(dev->serial.value, serial) == 0) {
            ret = dev->lost ? NVML_ERROR_GPU_IS_LOST : NVML_SUCCESS;
            if (ret == NVML_SUCCESS) {
                *device = sim_handle_of((unsigned int)i, 0);
            }
            break;
        }
    }
    return sim_end(&q, ret);
}
