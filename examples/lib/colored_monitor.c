/*
 * The "more advanced approach with coloring" of nvitop's README in C: the devices a CUDA program
 * would see (CUDA_VISIBLE_DEVICES, in CUDA order) with a process table per device, sorted by user
 * name then pid.  Colours are ANSI escapes, used when stdout is a terminal or FORCE_COLOR is set.
 *
 *   usage: example-colored-monitor
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <nvitop/nvitop.h>

static bool use_color;

static void colored(const char *sgr, const char *text) {
    if (use_color) {
        printf("\033[%sm%s\033[0m", sgr, text);
    } else {
        fputs(text, stdout);
    }
}

static int by_user_then_pid(const void *pa, const void *pb) {
    const struct nvt_gpu_process *a = *(const struct nvt_gpu_process *const *)pa;
    const struct nvt_gpu_process *b = *(const struct nvt_gpu_process *const *)pb;
    int order = strcmp(a->host.user, b->host.user);
    return order != 0 ? order : (a->pid > b->pid) - (a->pid < b->pid);
}

static void print_processes(const struct nvt_snapshot *snap, size_t slot) {
    const struct nvt_gpu_process *list[256];
    size_t count = 0;
    for (size_t i = 0; i < snap->process_count && count < 256; i++) {
        if (snap->processes[i].device == slot) {
            list[count++] = &snap->processes[i];
        }
    }
    if (count == 0) {
        colored("1", "  - No Running Processes");
        printf("\n");
        return;
    }
    qsort(list, count, sizeof(const struct nvt_gpu_process *), by_user_then_pid);
    char line[160];
    snprintf(line, sizeof(line), "  - Processes (%zu):", count);
    colored("1;34", line);
    snprintf(line, sizeof(line), "\n    %-5s  %-8s %5s  %8s %8s  %8s  %3s  %s", "PID", "USERNAME",
             "CPU%", "HOST-MEM", "TIME", "GPU-MEM", "SM%", "COMMAND");
    colored("1", line);
    printf("\n");
    for (size_t i = 0; i < count; i++) {
        const struct nvt_gpu_process *p = list[i];
        char cpu[16] = "N/A";
        char host_memory[32];
        char running[32];
        char gpu_memory[32] = "WDDM:N/A";
        char sm[16] = "N/A";
        if (!nvt_is_na_double(p->host.cpu_percent)) {
            snprintf(cpu, sizeof(cpu), "%.1f", p->host.cpu_percent);
        }
        nvt_format_bytes(host_memory, sizeof(host_memory), p->host.rss_bytes, 1);
        nvt_format_duration(running, sizeof(running), p->host.running_time_s, false);
        if (!nvt_is_na_u64(p->gpu_memory_bytes)) {
            nvt_format_bytes(gpu_memory, sizeof(gpu_memory), p->gpu_memory_bytes, 1);
        }
        if (!nvt_is_na_u32(p->sm_util_pct)) {
            snprintf(sm, sizeof(sm), "%u", p->sm_util_pct);
        }
        const char *user = p->host.user[0] != '\0' ? p->host.user : "N/A";
        printf("    %-5u  %-8.8s %5s  %8s %8s  %8s  %3s  %s\n", p->pid, user, cpu, host_memory,
               running, gpu_memory, sm,
               p->host.status == NVT_HOST_OK ? p->host.command : "No Such Process");
    }
}

static void print_device(const struct nvt_snapshot *snap, const struct nvt_cuda_device *cuda) {
    size_t slot = 0;
    while (slot < snap->device_count && (snap->devices[slot].info.index != cuda->index ||
                                         snap->devices[slot].info.mig_index != cuda->mig_index)) {
        slot++;
    }
    if (slot == snap->device_count) {
        return;
    }
    const struct nvt_device_snapshot *d = &snap->devices[slot];
    char text[160];
    char total[32];
    char used[32];
    char free_memory[32];
    nvt_format_bytes(total, sizeof(total), d->state.memory_total_bytes, 1);
    nvt_format_bytes(used, sizeof(used), d->state.memory_used_bytes, 1);
    nvt_format_bytes(free_memory, sizeof(free_memory), d->state.memory_free_bytes, 1);
    snprintf(text, sizeof(text), "CudaDevice(cuda_index=%u, nvml_index=%u, name=\"%s\")",
             cuda->cuda_index, cuda->index, d->info.name);
    colored("1;32", text);
    printf("\n");
    const char *labels[] = {
        "  - Total memory:    ", "  - Used memory:     ", "  - Free memory:     "};
    const char *values[] = {total, used, free_memory};
    for (size_t i = 0; i < 3; i++) {
        colored("1;34", labels[i]);
        printf("%s\n", values[i]);
    }
    print_processes(snap, slot);
}

int main(void) {
    use_color = isatty(STDOUT_FILENO) || getenv("FORCE_COLOR") != NULL;
    char now[64];
    time_t t = time(NULL);
    strftime(now, sizeof(now), "%a %b %d %H:%M:%S %Y", localtime(&t));
    colored("1;31", now);
    printf("\n");

    nvt_context *ctx = NULL;
    nvt_status status = nvt_open(NULL, &ctx);
    if (status != NVT_OK) {
        fprintf(stderr, "NVML ERROR: %s\n", nvt_strerror(status));
        return 1;
    }
    struct nvt_cuda_device *cuda = NULL;
    size_t cuda_count = 0;
    struct nvt_snapshot *snap = NULL;
    status = nvt_cuda_visible_devices(ctx, getenv("CUDA_VISIBLE_DEVICES"), &cuda, &cuda_count);
    if (status == NVT_OK) {
        status = nvt_snapshot_take(ctx, NVT_SAMPLE_DEFAULT, &snap);
    }
    if (status != NVT_OK) {
        fprintf(stderr, "example-colored-monitor: %s\n", nvt_strerror(status));
        nvt_free(cuda);
        nvt_close(ctx);
        return 1;
    }
    for (size_t i = 0; i < cuda_count; i++) {
        if (i > 0) {
            printf("%.120s\n", "-------------------------------------------------------------"
                               "-----------------------------------------------------------");
        }
        print_device(snap, &cuda[i]);
    }
    nvt_snapshot_free(snap);
    nvt_free(cuda);
    nvt_close(ctx);
    return 0;
}
