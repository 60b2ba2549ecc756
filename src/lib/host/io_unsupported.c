/*
 * The host I/O lists, the container of a process, and the host figures beyond struct
 * nvt_host_state (include/nvitop/host.h) where the back-end has none of them: every back-end but
 * Linux's (the Windows one and the N/A stubs of unsupported.c) reports NVT_ERR_NOT_SUPPORTED with
 * empty results.
 */
#include <stddef.h>

#include <nvitop/host.h>

nvt_status nvt_host_net_io(nvt_context *ctx, struct nvt_net_io **out, size_t *count) {
    (void)ctx;
    if (out != NULL && count != NULL) {
        *out = NULL;
        *count = 0;
    }
    return NVT_ERR_NOT_SUPPORTED;
}

nvt_status nvt_host_disk_io(nvt_context *ctx, struct nvt_disk_io **out, size_t *count) {
    (void)ctx;
    if (out != NULL && count != NULL) {
        *out = NULL;
        *count = 0;
    }
    return NVT_ERR_NOT_SUPPORTED;
}

nvt_status nvt_host_disk_usage(nvt_context *ctx, struct nvt_disk_usage **out, size_t *count) {
    (void)ctx;
    if (out != NULL && count != NULL) {
        *out = NULL;
        *count = 0;
    }
    return NVT_ERR_NOT_SUPPORTED;
}

nvt_status nvt_host_process_container(nvt_context *ctx, uint32_t pid, char *buf, size_t size) {
    (void)ctx;
    (void)pid;
    if (buf != NULL && size > 0) {
        buf[0] = '\0';
    }
    return NVT_ERR_NOT_SUPPORTED;
}

nvt_status nvt_host_cpu_times(nvt_context *ctx, struct nvt_cpu_times **out) {
    (void)ctx;
    if (out != NULL) {
        *out = NULL;
    }
    return NVT_ERR_NOT_SUPPORTED;
}

nvt_status nvt_host_virtual_memory(nvt_context *ctx, struct nvt_virtual_memory **out) {
    (void)ctx;
    if (out != NULL) {
        *out = NULL;
    }
    return NVT_ERR_NOT_SUPPORTED;
}

nvt_status nvt_host_swap_memory(nvt_context *ctx, struct nvt_swap_memory **out) {
    (void)ctx;
    if (out != NULL) {
        *out = NULL;
    }
    return NVT_ERR_NOT_SUPPORTED;
}

nvt_status nvt_host_process_memory_info(nvt_context *ctx, uint32_t pid,
                                        struct nvt_memory_info **out) {
    (void)ctx;
    (void)pid;
    if (out != NULL) {
        *out = NULL;
    }
    return NVT_ERR_NOT_SUPPORTED;
}
