/*
 * Exports: what identifies a device (index, name, UUID, serial, VBIOS) and its PCI facts.
 */
#include <stdio.h>
#include <string.h>

#define NVML_ABI_PROTOTYPES
#include "driver/sim_export.h"
#include "model/sim_value.h"

#define DEV(member) offsetof(struct sim_device, member)

nvmlReturn_t nvmlDeviceGetIndex(nvmlDevice_t device, unsigned int *index) {
    struct sim_query q;
    nvmlReturn_t ret = sim_begin_device(&q, SIM_CALL_nvmlDeviceGetIndex, device, index != NULL);
    if (ret == NVML_SUCCESS) {
        /* A MIG device answers with its slot on the parent. */
        *index = q.mig != NULL ? q.mig_slot - 1 : q.index;
    }
    return sim_end(&q, ret);
}

/* Name and UUID are the two strings MIG devices have of their own. */
static nvmlReturn_t mig_or_gpu_text(enum sim_call_id id, nvmlDevice_t device, size_t mig_offset,
                                    size_t gpu_offset, char *buf, unsigned int length) {
    struct sim_query q;
    nvmlReturn_t ret = sim_begin_device(&q, id, device, buf != NULL);
    if (ret == NVML_SUCCESS) {
        const void *text =
            q.mig != NULL ? (const char *)q.mig + mig_offset : (const char *)q.device + gpu_offset;
        ret = sim_copy_text(text, buf, length);
    }
    return sim_end(&q, ret);
}

nvmlReturn_t nvmlDeviceGetName(nvmlDevice_t device, char *name, unsigned int length) {
    return mig_or_gpu_text(SIM_CALL_nvmlDeviceGetName, device, offsetof(struct sim_mig, name),
                           DEV(name), name, length);
}

nvmlReturn_t nvmlDeviceGetUUID(nvmlDevice_t device, char *uuid, unsigned int length) {
    return mig_or_gpu_text(SIM_CALL_nvmlDeviceGetUUID, device, offsetof(struct sim_mig, uuid),
                           DEV(uuid), uuid, length);
}

nvmlReturn_t nvmlDeviceGetSerial(nvmlDevice_t device, char *serial, unsigned int length) {
    return sim_export_text(SIM_CALL_nvmlDeviceGetSerial, device, DEV(serial), serial, length);
}

nvmlReturn_t nvmlDeviceGetVbiosVersion(nvmlDevice_t device, char *version, unsigned int length) {
    return sim_export_text(SIM_CALL_nvmlDeviceGetVbiosVersion, device, DEV(vbios), version, length);
}

/* Fills the fields every PCI layout shares; the PCI ids are 0 when the scenario omits them. */
static void pci_common(const struct sim_query *q, unsigned int *domain, unsigned int *bus,
                       unsigned int *dev, unsigned int *device_id, unsigned int *subsystem_id) {
    const struct sim_pci *pci = &q->device->pci;
    *domain = pci->domain;
    *bus = pci->bus;
    *dev = pci->device;
    *device_id = 0;
    *subsystem_id = 0;
    sim_value_uint(&pci->device_id, q->t_s, device_id);
    sim_value_uint(&pci->subsystem_id, q->t_s, subsystem_id);
}

nvmlReturn_t nvmlDeviceGetPciInfo(nvmlDevice_t device, nvmlPciInfo_v1_t *pci) {
    struct sim_query q;
    nvmlReturn_t ret = sim_begin_gpu(&q, SIM_CALL_nvmlDeviceGetPciInfo, device, pci != NULL);
    if (ret == NVML_SUCCESS) {
        memset(pci, 0, sizeof(*pci));
        /* The legacy 16-byte field holds the short form with a 4-digit domain. */
        snprintf(pci->busId, sizeof(pci->busId), "%04X:%02X:%02X.0", q.device->pci.domain,
                 q.device->pci.bus, q.device->pci.device);
        pci_common(&q, &pci->domain, &pci->bus, &pci->device, &pci->pciDeviceId,
                   &pci->pciSubSystemId);
    }
    return sim_end(&q, ret);
}

/* _v3 fills the whole structure.  _v2 fills the structure of its time: the 16-byte bus id (now
 * busIdLegacy) and the numbers after it, and never writes the 32-byte busId that came later: a
 * real H100 on driver 580 leaves it as the caller had it (docs/hardware.md), and a caller built
 * against an old nvml.h has no room for it. */
static nvmlReturn_t pci_info(enum sim_call_id id, nvmlDevice_t device, nvmlPciInfo_t *pci,
                             bool full) {
    struct sim_query q;
    nvmlReturn_t ret = sim_begin_gpu(&q, id, device, pci != NULL);
    if (ret == NVML_SUCCESS) {
        if (full) {
            memset(pci, 0, sizeof(*pci));
            snprintf(pci->busId, sizeof(pci->busId), "%s", q.device->pci.bus_id);
        }
        memset(pci->busIdLegacy, 0, sizeof(pci->busIdLegacy));
        snprintf(pci->busIdLegacy, sizeof(pci->busIdLegacy), "%04X:%02X:%02X.0",
                 q.device->pci.domain, q.device->pci.bus, q.device->pci.device);
        pci_common(&q, &pci->domain, &pci->bus, &pci->device, &pci->pciDeviceId,
                   &pci->pciSubSystemId);
    }
    return sim_end(&q, ret);
}

nvmlReturn_t nvmlDeviceGetPciInfo_v2(nvmlDevice_t device, nvmlPciInfo_t *pci) {
    return pci_info(SIM_CALL_nvmlDeviceGetPciInfo_v2, device, pci, false);
}

nvmlReturn_t nvmlDeviceGetPciInfo_v3(nvmlDevice_t device, nvmlPciInfo_t *pci) {
    return pci_info(SIM_CALL_nvmlDeviceGetPciInfo_v3, device, pci, true);
}

nvmlReturn_t nvmlDeviceGetCurrPcieLinkGeneration(nvmlDevice_t device, unsigned int *currLinkGen) {
    return sim_export_uint(SIM_CALL_nvmlDeviceGetCurrPcieLinkGeneration, device, DEV(pci.link_gen),
                           currLinkGen);
}

nvmlReturn_t nvmlDeviceGetMaxPcieLinkGeneration(nvmlDevice_t device, unsigned int *maxLinkGen) {
    return sim_export_uint(SIM_CALL_nvmlDeviceGetMaxPcieLinkGeneration, device,
                           DEV(pci.link_gen_max), maxLinkGen);
}

nvmlReturn_t nvmlDeviceGetCurrPcieLinkWidth(nvmlDevice_t device, unsigned int *currLinkWidth) {
    return sim_export_uint(SIM_CALL_nvmlDeviceGetCurrPcieLinkWidth, device, DEV(pci.link_width),
                           currLinkWidth);
}

nvmlReturn_t nvmlDeviceGetMaxPcieLinkWidth(nvmlDevice_t device, unsigned int *maxLinkWidth) {
    return sim_export_uint(SIM_CALL_nvmlDeviceGetMaxPcieLinkWidth, device, DEV(pci.link_width_max),
                           maxLinkWidth);
}

nvmlReturn_t nvmlDeviceGetPcieThroughput(nvmlDevice_t device, nvmlPcieUtilCounter_t counter,
                                         unsigned int *value) {
    bool tx = counter == NVML_PCIE_UTIL_TX_BYTES;
    bool valid = tx || counter == NVML_PCIE_UTIL_RX_BYTES;
    /* An invalid counter gets the same INVALID_ARGUMENT as a NULL pointer. */
    return sim_export_uint(SIM_CALL_nvmlDeviceGetPcieThroughput, device,
                           tx ? DEV(pci.tx_kibps) : DEV(pci.rx_kibps), valid ? value : NULL);
}
