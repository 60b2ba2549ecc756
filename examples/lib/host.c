/*
 * The host metrics without a snapshot, like nvitop's host module: CPU, memory, swap, load and
 * uptime, then the processes and the children of each (the reverse ppid map).
 *
 *   usage: example-host [PROC_ROOT]      (default /proc; e.g. a copied tree for reproducible
 * output)
 */
#include <stdio.h>

#include <nvitop/nvitop.h>

int main(int argc, char **argv) {
    struct nvt_options options;
    nvt_options_init(&options);
    options.allow_no_gpu = true; /* host data needs no GPU */
    options.proc_root = argc > 1 ? argv[1] : NULL;
    nvt_context *ctx = NULL;
    nvt_status status = nvt_open(&options, &ctx);
    if (status != NVT_OK) {
        fprintf(stderr, "example-host: %s\n", nvt_strerror(status));
        return 1;
    }
    struct nvt_host_state *host = NULL;
    if (nvt_host_state_read(ctx, &host) == NVT_OK) {
        char memory[64];
        char swap[64];
        char uptime[32];
        nvt_format_memory_usage(memory, sizeof(memory), host->memory_used_bytes,
                                host->memory_total_bytes);
        nvt_format_memory_usage(swap, sizeof(swap), host->swap_used_bytes, host->swap_total_bytes);
        nvt_format_duration(uptime, sizeof(uptime), host->uptime_s, false);
        printf("%s: %u CPUs at %.1f%%, load %.2f %.2f %.2f, up %s\n", host->hostname,
               host->cpu_count, host->cpu_percent, host->load_1m, host->load_5m, host->load_15m,
               uptime);
        printf("memory %s (%.1f%%), swap %s (%.1f%%)\n", memory, host->memory_percent, swap,
               host->swap_percent);
        nvt_free(host);
    }

    uint32_t *pids = NULL;
    size_t count = 0;
    if (nvt_host_pids(ctx, &pids, &count) == NVT_OK) {
        printf("%zu processes\n", count);
        nvt_free(pids);
    }
    uint32_t *ppids = NULL;
    uint32_t *children = NULL;
    if (nvt_host_reverse_ppid_map(ctx, &ppids, &children, &count) == NVT_OK) {
        /* Sorted by parent: each parent's children are one run. */
        for (size_t i = 0; i < count;) {
            printf("  %u ->", ppids[i]);
            size_t run = i;
            for (; run < count && ppids[run] == ppids[i]; run++) {
                printf(" %u", children[run]);
            }
            printf("\n");
            i = run;
        }
        nvt_free(ppids);
    }
    nvt_close(ctx);
    return 0;
}
