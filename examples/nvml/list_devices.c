/*
 * example-list-devices: list GPUs, their memory and their processes through NVML.
 *
 * It loads the driver the way every NVML client does: dlopen("libnvidia-ml.so.1") with no
 * link-time dependency, then dlsym for each entry point, preferring the newest versioned symbol
 * the driver has.  Run it against the simulated driver with
 *
 *     LD_LIBRARY_PATH=build/sim-driver NVML_SIM_SCENARIO=sim/scenarios/workstation-2gpu.json \
 *         build/examples/example-list-devices
 *
 * or against a real driver with no environment at all.
 */
#include <dlfcn.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nvml/nvml_abi.h"

#define MAX_PROCESSES 256

/* The entry points we use, each resolved to the newest version the driver exports. */
struct nvml {
    void *lib;
    nvmlReturn_t (*init)(void);
    nvmlReturn_t (*shutdown)(void);
    const char *(*error_string)(nvmlReturn_t);
    nvmlReturn_t (*driver_version)(char *, unsigned int);
    nvmlReturn_t (*cuda_version)(int *);
    nvmlReturn_t (*count)(unsigned int *);
    nvmlReturn_t (*handle)(unsigned int, nvmlDevice_t *);
    nvmlReturn_t (*name)(nvmlDevice_t, char *, unsigned int);
    nvmlReturn_t (*memory_v2)(nvmlDevice_t, nvmlMemory_v2_t *);
    nvmlReturn_t (*memory_v1)(nvmlDevice_t, nvmlMemory_t *);
    nvmlReturn_t (*compute)(nvmlDevice_t, unsigned int *, void *);
    nvmlReturn_t (*graphics)(nvmlDevice_t, unsigned int *, void *);
    size_t process_stride; /* element size of the process lists we call */
};

/* Returns the first of the given symbols the library has, or NULL. */
static void *resolve(void *lib, const char *const *names) {
    for (size_t i = 0; names[i] != NULL; i++) {
        void *sym = dlsym(lib, names[i]);
        if (sym != NULL) {
            return sym;
        }
    }
    return NULL;
}

#define RESOLVE(lib, ...) resolve((lib), (const char *const[]){__VA_ARGS__, NULL})

/*
 * Process lists: `_v3` fills the 32-byte layout only on drivers that have the confidential
 * computing query but not the detail list (R535); elsewhere `_v3` and `_v2` fill 24 bytes and
 * the unversioned call 16.
 */
static void resolve_process_lists(struct nvml *n) {
    n->compute = dlsym(n->lib, "nvmlDeviceGetComputeRunningProcesses_v3");
    n->graphics = dlsym(n->lib, "nvmlDeviceGetGraphicsRunningProcesses_v3");
    if (n->compute != NULL && n->graphics != NULL) {
        bool r535 = dlsym(n->lib, "nvmlDeviceGetConfComputeMemSizeInfo") != NULL &&
                    dlsym(n->lib, "nvmlDeviceGetRunningProcessDetailList") == NULL;
        n->process_stride = r535 ? sizeof(nvmlProcessInfo_v3_t) : sizeof(nvmlProcessInfo_v2_t);
        return;
    }
    n->compute = dlsym(n->lib, "nvmlDeviceGetComputeRunningProcesses_v2");
    n->graphics = dlsym(n->lib, "nvmlDeviceGetGraphicsRunningProcesses_v2");
    n->process_stride = sizeof(nvmlProcessInfo_v2_t);
    if (n->compute == NULL || n->graphics == NULL) {
        n->compute = dlsym(n->lib, "nvmlDeviceGetComputeRunningProcesses");
        n->graphics = dlsym(n->lib, "nvmlDeviceGetGraphicsRunningProcesses");
        n->process_stride = sizeof(nvmlProcessInfo_v1_t);
    }
}

static bool load(struct nvml *n) {
    n->lib = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
    if (n->lib == NULL) {
        fprintf(stderr, "example-list-devices: cannot load libnvidia-ml.so.1: %s\n", dlerror());
        return false;
    }
    n->init = RESOLVE(n->lib, "nvmlInit_v2", "nvmlInit");
    n->shutdown = RESOLVE(n->lib, "nvmlShutdown");
    n->error_string = RESOLVE(n->lib, "nvmlErrorString");
    n->driver_version = RESOLVE(n->lib, "nvmlSystemGetDriverVersion");
    n->cuda_version =
        RESOLVE(n->lib, "nvmlSystemGetCudaDriverVersion_v2", "nvmlSystemGetCudaDriverVersion");
    n->count = RESOLVE(n->lib, "nvmlDeviceGetCount_v2", "nvmlDeviceGetCount");
    n->handle = RESOLVE(n->lib, "nvmlDeviceGetHandleByIndex_v2", "nvmlDeviceGetHandleByIndex");
    n->name = RESOLVE(n->lib, "nvmlDeviceGetName");
    n->memory_v2 = RESOLVE(n->lib, "nvmlDeviceGetMemoryInfo_v2");
    n->memory_v1 = RESOLVE(n->lib, "nvmlDeviceGetMemoryInfo");
    resolve_process_lists(n);
    if (n->init == NULL || n->shutdown == NULL || n->error_string == NULL || n->count == NULL ||
        n->handle == NULL || n->name == NULL || n->memory_v1 == NULL || n->compute == NULL ||
        n->graphics == NULL) {
        fprintf(stderr, "example-list-devices: the driver lacks a basic NVML entry point\n");
        dlclose(n->lib);
        return false;
    }
    return true;
}

static void print_header(const struct nvml *n, unsigned int count) {
    char version[NVML_SYSTEM_DRIVER_VERSION_BUFFER_SIZE] = "N/A";
    int cuda = 0;
    if (n->driver_version == NULL || n->driver_version(version, sizeof(version)) != NVML_SUCCESS) {
        snprintf(version, sizeof(version), "N/A");
    }
    printf("Driver %s", version);
    if (n->cuda_version != NULL && n->cuda_version(&cuda) == NVML_SUCCESS) {
        printf(", CUDA %d.%d", cuda / 1000, cuda % 1000 / 10);
    }
    printf(", %u device%s\n", count, count == 1 ? "" : "s");
}

static void print_memory(const struct nvml *n, nvmlDevice_t dev) {
    unsigned long long used = 0;
    unsigned long long total = 0;
    nvmlReturn_t ret = NVML_ERROR_FUNCTION_NOT_FOUND;
    if (n->memory_v2 != NULL) {
        nvmlMemory_v2_t m = {.version = nvmlMemory_v2};
        ret = n->memory_v2(dev, &m);
        used = m.used;
        total = m.total;
    }
    if (ret == NVML_ERROR_FUNCTION_NOT_FOUND) {
        nvmlMemory_t m = {0};
        ret = n->memory_v1(dev, &m);
        used = m.used;
        total = m.total;
    }
    if (ret != NVML_SUCCESS) {
        printf("  memory: %s\n", n->error_string(ret));
        return;
    }
    printf("  memory: %llu MiB used / %llu MiB total\n", used >> 20, total >> 20);
}

/* The command name of a process from /proc, or a note that it is gone. */
static void command_name(unsigned int pid, char *buf, size_t size) {
    char path[64];
    snprintf(path, sizeof(path), "/proc/%u/comm", pid);
    FILE *f = fopen(path, "r");
    if (f == NULL || fgets(buf, (int)size, f) == NULL) {
        snprintf(buf, size, "(no such process)");
    }
    if (f != NULL) {
        fclose(f);
    }
    buf[strcspn(buf, "\n")] = '\0';
}

/* Both list layouts start with {pid, usedGpuMemory}, at the same offsets. */
static void print_list(const struct nvml *n, nvmlDevice_t dev, bool graphics) {
    static unsigned char buf[MAX_PROCESSES * sizeof(nvmlProcessInfo_v3_t)];
    unsigned int count = MAX_PROCESSES;
    nvmlReturn_t ret = (graphics ? n->graphics : n->compute)(dev, &count, buf);
    if (ret != NVML_SUCCESS) {
        printf("  %s processes: %s\n", graphics ? "graphics" : "compute", n->error_string(ret));
        return;
    }
    for (unsigned int i = 0; i < count; i++) {
        nvmlProcessInfo_v1_t p;
        memcpy(&p, buf + (size_t)i * n->process_stride, sizeof(p));
        char comm[64];
        command_name(p.pid, comm, sizeof(comm));
        printf("  %s pid %u: ", graphics ? "graphics" : "compute ", p.pid);
        if (p.usedGpuMemory == NVML_VALUE_NOT_AVAILABLE_ULL) {
            printf("N/A");
        } else {
            printf("%llu MiB", p.usedGpuMemory >> 20);
        }
        printf("  %s\n", comm);
    }
}

static void print_device(const struct nvml *n, unsigned int index) {
    nvmlDevice_t dev = NULL;
    nvmlReturn_t ret = n->handle(index, &dev);
    if (ret != NVML_SUCCESS) {
        printf("GPU %u: %s\n", index, n->error_string(ret));
        return;
    }
    char name[NVML_DEVICE_NAME_V2_BUFFER_SIZE];
    ret = n->name(dev, name, sizeof(name));
    printf("GPU %u: %s\n", index, ret == NVML_SUCCESS ? name : n->error_string(ret));
    print_memory(n, dev);
    print_list(n, dev, false);
    print_list(n, dev, true);
}

int main(void) {
    struct nvml n = {0};
    if (!load(&n)) {
        return 1;
    }
    nvmlReturn_t ret = n.init();
    if (ret != NVML_SUCCESS) {
        fprintf(stderr, "example-list-devices: nvmlInit: %s\n", n.error_string(ret));
        dlclose(n.lib);
        return 1;
    }
    unsigned int count = 0;
    ret = n.count(&count);
    if (ret != NVML_SUCCESS) {
        count = 0;
    }
    print_header(&n, count);
    for (unsigned int i = 0; i < count; i++) {
        print_device(&n, i);
    }
    n.shutdown();
    dlclose(n.lib);
    return 0;
}
