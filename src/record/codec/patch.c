/*
 * Frame patches (patch.h).  A patch message holds, for each list of the frame, a nested message
 * of columns (fields_column_encode: a bitmap of the rows that changed and their new values):
 * 2 flags (the value), 3 system, 4 device info, 5 device state, 6 GPU process, 7 GPU process host
 * details, 8 host, 9 per-CPU percentages (column tag 1), 10 related processes.  A list without a
 * change is not written.  The frame's time is the record's (not repeated in the patch).
 */
#include "record/codec/patch.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "record/codec/fields.h"
#include "record/codec/wire.h"

#define TAG_FLAGS        2
#define TAG_SYSTEM       3
#define TAG_DEVICE_INFO  4
#define TAG_DEVICE_STATE 5
#define TAG_PROCESS      6
#define TAG_PROCESS_HOST 7
#define TAG_HOST         8
#define TAG_PER_CPU      9
#define TAG_RELATED      10

static bool same_text(const char *a, const char *b) {
    return strcmp(a != NULL ? a : "", b != NULL ? b : "") == 0;
}

/* Same process with the same strings (what a patch cannot change). */
static bool same_host(const struct nvt_host_process *a, const struct nvt_host_process *b) {
    if (a->pid != b->pid || memcmp(&a->create_time, &b->create_time, sizeof(double)) != 0 ||
        !same_text(a->user, b->user) || !same_text(a->name, b->name) ||
        !same_text(a->command, b->command)) {
        return false;
    }
    size_t an = a->cmdline != NULL ? a->cmdline_count : 0;
    size_t bn = b->cmdline != NULL ? b->cmdline_count : 0;
    if (an != bn) {
        return false;
    }
    for (size_t i = 0; i < an; i++) {
        if (!same_text(a->cmdline[i], b->cmdline[i])) {
            return false;
        }
    }
    return true;
}

static bool same_structure(const struct frame *prev, const struct nvt_snapshot *snap,
                           const struct nvt_host_process *related, size_t related_count) {
    const struct nvt_snapshot *p = &prev->snap;
    if (p->device_count != snap->device_count || p->process_count != snap->process_count ||
        prev->related_count != related_count || p->host.cpu_count != snap->host.cpu_count ||
        (p->host.cpu_percent_per_cpu == NULL) != (snap->host.cpu_percent_per_cpu == NULL)) {
        return false;
    }
    for (size_t i = 0; i < snap->device_count; i++) {
        const struct nvt_device_snapshot *a = &p->devices[i];
        const struct nvt_device_snapshot *b = nvt_snapshot_device(snap, i);
        if (a->parent != b->parent || a->first_child != b->first_child ||
            a->child_count != b->child_count) {
            return false;
        }
    }
    for (size_t i = 0; i < snap->process_count; i++) {
        const struct nvt_gpu_process *a = &p->processes[i];
        const struct nvt_gpu_process *b = nvt_snapshot_process(snap, i);
        if (a->pid != b->pid || a->device != b->device || !same_host(&a->host, &b->host)) {
            return false;
        }
    }
    for (size_t i = 0; i < related_count; i++) {
        if (!same_host(&prev->related[i], &related[i])) {
            return false;
        }
    }
    return true;
}

/* The per-CPU percentages as a table of one double per row. */
static const struct field per_cpu_field = {1, FIELD_DOUBLE, sizeof(double), 0, 0};
static const struct field_table per_cpu_table = {&per_cpu_field, 1};

/* Append the columns of one list as a nested message (nothing when no row changed). */
static void put_columns(struct strbuf *out, struct strbuf *scratch, unsigned tag,
                        const struct field_table *table, void *prev, size_t prev_stride,
                        const void *cur, size_t cur_stride, size_t rows, double time) {
    strbuf_clear(scratch);
    if (rows > 0 &&
        fields_column_encode(scratch, table, prev, prev_stride, cur, cur_stride, rows, time) > 0) {
        wire_put_bytes(out, tag, scratch->data, scratch->len);
    }
}

bool patch_encode(struct strbuf *out, struct frame *prev, const struct nvt_snapshot *snap,
                  const struct nvt_host_process *related, size_t related_count) {
    if (!same_structure(prev, snap, related, related_count)) {
        return false;
    }
    struct nvt_snapshot *p = &prev->snap;
    double t = snap->timestamp;
    struct strbuf a = STRBUF_INIT;
    size_t start = out->len;
    p->timestamp = t;
    if (p->flags != snap->flags) {
        wire_put_uint(out, TAG_FLAGS, snap->flags);
        p->flags = snap->flags;
    }
    put_columns(out, &a, TAG_SYSTEM, &fields_system, &p->system, 0, &snap->system, 0, 1, t);
    size_t n = snap->device_count;
    size_t stride = snap->device_stride;
    const struct nvt_device_snapshot *d = snap->devices;
    struct nvt_device_snapshot *pd = prev->devices_rw;
    /* A device's facts hardly ever change: one comparison of the whole struct per device spares
     * comparing each of its strings field by field. */
    bool info_same = true;
    for (size_t i = 0; i < n && info_same; i++) {
        info_same = memcmp(&pd[i].info, &nvt_snapshot_device(snap, i)->info, sizeof(pd->info)) == 0;
    }
    if (!info_same) {
        put_columns(out, &a, TAG_DEVICE_INFO, &fields_device_info, &pd->info, sizeof(*pd),
                    n > 0 ? &d->info : NULL, stride, n, t);
    }
    put_columns(out, &a, TAG_DEVICE_STATE, &fields_device_state, &pd->state, sizeof(*pd),
                n > 0 ? &d->state : NULL, stride, n, t);
    n = snap->process_count;
    stride = snap->process_stride;
    const struct nvt_gpu_process *gp = snap->processes;
    struct nvt_gpu_process *pp = prev->processes_rw;
    put_columns(out, &a, TAG_PROCESS, &fields_gpu_process, pp, sizeof(*pp), gp, stride, n, t);
    put_columns(out, &a, TAG_PROCESS_HOST, &fields_host_process, &pp->host, sizeof(*pp),
                n > 0 ? &gp->host : NULL, stride, n, t);
    put_columns(out, &a, TAG_HOST, &fields_host_state, &p->host, 0, &snap->host, 0, 1, t);
    if (snap->host.cpu_percent_per_cpu != NULL) {
        put_columns(out, &a, TAG_PER_CPU, &per_cpu_table, prev->per_cpu_rw, sizeof(double),
                    snap->host.cpu_percent_per_cpu, sizeof(double), snap->host.cpu_count, t);
    }
    put_columns(out, &a, TAG_RELATED, &fields_host_process, prev->related_rw, sizeof(*related),
                related, sizeof(*related), related_count, t);
    /* strbuf keeps its old contents on a failed append: check that out grew by what it should
     * have (as frame_encode does, approximately: an empty patch is fine). */
    bool ok = out->len > start || strbuf_reserve(out, 0);
    strbuf_fini(&a);
    return ok;
}

struct applier {
    struct frame *frame;
    double time;
    const char *problem;
};

/* Apply every column of a nested message to the rows of a list. */
static bool apply_columns(struct applier *ap, const struct wire_field *nested,
                          const struct field_table *table, void *rows, size_t stride,
                          size_t count) {
    struct wire_reader r = {nested->bytes, nested->bytes + nested->size};
    struct wire_field f;
    bool bad = false;
    while (wire_next(&r, &f, &bad)) {
        if (!fields_column_decode(table, rows, stride, count, &f, ap->time)) {
            ap->problem = "malformed column";
            return false;
        }
    }
    if (bad) {
        ap->problem = "malformed field";
    }
    return !bad;
}

static bool apply_field(struct applier *ap, const struct wire_field *f) {
    struct frame *frame = ap->frame;
    struct nvt_snapshot *snap = &frame->snap;
    if (f->tag == TAG_FLAGS && f->type == WIRE_VARINT) {
        snap->flags = (unsigned)f->value;
        return true;
    }
    if (f->type != WIRE_BYTES) {
        return true;
    }
    size_t n = snap->device_count;
    struct nvt_device_snapshot *d = frame->devices_rw;
    struct nvt_gpu_process *p = frame->processes_rw;
    switch (f->tag) {
    case TAG_SYSTEM:
        return apply_columns(ap, f, &fields_system, &snap->system, 0, 1);
    case TAG_DEVICE_INFO:
        return n == 0 || apply_columns(ap, f, &fields_device_info, &d->info, sizeof(*d), n);
    case TAG_DEVICE_STATE:
        return n == 0 || apply_columns(ap, f, &fields_device_state, &d->state, sizeof(*d), n);
    case TAG_PROCESS:
        return snap->process_count == 0 ||
               apply_columns(ap, f, &fields_gpu_process, p, sizeof(*p), snap->process_count);
    case TAG_PROCESS_HOST:
        return snap->process_count == 0 || apply_columns(ap, f, &fields_host_process, &p->host,
                                                         sizeof(*p), snap->process_count);
    case TAG_HOST:
        return apply_columns(ap, f, &fields_host_state, &snap->host, 0, 1);
    case TAG_PER_CPU:
        return frame->per_cpu_rw == NULL || apply_columns(ap, f, &per_cpu_table, frame->per_cpu_rw,
                                                          sizeof(double), frame->per_cpu_count);
    case TAG_RELATED:
        return frame->related_count == 0 ||
               apply_columns(ap, f, &fields_host_process, frame->related_rw,
                             sizeof(*frame->related_rw), frame->related_count);
    default:
        return true; /* a later version's addition */
    }
}

bool patch_apply(struct frame *frame, const void *data, size_t size, double time, char *error,
                 size_t error_size) {
    struct applier ap = {frame, time, NULL};
    uint32_t cpus = frame->snap.host.cpu_count;
    frame->snap.timestamp = time;
    struct wire_reader r = {data, (const unsigned char *)data + size};
    struct wire_field f;
    bool bad = false;
    bool ok = true;
    while (ok && wire_next(&r, &f, &bad)) {
        ok = apply_field(&ap, &f);
    }
    if (ok && bad) {
        ap.problem = "malformed field";
        ok = false;
    }
    /* The per-CPU array was sized for the keyframe's count: a patch may not change it. */
    if (ok && frame->snap.host.cpu_count != cpus) {
        ap.problem = "a patch changes the CPU count";
        ok = false;
    }
    if (!ok) {
        snprintf(error, error_size, "%s", ap.problem != NULL ? ap.problem : "malformed patch");
        return false;
    }
    return frame_check(frame, error, error_size);
}
