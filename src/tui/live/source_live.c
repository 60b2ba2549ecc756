/*
 * The live source (source.h): the sampler's thread takes the snapshots and delivers signals, and
 * while the tree view is shown reads its processes with each process list (tree_hosts.h); the UI
 * thread's own /proc-only context reads what the environment screen needs, and the tree view's
 * processes the sampler has not read (the first tree after the screen opens).
 */
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>

#include "tui/host_copy.h"
#include "tui/live/tree_hosts.h"
#include "tui/source.h"
#include "util/sys/clock.h"
#include "util/xalloc.h"

struct live {
    struct sampler *sampler;
    const char *proc_root;   /* the library options' (lent), for the UI thread's context */
    nvt_context *host_ctx;   /* opened on first use */
    struct tree_hosts *tree; /* the sampler's reading for tree_snap, or NULL */
    const struct nvt_snapshot *tree_snap; /* the newest snapshot with processes taken */
};

static int live_fd(const void *impl) {
    return sampler_fd(((const struct live *)impl)->sampler);
}

static struct nvt_snapshot *live_take(void *impl, bool *jumped) {
    struct live *live = impl;
    *jumped = false;
    struct tree_hosts *tree = NULL;
    struct nvt_snapshot *snap = sampler_take_tree(live->sampler, &tree);
    if (snap != NULL && (snap->flags & NVT_SAMPLE_PROCESSES)) {
        /* The screens' process snapshot from now on (app_set_snapshot()). */
        tree_hosts_free(live->tree);
        live->tree = tree;
        live->tree_snap = snap;
    } else {
        tree_hosts_free(tree);
    }
    return snap;
}

/* The sampler's reading of the tree view's processes for snap, or NULL. */
static const struct tree_hosts *tree_of(const struct live *live, const struct nvt_snapshot *snap) {
    return live->tree != NULL && snap != NULL && snap == live->tree_snap ? live->tree : NULL;
}

static void live_set_flags(void *impl, unsigned flags, unsigned slow_flags,
                           unsigned process_flags) {
    sampler_set_flags(((struct live *)impl)->sampler, flags, slow_flags, process_flags);
}

static void live_refresh(void *impl) {
    sampler_refresh(((struct live *)impl)->sampler);
}

static void live_focus(void *impl, const uint32_t *pids, size_t count, bool urgent) {
    sampler_set_focus(((struct live *)impl)->sampler, pids, count, urgent);
}

static void live_watch(void *impl, const struct watch_target *target, unsigned generation) {
    sampler_watch(((struct live *)impl)->sampler, target, generation);
}

static bool live_take_watch(void *impl, struct watch_sample *out) {
    return sampler_take_watch(((struct live *)impl)->sampler, out);
}

static nvt_context *live_host_context(void *impl) {
    struct live *live = impl;
    if (live->host_ctx == NULL) {
        struct nvt_options options;
        nvt_options_init(&options);
        options.proc_root = live->proc_root;
        options.host_only = true;
        if (nvt_open(&options, &live->host_ctx) != NVT_OK) {
            live->host_ctx = NULL;
        }
    }
    return live->host_ctx;
}

bool source_read_parent_map(nvt_context *ctx, uint32_t **pids, uint32_t **ppids, size_t *count) {
    uint32_t *lib_pids = NULL;
    uint32_t *lib_ppids = NULL;
    size_t n = 0;
    if (ctx == NULL || nvt_host_ppid_map(ctx, &lib_pids, &lib_ppids, &n) != NVT_OK) {
        return false;
    }
    /* One allocation of ours, as the interface promises (the library's is freed with nvt_free). */
    *pids = xmalloc((n > 0 ? n : 1) * 2 * sizeof(**pids));
    *ppids = *pids + n;
    memcpy(*pids, lib_pids, n * sizeof(**pids));
    memcpy(*ppids, lib_ppids, n * sizeof(**ppids));
    *count = n;
    nvt_free(lib_pids);
    return true;
}

static bool live_parent_map(void *impl, const struct nvt_snapshot *snap, uint32_t **pids,
                            uint32_t **ppids, size_t *count) {
    const struct tree_hosts *tree = tree_of(impl, snap);
    if (tree == NULL) {
        return source_read_parent_map(live_host_context(impl), pids, ppids, count);
    }
    size_t n = tree->count;
    *pids = xmalloc((n > 0 ? n : 1) * 2 * sizeof(**pids));
    *ppids = *pids + n;
    memcpy(*pids, tree->pids, n * sizeof(**pids));
    memcpy(*ppids, tree->ppids, n * sizeof(**ppids));
    *count = n;
    return true;
}

static struct nvt_host_process *live_host_process(void *impl, const struct nvt_snapshot *snap,
                                                  uint32_t pid) {
    const struct tree_host *read = tree_hosts_find(tree_of(impl, snap), pid);
    if (read != NULL) {
        return read->host != NULL ? tui_host_copy(read->host) : NULL;
    }
    /* Not read by the sampler (it plans from the parent map, the tree from each process's own
     * parent, which may have changed in between): read now. */
    nvt_context *ctx = live_host_context(impl);
    struct nvt_host_process *process = NULL;
    if (ctx == NULL || nvt_host_process_read(ctx, pid, &process) != NVT_OK) {
        return NULL;
    }
    return process;
}

static void live_host_pass_end(void *impl) {
    nvt_host_process_pass_end(((struct live *)impl)->host_ctx);
}

static const char *live_unavailable(const void *impl, enum tui_source_feature feature) {
    (void)impl;
    (void)feature;
    return NULL;
}

static bool live_stop(void *impl, double wait_s) {
    struct live *live = impl;
    bool stopped = true;
    if (wait_s < 0.0) {
        sampler_stop(live->sampler);
    } else {
        stopped = sampler_stop_within(live->sampler, wait_s);
    }
    nvt_close(live->host_ctx);
    tree_hosts_free(live->tree);
    free(live);
    return stopped;
}

static bool live_send(void *impl, const struct sampler_target *targets, size_t count,
                      int signal_number) {
    return sampler_send_signal(((struct live *)impl)->sampler, targets, count, signal_number);
}

static bool live_result(void *impl, struct sampler_signal_result *out) {
    return sampler_signal_result(((struct live *)impl)->sampler, out);
}

static bool live_take_note(void *impl, char *out, size_t size) {
    return sampler_take_record_note(((struct live *)impl)->sampler, out, size);
}

static const struct tui_source_ops live_ops = {
    .fd = live_fd,
    .take = live_take,
    .snapshot_free = nvt_snapshot_free,
    .set_flags = live_set_flags,
    .refresh = live_refresh,
    .focus = live_focus,
    .watch = live_watch,
    .take_watch = live_take_watch,
    .parent_map = live_parent_map,
    .host_process = live_host_process,
    .host_pass_end = live_host_pass_end,
    .host_context = live_host_context,
    .unavailable = live_unavailable,
    .take_note = live_take_note,
    .stop = live_stop,
};

static const struct tui_source_signals live_signals = {.send = live_send, .result = live_result};

bool source_live_start(struct tui_source *out, nvt_context *ctx, const struct nvt_options *options,
                       const struct sampler_schedule *schedule, char *error, size_t error_size) {
    struct sampler *sampler = sampler_start(ctx, options, schedule, error, error_size);
    if (sampler == NULL) {
        return false;
    }
    struct live *live = xcalloc(1, sizeof(*live));
    live->sampler = sampler;
    live->proc_root = options != NULL ? options->proc_root : NULL;
    *out = (struct tui_source){.ops = &live_ops, .signals = &live_signals, .impl = live};
    return true;
}

void source_wait_first(const struct tui_source *source, int wait_ms) {
    int fd = source->ops->fd(source->impl);
    if (fd < 0) {
        return;
    }
    struct pollfd pfd = {.fd = fd, .events = POLLIN};
    double deadline = clock_monotonic_s() + wait_ms / 1000.0;
    for (;;) {
        int left_ms = (int)((deadline - clock_monotonic_s()) * 1000.0);
        if (left_ms <= 0) {
            return;
        }
        int rc = poll(&pfd, 1, left_ms);
        if (rc > 0 || (rc < 0 && errno != EINTR)) {
            return;
        }
    }
}
