/*
 * Exports: the system queries a driver answers from the host rather than a GPU: process names
 * (from the live /proc, as NVIDIA's driver does), the HIC firmware versions (S-class hardware
 * only: none here), the devices excluded from NVML (none) and S-class units (none).
 */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define NVML_ABI_PROTOTYPES
#include "driver/sim_state.h"
#include "model/sim_value.h"

/* The process's argv[0] (its comm when the command line is empty: kernel threads, zombies). */
static nvmlReturn_t read_process_name(unsigned int pid, char *out, size_t size) {
    char path[64];
    snprintf(path, sizeof(path), "/proc/%u/cmdline", pid);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        return NVML_ERROR_NOT_FOUND;
    }
    ssize_t n = read(fd, out, size - 1);
    close(fd);
    if (n <= 0) {
        snprintf(path, sizeof(path), "/proc/%u/comm", pid);
        fd = open(path, O_RDONLY | O_CLOEXEC);
        if (fd < 0) {
            return NVML_ERROR_NOT_FOUND;
        }
        n = read(fd, out, size - 1);
        close(fd);
        if (n <= 0) {
            return NVML_ERROR_NOT_FOUND;
        }
        if (out[n - 1] == '\n') {
            n--;
        }
    }
    out[n] = '\0';
    return NVML_SUCCESS;
}

nvmlReturn_t nvmlSystemGetProcessName(unsigned int pid, char *name, unsigned int length) {
    struct sim_query q;
    nvmlReturn_t ret = sim_begin(&q, SIM_CALL_nvmlSystemGetProcessName);
    if (ret == NVML_SUCCESS && (name == NULL || length == 0)) {
        ret = NVML_ERROR_INVALID_ARGUMENT;
    }
    char text[NVML_SYSTEM_PROCESS_NAME_BUFFER_SIZE];
    if (ret == NVML_SUCCESS) {
        ret = read_process_name(pid, text, sizeof(text));
    }
    if (ret == NVML_SUCCESS) {
        ret = sim_copy_string(text, name, length);
    }
    return sim_end(&q, ret);
}

nvmlReturn_t nvmlSystemGetHicVersion(unsigned int *hwbcCount, nvmlHwbcEntry_t *hwbcEntries) {
    struct sim_query q;
    nvmlReturn_t ret = sim_begin(&q, SIM_CALL_nvmlSystemGetHicVersion);
    if (ret == NVML_SUCCESS && hwbcCount == NULL) {
        ret = NVML_ERROR_INVALID_ARGUMENT;
    }
    (void)hwbcEntries;
    if (ret == NVML_SUCCESS) {
        *hwbcCount = 0;
    }
    return sim_end(&q, ret);
}

static nvmlReturn_t zero_count(enum sim_call_id id, unsigned int *count) {
    struct sim_query q;
    nvmlReturn_t ret = sim_begin(&q, id);
    if (ret == NVML_SUCCESS && count == NULL) {
        ret = NVML_ERROR_INVALID_ARGUMENT;
    }
    if (ret == NVML_SUCCESS) {
        *count = 0;
    }
    return sim_end(&q, ret);
}

nvmlReturn_t nvmlGetExcludedDeviceCount(unsigned int *deviceCount) {
    return zero_count(SIM_CALL_nvmlGetExcludedDeviceCount, deviceCount);
}

nvmlReturn_t nvmlUnitGetCount(unsigned int *unitCount) {
    return zero_count(SIM_CALL_nvmlUnitGetCount, unitCount);
}
