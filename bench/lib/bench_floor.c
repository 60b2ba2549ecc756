/*
 * The floor of bench-lib-snapshot (see bench_floor.h).  It uses the library's own loader, so the
 * function pointers are those the library calls through, and nothing else of the library.
 */
#include "bench_floor.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "nvml/nvml_loader.h"
#include "util/sys/clock.h"

#define MAX_DEVICES   64
#define MAX_PROCESSES 8192
/* Slots of the pid index: a power of two, at least twice MAX_PROCESSES. */
#define INDEX_SLOTS 16384
/* How long a process's status and cmdline are kept (the library's HOST_IDENTITY_TTL_S). */
#define IDENTITY_TTL_S 10.0

/* The host files a snapshot reads, kept open between passes. */
static const char *const HOST_FILES[] = {"/proc/stat", "/proc/meminfo", "/proc/loadavg",
                                         "/proc/uptime", "/proc/sys/kernel/hostname"};
#define HOST_FILE_COUNT (sizeof(HOST_FILES) / sizeof(HOST_FILES[0]))

/* A GPU process seen in a pass: its stat file kept open, and when status and cmdline were read. */
struct kept_process {
    unsigned pid;
    int stat_fd;
    double identity_s;
    unsigned long pass; /* the last pass that saw it */
};

/* Where a pid stands, found in a few probes whatever the count (open addressing; pid 0 is an
 * empty slot): its place in kept (+1, 0 for none) and the last pass that listed it. */
struct index_slot {
    unsigned pid;
    unsigned kept;
    unsigned long noted;
};

struct bench_floor {
    struct nvml_lib lib;
    nvmlDevice_t devices[MAX_DEVICES];
    unsigned count;
    nvmlProcessInfo_v2_t infos[MAX_PROCESSES];
    nvmlProcessUtilizationSample_t samples[MAX_PROCESSES];
    unsigned long long cursor[MAX_DEVICES];
    unsigned pids[MAX_PROCESSES];
    unsigned pid_count;
    int host_fds[HOST_FILE_COUNT];
    struct kept_process kept[MAX_PROCESSES];
    unsigned kept_count;
    unsigned long pass;
    struct index_slot index[INDEX_SLOTS];
    char buffer[1 << 16];
};

static struct index_slot *slot_of(struct bench_floor *floor, unsigned pid) {
    unsigned i = (pid * 2654435761u) & (INDEX_SLOTS - 1);
    while (floor->index[i].pid != 0 && floor->index[i].pid != pid) {
        i = (i + 1) & (INDEX_SLOTS - 1);
    }
    floor->index[i].pid = pid;
    return &floor->index[i];
}

int bench_floor_open(struct bench_floor **out) {
    struct bench_floor *floor = calloc(1, sizeof(*floor));
    if (floor == NULL) {
        return -1;
    }
    for (size_t i = 0; i < HOST_FILE_COUNT; i++) {
        floor->host_fds[i] = -1;
    }
    if (nvml_loader_open(NULL, &floor->lib) != NVT_OK || floor->lib.init == NULL ||
        floor->lib.init() != NVML_SUCCESS) {
        nvml_loader_close(&floor->lib);
        free(floor);
        return -1;
    }
    unsigned count = 0;
    floor->lib.device_count(&count);
    floor->count = count < MAX_DEVICES ? count : MAX_DEVICES;
    for (unsigned i = 0; i < floor->count; i++) {
        floor->lib.handle_by_index(i, &floor->devices[i]);
    }
    *out = floor;
    return 0;
}

void bench_floor_close(struct bench_floor *floor) {
    if (floor == NULL) {
        return;
    }
    for (size_t i = 0; i < HOST_FILE_COUNT; i++) {
        if (floor->host_fds[i] >= 0) {
            close(floor->host_fds[i]);
        }
    }
    for (unsigned i = 0; i < floor->kept_count; i++) {
        if (floor->kept[i].stat_fd >= 0) {
            close(floor->kept[i].stat_fd);
        }
    }
    floor->lib.api.nvmlShutdown();
    nvml_loader_close(&floor->lib);
    free(floor);
}

/* A whole proc file, opened and closed (what the library does for status and cmdline). */
static void read_file(struct bench_floor *floor, const char *path) {
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        return;
    }
    while (read(fd, floor->buffer, sizeof(floor->buffer)) > 0) {
    }
    close(fd);
}

/* A proc file through a kept descriptor: opened once, then one pread from its start, which makes
 * the kernel generate it afresh. */
static void reread(struct bench_floor *floor, int *fd, const char *path) {
    if (*fd < 0) {
        *fd = open(path, O_RDONLY | O_CLOEXEC);
    }
    if (*fd >= 0 && pread(*fd, floor->buffer, sizeof(floor->buffer), 0) < 0) {
        close(*fd);
        *fd = -1;
    }
}

/* One GPU process: its stat file through a kept descriptor, status and cmdline when first seen
 * and when 10 s old. */
static void read_process(struct bench_floor *floor, unsigned pid, double now) {
    struct index_slot *slot = slot_of(floor, pid);
    struct kept_process *p = slot->kept > 0 ? &floor->kept[slot->kept - 1] : NULL;
    if (p == NULL && floor->kept_count < MAX_PROCESSES) {
        p = &floor->kept[floor->kept_count++];
        *p = (struct kept_process){.pid = pid, .stat_fd = -1, .identity_s = -1e9};
        slot->kept = floor->kept_count;
    }
    if (p == NULL) {
        return;
    }
    char path[64];
    snprintf(path, sizeof(path), "/proc/%u/stat", pid);
    reread(floor, &p->stat_fd, path);
    p->pass = floor->pass;
    if (now - p->identity_s >= IDENTITY_TTL_S) {
        snprintf(path, sizeof(path), "/proc/%u/status", pid);
        read_file(floor, path);
        snprintf(path, sizeof(path), "/proc/%u/cmdline", pid);
        read_file(floor, path);
        p->identity_s = now;
    }
}

/* Processes not seen in the last two passes are forgotten, their descriptors closed, and the
 * index rebuilt for the others. */
static void forget_old(struct bench_floor *floor) {
    memset(floor->index, 0, sizeof(floor->index));
    unsigned kept = 0;
    for (unsigned i = 0; i < floor->kept_count; i++) {
        if (floor->pass - floor->kept[i].pass < 2) {
            floor->kept[kept++] = floor->kept[i];
            struct index_slot *slot = slot_of(floor, floor->kept[i].pid);
            slot->kept = kept;
            slot->noted = floor->kept[i].pass;
        } else if (floor->kept[i].stat_fd >= 0) {
            close(floor->kept[i].stat_fd);
        }
    }
    floor->kept_count = kept;
}

static void note_pid(struct bench_floor *floor, unsigned pid) {
    struct index_slot *slot = slot_of(floor, pid);
    if (pid == 0 || slot->noted == floor->pass) {
        return;
    }
    slot->noted = floor->pass;
    if (floor->pid_count < MAX_PROCESSES) {
        floor->pids[floor->pid_count++] = pid;
    }
}

/* The three process lists of one device; returns how many processes they hold. */
static unsigned list_processes(struct bench_floor *floor, nvmlDevice_t device) {
    const struct nvml_api *api = &floor->lib.api;
    nvmlReturn_t (*lists[])(nvmlDevice_t, unsigned int *, void *) = {
        api->nvmlDeviceGetComputeRunningProcesses_v3,
        api->nvmlDeviceGetGraphicsRunningProcesses_v3,
        api->nvmlDeviceGetMPSComputeRunningProcesses_v3,
    };
    unsigned total = 0;
    for (size_t k = 0; k < 3; k++) {
        unsigned int count = MAX_PROCESSES;
        if (lists[k] == NULL || lists[k](device, &count, floor->infos) != NVML_SUCCESS) {
            continue;
        }
        for (unsigned i = 0; i < count && i < MAX_PROCESSES; i++) {
            note_pid(floor, floor->infos[i].pid);
        }
        total += count;
    }
    return total;
}

static void query_device(struct bench_floor *floor, unsigned index) {
    const struct nvml_api *api = &floor->lib.api;
    nvmlDevice_t d = floor->devices[index];
    nvmlMemory_v2_t memory = {.version = nvmlMemory_v2};
    nvmlUtilization_t util;
    nvmlTemperature_v1_t temperature = {.version = nvmlTemperature_v1};
    unsigned int value;
    unsigned int pending;
    nvmlPstates_t pstate;
    nvmlEnableState_t state;
    nvmlComputeMode_t mode;
    unsigned long long ecc;
    api->nvmlDeviceGetMigMode(d, &value, &pending);
    api->nvmlDeviceGetMemoryInfo_v2(d, &memory);
    api->nvmlDeviceGetUtilizationRates(d, &util);
    api->nvmlDeviceGetFanSpeed(d, &value);
    api->nvmlDeviceGetTemperatureV(d, &temperature);
    api->nvmlDeviceGetPowerUsage(d, &value);
    api->nvmlDeviceGetPowerManagementLimit(d, &value);
    api->nvmlDeviceGetPerformanceState(d, &pstate);
    api->nvmlDeviceGetPersistenceMode(d, &state);
    api->nvmlDeviceGetDisplayActive(d, &state);
    api->nvmlDeviceGetTotalEccErrors(d, NVML_MEMORY_ERROR_TYPE_UNCORRECTED, NVML_VOLATILE_ECC,
                                     &ecc);
    api->nvmlDeviceGetComputeMode(d, &mode);
    if (list_processes(floor, d) > 0) {
        unsigned int count = MAX_PROCESSES;
        if (api->nvmlDeviceGetProcessUtilization(d, floor->samples, &count, floor->cursor[index]) ==
            NVML_SUCCESS) {
            for (unsigned i = 0; i < count && i < MAX_PROCESSES; i++) {
                if (floor->samples[i].timeStamp > floor->cursor[index]) {
                    floor->cursor[index] = floor->samples[i].timeStamp;
                }
            }
        }
    }
}

void bench_floor_pass(struct bench_floor *floor) {
    floor->pid_count = 0;
    floor->pass++;
    for (unsigned i = 0; i < floor->count; i++) {
        query_device(floor, i);
    }
    for (size_t i = 0; i < HOST_FILE_COUNT; i++) {
        reread(floor, &floor->host_fds[i], HOST_FILES[i]);
    }
    double now = clock_monotonic_s();
    for (unsigned i = 0; i < floor->pid_count; i++) {
        read_process(floor, floor->pids[i], now);
    }
    forget_old(floor);
}
