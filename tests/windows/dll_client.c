/*
 * A C program against nvitop.dll through its import library and public headers (the Windows
 * package's lib\ and include\): one snapshot, then a line per device and per GPU process with
 * the host fields the Windows back-end reads, which tests/windows/windows_test.sh checks.  With
 * the argument "terminate", each live GPU process is then signalled as the monitor's T key does:
 * first with a creation time off by a second (the PID-reuse guard must refuse), then with its own
 * (TerminateProcess), and read again.
 */
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include <nvitop/nvitop.h>

static void terminate_all(nvt_context *ctx, const struct nvt_snapshot *snap) {
    for (size_t i = 0; i < snap->process_count; i++) {
        const struct nvt_gpu_process *p = nvt_snapshot_process(snap, i);
        if (p->host.status != NVT_HOST_OK) {
            continue;
        }
        nvt_status wrong = nvt_process_signal(ctx, p->pid, p->host.create_time + 1.0, SIGTERM);
        nvt_status right = nvt_process_signal(ctx, p->pid, p->host.create_time, SIGTERM);
        struct nvt_host_process *again = NULL;
        nvt_status after = nvt_host_process_read(ctx, p->pid, &again);
        printf("terminate %u: other creation time %s, own %s, then %s\n", (unsigned)p->pid,
               nvt_status_name(wrong), nvt_status_name(right),
               after == NVT_OK && again->status == NVT_HOST_OK ? "running" : "gone");
        nvt_host_process_free(again);
    }
}

int main(int argc, char **argv) {
    nvt_context *ctx = NULL;
    nvt_status st = nvt_open(NULL, &ctx);
    if (st != NVT_OK) {
        fprintf(stderr, "nvt_open: %s\n", nvt_strerror(st));
        return 1;
    }
    struct nvt_snapshot *snap = NULL;
    st = nvt_snapshot_take(ctx, NVT_SAMPLE_ALL, &snap);
    if (st != NVT_OK) {
        fprintf(stderr, "nvt_snapshot_take: %s\n", nvt_strerror(st));
        nvt_close(ctx);
        return 1;
    }
    printf("devices %zu processes %zu host %s\n", snap->device_count, snap->process_count,
           snap->host.memory_total_bytes != NVT_NA_U64 && !isnan(snap->host.uptime_s) ? "ok"
                                                                                      : "N/A");
    for (size_t i = 0; i < snap->device_count; i++) {
        const struct nvt_device_snapshot *d = nvt_snapshot_device(snap, i);
        printf("device %zu %s %s\n", i, d->info.name, d->info.uuid);
    }
    for (size_t i = 0; i < snap->process_count; i++) {
        const struct nvt_gpu_process *p = nvt_snapshot_process(snap, i);
        const struct nvt_host_process *h = &p->host;
        printf("process %u status %d ppid %u user [%s] name [%s] command [%s] rss %s created %s\n",
               (unsigned)p->pid, (int)h->status, (unsigned)h->ppid, h->user, h->name, h->command,
               h->rss_bytes != NVT_NA_U64 && h->rss_bytes > 0 ? "ok" : "N/A",
               !isnan(h->create_time) && h->create_time > 1e9 ? "ok" : "N/A");
    }
    if (argc > 1 && strcmp(argv[1], "terminate") == 0) {
        terminate_all(ctx, snap);
    }
    nvt_snapshot_free(snap);
    nvt_close(ctx);
    return 0;
}
