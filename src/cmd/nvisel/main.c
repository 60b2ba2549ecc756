/*
 * nvisel: choose GPUs for a job and print them as a CUDA_VISIBLE_DEVICES value
 * (docs/nvitop-behaviour.md §4), with nvitop's options, messages and exit codes (the tolerance
 * defaults to 10 %, as nvitop's code does).  Deliberate differences, documented in nvisel(1): NVML
 * failures are reported (exit 2, or 1 when the library is missing) instead of printing an empty
 * selection, "--max-count" below
 * "--min-count" is a usage error rather than a Python traceback, and a UUID prefix too short to
 * name a device is an error rather than an empty selection.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <nvitop/nvitop.h>

#include "cmd/nvitop/cli/argparse.h"
#include "nvisel_options.h"
#include "util/xalloc.h"

/* Leaf device slots to choose from: all leaves in NVML order, or the CUDA-visible ones in CUDA
 * order (--inherit). */
static nvt_status candidates(nvt_context *ctx, const struct nvt_snapshot *snap,
                             const struct nvisel_options *options, size_t **slots, size_t *count) {
    *slots = xcalloc(snap->device_count + 1, sizeof(**slots));
    *count = 0;
    if (!options->inherit) {
        for (size_t slot = 0; slot < snap->device_count; slot++) {
            if (nvt_snapshot_is_leaf(snap, slot)) {
                (*slots)[(*count)++] = slot;
            }
        }
        return NVT_OK;
    }
    struct nvt_cuda_device *visible = NULL;
    size_t visible_count = 0;
    nvt_status status =
        nvt_cuda_visible_devices(ctx, getenv("CUDA_VISIBLE_DEVICES"), &visible, &visible_count);
    if (status != NVT_OK) {
        return status;
    }
    for (size_t i = 0; i < visible_count; i++) {
        for (size_t slot = 0; slot < snap->device_count; slot++) {
            const struct nvt_device_info *info = &snap->devices[slot].info;
            bool same = info->index == visible[i].index &&
                        (nvt_is_na_u32(visible[i].mig_index)
                             ? !info->is_mig
                             : info->is_mig && info->mig_index == visible[i].mig_index);
            if (same && *count < snap->device_count) {
                (*slots)[(*count)++] = slot;
                break;
            }
        }
    }
    nvt_free(visible);
    return NVT_OK;
}

static void print_identifier(FILE *out, const struct nvt_device_snapshot *device, bool uuid) {
    if (uuid) {
        fputs(device->info.uuid[0] != '\0' ? device->info.uuid : "N/A", out);
    } else if (device->info.is_mig) {
        fprintf(out, "(%u, %u)", device->info.index, device->info.mig_index);
    } else {
        fprintf(out, "%u", device->info.index);
    }
}

static void print_result(const struct nvt_snapshot *snap, const size_t *chosen, size_t count,
                         const struct nvisel_options *options, bool uuid) {
    if (!isatty(STDOUT_FILENO)) {
        fputs("CUDA_VISIBLE_DEVICES=\"", stderr);
        for (size_t i = 0; i < count; i++) {
            if (i > 0) {
                fputc(',', stderr);
            }
            print_identifier(stderr, &snap->devices[chosen[i]], uuid);
        }
        fputs("\"\n", stderr);
    }
    for (size_t i = 0; i < count; i++) {
        if (i > 0) {
            fwrite(options->sep, 1, options->sep_len, stdout);
        }
        print_identifier(stdout, &snap->devices[chosen[i]], uuid);
    }
    if (options->sep_len == 1 && options->sep[0] == '\0') {
        fputc('\0', stdout);
    } else {
        fputc('\n', stdout);
    }
}

/* NVITOP_NVML_LIBRARY set and not empty (an empty one is ignored, as by the library). */
static bool nvml_library_named(void) {
    const char *named = getenv(NVT_ENV_NVML_LIBRARY);
    return named != NULL && named[0] != '\0';
}

static int report_open_error(nvt_status status) {
    if (status == NVT_ERR_LIBRARY_NOT_FOUND) {
        fputs("FATAL ERROR: NVIDIA Management Library (NVML) not found.\n"
              "HINT: The NVIDIA Management Library ships with the NVIDIA display driver "
              "(available at\n"
              "      https://www.nvidia.com/Download/index.aspx), or can be downloaded as part "
              "of the\n"
              "      NVIDIA CUDA Toolkit (available at "
              "https://developer.nvidia.com/cuda-downloads).\n"
              "      The lists of OS platforms and NVIDIA-GPUs supported by the NVML library can "
              "be\n"
              "      found in the NVML API Reference at https://docs.nvidia.com/deploy/nvml-api.\n",
              stderr);
        /* A library named by the environment: say which one failed, and why. */
        char why[1024];
        if (nvml_library_named() && nvt_nvml_library_error(NULL, why, sizeof(why)) > 0) {
            fprintf(stderr, "ERROR: %s\n", why);
        }
        return 1;
    }
    fprintf(stderr, "NVML ERROR: %s\n", nvt_strerror(status));
    return 2;
}

static int select_and_print(nvt_context *ctx, const struct nvisel_options *options) {
    struct nvt_snapshot *snap = NULL;
    unsigned flags =
        NVT_SAMPLE_DEVICES | NVT_SAMPLE_PROCESSES | NVT_SAMPLE_HOST_PROCESSES | NVT_SAMPLE_INFO;
    nvt_status status = nvt_snapshot_take(ctx, flags, &snap);
    if (status != NVT_OK) {
        fprintf(stderr, "NVML ERROR: %s\n", nvt_strerror(status));
        return 2;
    }
    size_t *slots = NULL;
    size_t count = 0;
    status = candidates(ctx, snap, options, &slots, &count);
    if (status != NVT_OK) {
        fprintf(stderr, "CUDA ERROR: %s\n", nvt_strerror(status));
        free(slots);
        nvt_snapshot_free(snap);
        return 3;
    }
    size_t *chosen = xcalloc(count + 1, sizeof(*chosen));
    size_t chosen_count = 0;
    bool prefer_uuid = false;
    status = nvt_select_devices(snap, slots, count, &options->criteria, chosen, &chosen_count,
                                &prefer_uuid);
    int code = 0;
    if (status != NVT_OK && status != NVT_ERR_NOT_FOUND) {
        fprintf(stderr, "nvisel: error: %s\n", nvt_strerror(status));
        code = 1;
    } else {
        print_result(snap, chosen, chosen_count, options, options->uuid || prefer_uuid);
        if (chosen_count < options->criteria.min_count) {
            fflush(stdout);
            fputs("nvisel: RuntimeWarning: Not enough devices found.\n", stderr);
            code = 4;
        }
    }
    free(chosen);
    free(slots);
    nvt_snapshot_free(snap);
    return code;
}

int main(int argc, char **argv) {
    struct nvisel_options options;
    int code = nvisel_options_parse(&options, argc, argv);
    if (code >= 0) {
        nvisel_options_fini(&options);
        return code;
    }
    if (options.inherit && options.inherit_value != NULL) {
        setenv("CUDA_VISIBLE_DEVICES", options.inherit_value, 1);
    }
    nvt_context *ctx = NULL;
    nvt_status status = nvt_open(NULL, &ctx);
    if (status != NVT_OK) {
        code = report_open_error(status);
    } else {
        code = select_and_print(ctx, &options);
        nvt_close(ctx);
    }
    if (fflush(stdout) != 0 && code == 0) {
        code = 1;
    }
    nvisel_options_fini(&options);
    return code;
}
