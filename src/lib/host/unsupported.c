/*
 * The host back-end for systems without a Linux-style proc file system: the context opens, every
 * host value is N/A, and the public process functions report NVT_ERR_NOT_SUPPORTED, so that GPU
 * data still works there.
 */
#include <stdlib.h>
#include <string.h>

#include "host.h"

struct host_ctx {
    int unused;
};

nvt_status host_open(const char *proc_root, struct host_ctx **out) {
    (void)proc_root;
    if (out == NULL) {
        return NVT_ERR_INVALID_ARGUMENT;
    }
    *out = calloc(1, sizeof(**out));
    return *out != NULL ? NVT_OK : NVT_ERR_NO_MEMORY;
}

void host_set_command_only(struct host_ctx *host, bool command_only) {
    (void)host;
    (void)command_only; /* no processes are read */
}

void host_close(struct host_ctx *host) {
    free(host);
}

uint32_t host_cpu_count(const struct host_ctx *host) {
    (void)host;
    return 0;
}

nvt_status host_sample(struct host_ctx *host, struct nvt_host_state *out, double *per_cpu,
                       uint32_t per_cpu_cap) {
    (void)per_cpu;
    (void)per_cpu_cap;
    if (host == NULL || out == NULL) {
        return NVT_ERR_INVALID_ARGUMENT;
    }
    host_state_init_na(out);
    return NVT_OK;
}

nvt_status host_process_read(struct host_ctx *host, uint32_t pid, struct host_process *out) {
    if (host == NULL || out == NULL) {
        return NVT_ERR_INVALID_ARGUMENT;
    }
    memset(out, 0, sizeof(*out));
    host_process_init_na(&out->pub, pid, NVT_HOST_GONE);
    return NVT_OK;
}

bool host_process_keep(struct host_ctx *host, uint32_t pid, struct host_process *out) {
    (void)host;
    (void)pid;
    (void)out;
    return false;
}

void host_process_fini(struct host_process *process) {
    (void)process;
}

void host_generation_end(struct host_ctx *host) {
    (void)host;
}

uint64_t host_memory_total(struct host_ctx *host) {
    (void)host;
    return NVT_NA_U64;
}

void host_virtual_memory(struct host_ctx *host, uint64_t *total, uint64_t *free, uint64_t *used) {
    (void)host;
    *total = NVT_NA_U64;
    *free = NVT_NA_U64;
    *used = NVT_NA_U64;
}

nvt_status nvt_host_process_read(nvt_context *ctx, uint32_t pid, struct nvt_host_process **out) {
    (void)ctx;
    (void)pid;
    if (out != NULL) {
        *out = NULL;
    }
    return NVT_ERR_NOT_SUPPORTED;
}

void nvt_host_process_free(struct nvt_host_process *process) {
    free(process);
}

void nvt_host_process_pass_end(nvt_context *ctx) {
    (void)ctx;
}

nvt_status nvt_host_process_environ(nvt_context *ctx, uint32_t pid, char ***out, size_t *count) {
    (void)ctx;
    (void)pid;
    (void)out;
    (void)count;
    return NVT_ERR_NOT_SUPPORTED;
}

nvt_status nvt_host_process_cwd(nvt_context *ctx, uint32_t pid, char *buf, size_t size) {
    (void)ctx;
    (void)pid;
    if (buf != NULL && size > 0) {
        buf[0] = '\0';
    }
    return NVT_ERR_NOT_SUPPORTED;
}

nvt_status nvt_process_signal(nvt_context *ctx, uint32_t pid, double create_time,
                              int signal_number) {
    (void)ctx;
    (void)pid;
    (void)create_time;
    (void)signal_number;
    return NVT_ERR_NOT_SUPPORTED;
}

nvt_status nvt_host_ppid_map(nvt_context *ctx, uint32_t **pids, uint32_t **ppids, size_t *count) {
    (void)ctx;
    (void)pids;
    (void)ppids;
    (void)count;
    return NVT_ERR_NOT_SUPPORTED;
}
