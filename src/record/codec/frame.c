/*
 * Encoding and decoding of frames (frame.h) with the field tables of fields.h.  Message tags:
 * frame 1 timestamp, 2 flags, 3 system, 4 device (repeated), 5 process (repeated), 6 host,
 * 7 related host process (repeated); device 1 info, 2 parent, 3 first child, 4 child count,
 * 5 state; process: the gpu_process fields and 20 host; host process: its fields and 20 user,
 * 21 name, 22 command, 23 argv (repeated); host state: its fields and 30 per-CPU percentages.
 */
#include "record/codec/frame.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "record/codec/fields.h"
#include "record/codec/wire.h"
#include "util/xalloc.h"

/* Bounds that keep a hostile file from asking for absurd allocations. */
#define MAX_DEVICES   4096
#define MAX_PROCESSES (1U << 20)
#define MAX_ARGV      65536
#define MAX_CPUS      65536

static void encode_host_process(struct strbuf *out, const struct nvt_host_process *host) {
    fields_encode(out, &fields_host_process, host);
    wire_put_string(out, 20, host->user);
    wire_put_string(out, 21, host->name);
    wire_put_string(out, 22, host->command);
    for (size_t i = 0; host->cmdline != NULL && i < host->cmdline_count; i++) {
        wire_put_string(out, 23, host->cmdline[i]);
    }
}

/* Nested messages are encoded into a scratch buffer, then appended with their length. */
static void put_nested(struct strbuf *out, unsigned tag, struct strbuf *scratch) {
    wire_put_bytes(out, tag, scratch->data != NULL ? scratch->data : "", scratch->len);
    strbuf_clear(scratch);
}

bool frame_encode(struct strbuf *out, const struct nvt_snapshot *snap,
                  const struct nvt_host_process *related, size_t related_count) {
    struct strbuf a = STRBUF_INIT;
    struct strbuf b = STRBUF_INIT;
    size_t start = out->len;
    wire_put_double(out, 1, snap->timestamp);
    wire_put_uint(out, 2, snap->flags);
    fields_encode(&a, &fields_system, &snap->system);
    put_nested(out, 3, &a);
    for (size_t slot = 0; slot < snap->device_count; slot++) {
        const struct nvt_device_snapshot *d = nvt_snapshot_device(snap, slot);
        fields_encode(&b, &fields_device_info, &d->info);
        put_nested(&a, 1, &b);
        wire_put_uint(&a, 2, d->parent == NVT_NA_SIZE ? UINT64_MAX : d->parent);
        wire_put_uint(&a, 3, d->first_child == NVT_NA_SIZE ? UINT64_MAX : d->first_child);
        wire_put_uint(&a, 4, d->child_count);
        fields_encode(&b, &fields_device_state, &d->state);
        put_nested(&a, 5, &b);
        put_nested(out, 4, &a);
    }
    for (size_t i = 0; i < snap->process_count; i++) {
        const struct nvt_gpu_process *p = nvt_snapshot_process(snap, i);
        fields_encode(&a, &fields_gpu_process, p);
        encode_host_process(&b, &p->host);
        put_nested(&a, 20, &b);
        put_nested(out, 5, &a);
    }
    fields_encode(&a, &fields_host_state, &snap->host);
    if (snap->host.cpu_percent_per_cpu != NULL) {
        wire_put_bytes(&a, 30, snap->host.cpu_percent_per_cpu,
                       snap->host.cpu_count * sizeof(double));
    }
    put_nested(out, 6, &a);
    for (size_t i = 0; i < related_count; i++) {
        encode_host_process(&a, &related[i]);
        put_nested(out, 7, &a);
    }
    /* strbuf keeps its old contents on a failed append, so a short buffer means no memory. */
    bool ok = a.len == 0 && out->len > start;
    strbuf_fini(&a);
    strbuf_fini(&b);
    return ok;
}

void *frame_own(struct frame *frame, void *block) {
    if (frame->block_count == frame->block_cap) {
        frame->block_cap = frame->block_cap == 0 ? 16 : frame->block_cap * 2;
        frame->blocks = xrealloc(frame->blocks, frame->block_cap * sizeof(*frame->blocks));
    }
    frame->blocks[frame->block_count++] = block;
    return block;
}

char *frame_own_text(struct frame *frame, const void *bytes, size_t size) {
    char *text = frame_own(frame, xmalloc(size + 1));
    memcpy(text, bytes, size);
    text[size] = '\0';
    return text;
}

static char *own_string(struct frame *frame, const struct wire_field *field) {
    return frame_own_text(frame, field->bytes, field->size);
}

struct decoder {
    struct frame *frame;
    char *error;
    size_t error_size;
    size_t argv_block; /* blocks[] index of the argv array being filled */
};

static bool fail(struct decoder *d, const char *what) {
    snprintf(d->error, d->error_size, "%s", what);
    return false;
}

/* Walk a message; each known field goes to visit().  Unknown fields are skipped. */
typedef bool (*visit_fn)(struct decoder *d, void *target, const struct wire_field *field);

static bool walk(struct decoder *d, const unsigned char *data, size_t size, visit_fn visit,
                 void *target) {
    struct wire_reader r = {data, data + size};
    struct wire_field field;
    bool bad = false;
    while (wire_next(&r, &field, &bad)) {
        if (!visit(d, target, &field)) {
            return false;
        }
    }
    return bad ? fail(d, "malformed field") : true;
}

static bool visit_host_process(struct decoder *d, void *target, const struct wire_field *f) {
    struct nvt_host_process *host = target;
    if (fields_decode(&fields_host_process, host, f) || f->type != WIRE_BYTES) {
        return true;
    }
    if (f->tag >= 20 && f->tag <= 22) {
        const char *text = own_string(d->frame, f);
        *(f->tag == 20 ? &host->user : f->tag == 21 ? &host->name : &host->command) = text;
    } else if (f->tag == 23) {
        if (host->cmdline_count >= MAX_ARGV) {
            return fail(d, "too many arguments");
        }
        /* argv grows by doubling; the old arrays stay owned by the frame (freed with it). */
        size_t n = host->cmdline_count;
        const char **argv = NULL;
        if ((n & (n - 1)) == 0) {
            argv = frame_own(d->frame, xcalloc(n == 0 ? 1 : 2 * n, sizeof(char *)));
            if (n > 0) {
                memcpy(argv, host->cmdline, n * sizeof(char *));
            }
        } else {
            /* The last array this decoder allocated is the current argv. */
            argv = d->frame->blocks[d->argv_block];
        }
        if ((n & (n - 1)) == 0) {
            d->argv_block = d->frame->block_count - 1;
        }
        argv[n] = own_string(d->frame, f);
        host->cmdline = argv;
        host->cmdline_count = n + 1;
    }
    return true;
}

static void host_process_default(struct nvt_host_process *host) {
    fields_default(&fields_host_process, host);
    host->user = host->name = host->command = "";
    host->cmdline = NULL;
    host->cmdline_count = 0;
}

static bool visit_gpu_process(struct decoder *d, void *target, const struct wire_field *f) {
    struct nvt_gpu_process *p = target;
    if (fields_decode(&fields_gpu_process, p, f)) {
        return true;
    }
    if (f->tag == 20 && f->type == WIRE_BYTES) {
        return walk(d, f->bytes, f->size, visit_host_process, &p->host);
    }
    return true;
}

struct table_target {
    const struct field_table *table;
    void *base;
};

static bool visit_table(struct decoder *d, void *target, const struct wire_field *f) {
    (void)d;
    const struct table_target *t = target;
    (void)fields_decode(t->table, t->base, f);
    return true;
}

static bool decode_table(struct decoder *d, const struct wire_field *f,
                         const struct field_table *table, void *base) {
    struct table_target t = {table, base};
    return walk(d, f->bytes, f->size, visit_table, &t);
}

static bool visit_device(struct decoder *d, void *target, const struct wire_field *f) {
    struct nvt_device_snapshot *dev = target;
    if (f->type == WIRE_BYTES && f->tag == 1) {
        return decode_table(d, f, &fields_device_info, &dev->info);
    }
    if (f->type == WIRE_BYTES && f->tag == 5) {
        return decode_table(d, f, &fields_device_state, &dev->state);
    }
    if (f->type == WIRE_VARINT && f->tag >= 2 && f->tag <= 4) {
        size_t v = f->value >= SIZE_MAX ? NVT_NA_SIZE : (size_t)f->value;
        *(f->tag == 2 ? &dev->parent : f->tag == 3 ? &dev->first_child : &dev->child_count) = v;
    }
    return true;
}

struct frame_parts {
    struct nvt_device_snapshot *devices;
    size_t device_count;
    struct nvt_gpu_process *processes;
    size_t process_count;
    struct nvt_host_process *related;
    size_t related_count;
};

/* Grow an array owned by the frame's parts (freed with the frame through blocks). */
static void *grow(void *array, size_t count, size_t size) {
    if ((count & (count - 1)) != 0 && count != 0) {
        return array;
    }
    return xrealloc(array, (count == 0 ? 1 : 2 * count) * size);
}

static bool visit_host_state(struct decoder *d, void *target, const struct wire_field *f) {
    struct nvt_host_state *host = target;
    if (fields_decode(&fields_host_state, host, f)) {
        return true;
    }
    if (f->tag == 30 && f->type == WIRE_BYTES) {
        size_t n = f->size / sizeof(double);
        if (n > MAX_CPUS) {
            return fail(d, "too many CPUs");
        }
        double *per_cpu = frame_own(d->frame, xcalloc(n + 1, sizeof(double)));
        memcpy(per_cpu, f->bytes, n * sizeof(double));
        host->cpu_percent_per_cpu = per_cpu;
        host->cpu_count = (uint32_t)n;
        d->frame->per_cpu_rw = per_cpu;
        d->frame->per_cpu_count = (uint32_t)n;
    }
    return true;
}

static bool visit_frame(struct decoder *d, void *target, const struct wire_field *f) {
    struct frame_parts *parts = target;
    struct nvt_snapshot *snap = &d->frame->snap;
    if (f->tag == 1 && f->type == WIRE_F64) {
        snap->timestamp = wire_as_double(f->value);
    } else if (f->tag == 2 && f->type == WIRE_VARINT) {
        snap->flags = (unsigned)f->value;
    } else if (f->type != WIRE_BYTES) {
        return true;
    } else if (f->tag == 3) {
        return decode_table(d, f, &fields_system, &snap->system);
    } else if (f->tag == 4) {
        if (parts->device_count >= MAX_DEVICES) {
            return fail(d, "too many devices");
        }
        parts->devices = grow(parts->devices, parts->device_count, sizeof(*parts->devices));
        struct nvt_device_snapshot *dev = &parts->devices[parts->device_count++];
        memset(dev, 0, sizeof(*dev));
        fields_default(&fields_device_info, &dev->info);
        nvt_device_state_init(&dev->state);
        fields_default(&fields_device_state, &dev->state);
        dev->parent = dev->first_child = NVT_NA_SIZE;
        return walk(d, f->bytes, f->size, visit_device, dev);
    } else if (f->tag == 5) {
        if (parts->process_count >= MAX_PROCESSES) {
            return fail(d, "too many processes");
        }
        parts->processes = grow(parts->processes, parts->process_count, sizeof(*parts->processes));
        struct nvt_gpu_process *p = &parts->processes[parts->process_count++];
        memset(p, 0, sizeof(*p));
        fields_default(&fields_gpu_process, p);
        host_process_default(&p->host);
        return walk(d, f->bytes, f->size, visit_gpu_process, p);
    } else if (f->tag == 6) {
        fields_default(&fields_host_state, &snap->host);
        snap->host.cpu_count = 0;
        snap->host.cpu_percent_per_cpu = NULL;
        d->frame->per_cpu_rw = NULL;
        return walk(d, f->bytes, f->size, visit_host_state, &snap->host);
    } else if (f->tag == 7) {
        if (parts->related_count >= MAX_PROCESSES) {
            return fail(d, "too many processes");
        }
        parts->related = grow(parts->related, parts->related_count, sizeof(*parts->related));
        struct nvt_host_process *h = &parts->related[parts->related_count++];
        memset(h, 0, sizeof(*h));
        host_process_default(h);
        return walk(d, f->bytes, f->size, visit_host_process, h);
    }
    return true;
}

/* The view code indexes devices[] with these slots: they must fit together. */
static const char *slots_problem(const struct frame *frame) {
    const struct nvt_device_snapshot *devices = frame->snap.devices;
    size_t n = frame->snap.device_count;
    for (size_t slot = 0; slot < n; slot++) {
        const struct nvt_device_snapshot *dev = &devices[slot];
        if (dev->parent != NVT_NA_SIZE && dev->parent >= slot) {
            return "a MIG device's parent slot is wrong";
        }
        if (dev->child_count > 0) {
            if (dev->first_child != slot + 1 || dev->child_count > n - slot - 1) {
                return "a GPU's MIG slots are wrong";
            }
            for (size_t k = 0; k < dev->child_count; k++) {
                if (devices[slot + 1 + k].parent != slot) {
                    return "a GPU's MIG slots are wrong";
                }
            }
        } else if (dev->parent == NVT_NA_SIZE) {
            /* A GPU without children: first_child must not point anywhere either. */
            if (dev->first_child != NVT_NA_SIZE && dev->first_child > n) {
                return "a GPU's MIG slots are wrong";
            }
        }
    }
    for (size_t i = 0; i < frame->snap.process_count; i++) {
        if (frame->snap.processes[i].device >= n) {
            return "a process's device slot is wrong";
        }
    }
    if (!(frame->snap.timestamp > 0.0 && frame->snap.timestamp < 1e11)) {
        return "the frame has no valid time";
    }
    return NULL;
}

bool frame_check(const struct frame *frame, char *error, size_t error_size) {
    const char *problem = slots_problem(frame);
    if (problem != NULL) {
        snprintf(error, error_size, "%s", problem);
        return false;
    }
    return true;
}

bool frame_decode(const void *data, size_t size, struct frame **out, char *error,
                  size_t error_size) {
    struct frame *frame = xcalloc(1, sizeof(*frame));
    fields_default(&fields_system, &frame->snap.system);
    fields_default(&fields_host_state, &frame->snap.host);
    frame->snap.host.cpu_count = 0;
    frame->snap.host.cpu_percent_per_cpu = NULL;
    frame->snap.timestamp = 0.0;
    struct frame_parts parts = {0};
    struct decoder d = {frame, error, error_size, 0};
    bool ok = walk(&d, data, size, visit_frame, &parts);
    /* Parts are owned before checking, so one frame_free() releases everything either way. */
    frame_own(frame, parts.devices);
    frame_own(frame, parts.processes);
    frame_own(frame, parts.related);
    frame->snap.devices = parts.devices;
    frame->snap.device_count = parts.device_count;
    frame->snap.device_stride = sizeof(struct nvt_device_snapshot);
    frame->snap.processes = parts.processes;
    frame->snap.process_count = parts.process_count;
    frame->snap.process_stride = sizeof(struct nvt_gpu_process);
    frame->related = parts.related;
    frame->related_count = parts.related_count;
    if (frame->per_cpu_rw != NULL) {
        /* The count names the array's entries whatever order the fields came in. */
        frame->snap.host.cpu_count = frame->per_cpu_count;
    }
    frame->devices_rw = parts.devices;
    frame->processes_rw = parts.processes;
    frame->related_rw = parts.related;
    ok = ok && frame_check(frame, error, error_size);
    if (!ok) {
        frame_free(frame);
        return false;
    }
    *out = frame;
    return true;
}

void frame_free(struct frame *frame) {
    if (frame == NULL) {
        return;
    }
    for (size_t i = 0; i < frame->block_count; i++) {
        free(frame->blocks[i]);
    }
    free(frame->blocks);
    free(frame);
}

const struct nvt_host_process *frame_related(const struct frame *frame, uint32_t pid) {
    for (size_t i = 0; i < frame->related_count; i++) {
        if (frame->related[i].pid == pid) {
            return &frame->related[i];
        }
    }
    return NULL;
}
