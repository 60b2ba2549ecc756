/* The screens' test source (tui_test_source.h). */
#include "tui_test_source.h"

#include <stdbool.h>
#include <string.h>

static int no_fd(const void *impl) {
    (void)impl;
    return -1;
}

static struct nvt_snapshot *no_take(void *impl, bool *jumped) {
    (void)impl;
    *jumped = false;
    return NULL;
}

static void set_flags(void *impl, unsigned flags, unsigned slow_flags, unsigned process_flags) {
    (void)impl;
    (void)flags;
    (void)slow_flags;
    (void)process_flags;
}

static void refresh(void *impl) {
    (void)impl;
}

static void watch(void *impl, const struct watch_target *target, unsigned generation) {
    (void)impl;
    (void)target;
    (void)generation;
}

static bool take_watch(void *impl, struct watch_sample *out) {
    (void)impl;
    (void)out;
    return false;
}

static int timeout_ms(const void *impl, double now_s) {
    (void)impl;
    (void)now_s;
    return -1;
}

static nvt_context *host_context(void *impl) {
    struct tt_source *s = impl;
    if (s->host_ctx == NULL) {
        struct nvt_options options;
        nvt_options_init(&options);
        options.host_only = true;
        if (nvt_open(&options, &s->host_ctx) != NVT_OK) {
            s->host_ctx = NULL;
        }
    }
    return s->host_ctx;
}

static bool parent_map(void *impl, const struct nvt_snapshot *snap, uint32_t **pids,
                       uint32_t **ppids, size_t *count) {
    (void)snap;
    return source_read_parent_map(host_context(impl), pids, ppids, count);
}

static struct nvt_host_process *host_process(void *impl, const struct nvt_snapshot *snap,
                                             uint32_t pid) {
    (void)snap;
    nvt_context *ctx = host_context(impl);
    struct nvt_host_process *process = NULL;
    if (ctx == NULL || nvt_host_process_read(ctx, pid, &process) != NVT_OK) {
        return NULL;
    }
    return process;
}

static void host_pass_end(void *impl) {
    nvt_host_process_pass_end(((struct tt_source *)impl)->host_ctx);
}

static const char *unavailable(const void *impl, enum tui_source_feature feature) {
    (void)impl;
    (void)feature;
    return NULL;
}

static bool no_note(void *impl, char *out, size_t size) {
    (void)impl;
    (void)out;
    (void)size;
    return false;
}

static bool stop(void *impl, double wait_s) {
    (void)impl;
    (void)wait_s;
    return true;
}

static bool send(void *impl, const struct sampler_target *targets, size_t count,
                 int signal_number) {
    (void)targets;
    (void)signal_number;
    ((struct tt_source *)impl)->signals_sent += count;
    return true;
}

static bool result(void *impl, struct sampler_signal_result *out) {
    (void)impl;
    (void)out;
    return false;
}

static const struct tui_source_ops ops = {
    .fd = no_fd,
    .take = no_take,
    .snapshot_free = nvt_snapshot_free,
    .set_flags = set_flags,
    .refresh = refresh,
    .watch = watch,
    .take_watch = take_watch,
    .timeout_ms = timeout_ms,
    .parent_map = parent_map,
    .host_process = host_process,
    .host_pass_end = host_pass_end,
    .host_context = host_context,
    .unavailable = unavailable,
    .take_note = no_note,
    .stop = stop,
};

static const struct tui_source_signals signals = {.send = send, .result = result};

void tt_source_init(struct tt_source *s) {
    memset(s, 0, sizeof(*s));
    s->source = (struct tui_source){.ops = &ops, .signals = &signals, .impl = s};
}

void tt_source_fini(struct tt_source *s) {
    nvt_close(s->host_ctx);
    s->host_ctx = NULL;
}
