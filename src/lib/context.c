/*
 * nvt_open / nvt_close: one NVML back-end (loaded and initialised once), the host back-end, and
 * the table of physical devices.
 */
#include <stdlib.h>
#include <string.h>

#include <nvitop/context.h>

#include "abi.h"
#include "host/host.h"
#include "internal.h"
#include "nvml/nvml_backend.h"

struct host_ctx *context_host(nvt_context *ctx) {
    return ctx->host;
}

size_t nvt_nvml_library_error(const struct nvt_options *opts, char *buf, size_t size) {
    if (buf == NULL) {
        size = 0;
    }
    return nvml_backend_library_error(opts != NULL ? opts->nvml_library_path : NULL, buf, size);
}

static void free_device(nvt_device *device) {
    if (device == NULL) {
        return;
    }
    for (uint32_t i = 0; i < device->child_count; i++) {
        free_device(device->children[i]);
    }
    free(device->children);
    for (uint32_t i = 0; i < device->retired_count; i++) {
        free_device(device->retired[i]);
    }
    free(device->retired);
    nvml_device_close(device->nvml);
    free(device);
}

static nvt_status open_devices(nvt_context *ctx) {
    uint32_t count = ctx->system.device_count;
    if (count == 0) {
        return NVT_OK;
    }
    ctx->devices = calloc(count, sizeof(nvt_device *));
    if (ctx->devices == NULL) {
        return NVT_ERR_NO_MEMORY;
    }
    for (uint32_t i = 0; i < count; i++) {
        nvt_device *device = calloc(1, sizeof(*device));
        if (device == NULL) {
            return NVT_ERR_NO_MEMORY;
        }
        ctx->devices[i] = device;
        device_init(device, ctx, NULL, i, NVT_NA_U32);
        nvt_status status = nvml_device_open(ctx->nvml, i, &device->nvml);
        if (status != NVT_OK) {
            return status;
        }
        device->info.handle_status = nvml_device_handle_status(device->nvml);
    }
    return NVT_OK;
}

static void clear_system(struct nvt_system_info *system) {
    memset(system, 0, sizeof(*system));
    system->cuda_driver_version = NVT_NA_I32;
}

nvt_status nvt_open(const struct nvt_options *opts, nvt_context **out) {
    if (out == NULL) {
        return NVT_ERR_INVALID_ARGUMENT;
    }
    *out = NULL;
    /* The caller's options over the defaults, as far as its struct goes. */
    struct nvt_options options;
    nvt_options_init(&options);
    if (opts != NULL) {
        if (opts->struct_size < ABI_OPTIONS_SIZE_1) {
            return NVT_ERR_INVALID_ARGUMENT;
        }
        abi_copy(&options, opts, opts->struct_size, sizeof(options));
    }
    opts = &options;
    nvt_context *ctx = calloc(1, sizeof(*ctx));
    if (ctx == NULL) {
        return NVT_ERR_NO_MEMORY;
    }
    clear_system(&ctx->system);
    nvt_status status = host_open(opts->proc_root, &ctx->host);
    if (status == NVT_OK) {
        host_set_command_only(ctx->host, opts->command_only);
    }
    if (status == NVT_OK && opts->cuda_library_path != NULL) {
        ctx->cuda_library_path = strdup(opts->cuda_library_path);
        status = ctx->cuda_library_path == NULL ? NVT_ERR_NO_MEMORY : NVT_OK;
    }
    if (status == NVT_OK && opts->host_only) {
        ctx->gpu_status = NVT_ERR_NOT_SUPPORTED;
    } else if (status == NVT_OK) {
        ctx->gpu_status = nvml_backend_open(opts->nvml_library_path, &ctx->nvml);
        if (ctx->gpu_status == NVT_ERR_NO_MEMORY) {
            status = NVT_ERR_NO_MEMORY;
        } else if (ctx->gpu_status != NVT_OK && !opts->allow_no_gpu) {
            status = ctx->gpu_status;
        }
    }
    if (status == NVT_OK && ctx->nvml != NULL) {
        nvml_backend_system_info(ctx->nvml, &ctx->system);
        status = open_devices(ctx);
    }
    if (status != NVT_OK) {
        nvt_close(ctx);
        return status;
    }
    *out = ctx;
    return NVT_OK;
}

void nvt_close(nvt_context *ctx) {
    if (ctx == NULL) {
        return;
    }
    if (ctx->devices != NULL) {
        for (uint32_t i = 0; i < ctx->system.device_count; i++) {
            free_device(ctx->devices[i]);
        }
        free(ctx->devices);
    }
    nvml_backend_close(ctx->nvml);
    if (ctx->host != NULL) {
        host_close(ctx->host);
    }
    free(ctx->cuda_library_path);
    free(ctx->focus_pids);
    free(ctx);
}

const struct nvt_system_info *nvt_system_info(const nvt_context *ctx) {
    return &ctx->system;
}

nvt_status nvt_context_gpu_status(const nvt_context *ctx) {
    return ctx->gpu_status;
}

size_t nvt_missing_functions(const nvt_context *ctx, const char **names, size_t max) {
    if (ctx->nvml == NULL) {
        return 0;
    }
    return nvml_backend_missing(ctx->nvml, names, max);
}
