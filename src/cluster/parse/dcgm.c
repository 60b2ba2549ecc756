/* dcgm-exporter's metrics as nvitop-exporter's (dcgm.h).  A device is a `gpu` label, or with a
 * non-empty GPU_I_ID a MIG GPU instance, shown as index "<gpu>:<GPU_I_ID>"; every GPU seen gets a
 * physical device, whose memory is its MIG instances' sum when it has no figure of its own.  The
 * field names and units are those of dcgm-exporter's default counters (FB in MiB, power in W,
 * temperature in C, clocks in MHz, utilisation in %). */
#include "cluster/parse/dcgm.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cluster/node.h"
#include "util/array.h"
#include "util/xalloc.h"

enum slot {
    S_UTIL,
    S_MEM_UTIL,
    S_ENC,
    S_DEC,
    S_FB_USED,
    S_FB_FREE,
    S_FB_RESERVED,
    S_POWER,
    S_TEMP,
    S_SM_CLOCK,
    S_MEM_CLOCK,
    S_XID,
    S_ECC_DBE,
    S_REMAP_UNCORRECTABLE,
    S_REMAP_FAILURE,
    S_CLOCK_EVENTS,
    S_SLOWDOWN_TEMP,
    S_COUNT
};

static const struct {
    const char *dcgm;
    enum slot slot;
} fields[] = {
    {"DCGM_FI_DEV_GPU_UTIL", S_UTIL},
    {"DCGM_FI_DEV_MEM_COPY_UTIL", S_MEM_UTIL},
    {"DCGM_FI_DEV_ENC_UTIL", S_ENC},
    {"DCGM_FI_DEV_DEC_UTIL", S_DEC},
    {"DCGM_FI_DEV_FB_USED", S_FB_USED},
    {"DCGM_FI_DEV_FB_FREE", S_FB_FREE},
    {"DCGM_FI_DEV_FB_RESERVED", S_FB_RESERVED},
    {"DCGM_FI_DEV_POWER_USAGE", S_POWER},
    {"DCGM_FI_DEV_GPU_TEMP", S_TEMP},
    {"DCGM_FI_DEV_SM_CLOCK", S_SM_CLOCK},
    {"DCGM_FI_DEV_MEM_CLOCK", S_MEM_CLOCK},
    {"DCGM_FI_DEV_XID_ERRORS", S_XID},
    {"DCGM_FI_DEV_ECC_DBE_VOL_TOTAL", S_ECC_DBE},
    {"DCGM_FI_DEV_UNCORRECTABLE_REMAPPED_ROWS", S_REMAP_UNCORRECTABLE},
    {"DCGM_FI_DEV_ROW_REMAP_FAILURE", S_REMAP_FAILURE},
    {"DCGM_FI_DEV_CLOCK_THROTTLE_REASONS", S_CLOCK_EVENTS}, /* DCGM 3.x's name */
    {"DCGM_FI_DEV_CLOCKS_EVENT_REASONS", S_CLOCK_EVENTS},
    {"DCGM_FI_DEV_SLOWDOWN_TEMP", S_SLOWDOWN_TEMP},
};

/* What each slot is written as (S_FB_RESERVED only adds to the total; the health slots make
 * nvitop_health_flags and nvitop_xid_last). */
static const char *const written[S_COUNT] = {
    [S_UTIL] = "gpu_utilization_Percentage",
    [S_MEM_UTIL] = "gpu_memory_utilization_Percentage",
    [S_ENC] = "gpu_encoder_utilization_Percentage",
    [S_DEC] = "gpu_decoder_utilization_Percentage",
    [S_FB_USED] = "gpu_memory_used_MiB",
    [S_FB_FREE] = "gpu_memory_free_MiB",
    [S_POWER] = "gpu_power_usage_W",
    [S_TEMP] = "gpu_temperature_C",
    [S_SM_CLOCK] = "gpu_clock_sm_MHz",
    [S_MEM_CLOCK] = "gpu_clock_memory_MHz",
    [S_XID] = "nvitop_xid_last",
    [S_ECC_DBE] = "nvitop_ecc_uncorrected_volatile", /* the node view's "Uncorr. ECC" */
};

/* NVML's clock event (throttle) reasons that need a human: HW slowdown 0x8, SW thermal 0x20, HW
 * thermal 0x40, HW power brake 0x80 (not the SW power cap 0x4, which a busy GPU reaches every
 * day, nor idle, application clocks, sync boost or display clocks). */
#define THROTTLE_REASONS 0xe8u

/* The health flags (node.h's NODE_FLAG_*) of a device's values. */
static unsigned health_flags(const double *v) {
    unsigned flags = 0;
    if (v[S_XID] > 0) {
        flags |= NODE_FLAG_XID;
    }
    if (v[S_ECC_DBE] > 0 || v[S_REMAP_UNCORRECTABLE] > 0 || v[S_REMAP_FAILURE] > 0) {
        flags |= NODE_FLAG_ECC;
    }
    if (v[S_CLOCK_EVENTS] >= 0 && v[S_CLOCK_EVENTS] < 4294967296.0 &&
        ((unsigned long long)v[S_CLOCK_EVENTS] & THROTTLE_REASONS) != 0) {
        flags |= NODE_FLAG_THROTTLE;
    }
    if (v[S_TEMP] > 0 && v[S_SLOWDOWN_TEMP] > 0 && v[S_TEMP] >= v[S_SLOWDOWN_TEMP]) {
        flags |= NODE_FLAG_HOT;
    }
    return flags;
}

struct device {
    unsigned long gpu;
    unsigned long instance; /* GPU_I_ID of a MIG instance */
    bool mig;
    const char *model, *uuid, *profile, *pod, *namespace_;
    double v[S_COUNT];
};

struct devices {
    struct device *items;
    size_t count, cap;
};

#define DCGM_PREFIX "DCGM_FI_"

bool dcgm_is_family(const char *name, size_t len) {
    return len >= sizeof DCGM_PREFIX - 1 && memcmp(name, DCGM_PREFIX, sizeof DCGM_PREFIX - 1) == 0;
}

bool dcgm_is_read(const char *name, size_t len) {
    if (!dcgm_is_family(name, len)) {
        return false;
    }
    for (size_t f = 0; f < ARRAY_SIZE(fields); f++) {
        if (strlen(fields[f].dcgm) == len && memcmp(fields[f].dcgm, name, len) == 0) {
            return true;
        }
    }
    return false;
}

bool dcgm_blank(double v) {
    static const double int32_blank = 2147483632.0;     /* 0x7ffffff0 */
    static const double fp64_blank = 140737488355328.0; /* 2^47 */
    /* 0x7ffffffffffffff0 and the next three round to 2^63 as doubles. */
    static const double int64_blank = 9223372036854775808.0;
    return (v >= int32_blank && v <= int32_blank + 3) || (v >= fp64_blank && v <= fp64_blank + 3) ||
           v >= int64_blank;
}

/* "12" -> 12; false for anything but a plain decimal number. */
static bool number_of(const char *text, unsigned long *out) {
    if (text == NULL || *text < '0' || *text > '9') {
        return false;
    }
    char *end;
    *out = strtoul(text, &end, 10);
    return *end == '\0' && *out <= 1000000;
}

static const char *nonempty(const char *text) {
    return text != NULL && text[0] != '\0' ? text : NULL;
}

static struct device *device_of(struct devices *ds, unsigned long gpu, bool mig,
                                unsigned long instance) {
    for (size_t i = 0; i < ds->count; i++) {
        struct device *d = &ds->items[i];
        if (d->gpu == gpu && d->mig == mig && (!mig || d->instance == instance)) {
            return d;
        }
    }
    if (ds->count == ds->cap) {
        ds->cap = ds->cap ? ds->cap * 2 : 8;
        ds->items = xrealloc(ds->items, ds->cap * sizeof *ds->items);
    }
    struct device *d = &ds->items[ds->count++];
    memset(d, 0, sizeof *d);
    d->gpu = gpu;
    d->mig = mig;
    d->instance = mig ? instance : 0;
    for (size_t k = 0; k < S_COUNT; k++) {
        d->v[k] = NAN;
    }
    return d;
}

static int by_index(const void *a, const void *b) {
    const struct device *x = a, *y = b;
    if (x->gpu != y->gpu) {
        return x->gpu < y->gpu ? -1 : 1;
    }
    if (x->mig != y->mig) {
        return x->mig ? 1 : -1;
    }
    return x->instance < y->instance ? -1 : x->instance > y->instance;
}

/* Program code: running out of memory ends the program, as xalloc does. */
static void check(bool ok) {
    if (!ok) {
        fputs("nvitop: out of memory\n", stderr);
        abort();
    }
}

static void index_text(char *buf, size_t size, const struct device *d) {
    if (d->mig) {
        snprintf(buf, size, "%lu:%lu", d->gpu, d->instance);
    } else {
        snprintf(buf, size, "%lu", d->gpu);
    }
}

/* value with \\, \" and \n escaped: its runs without them appended at once. */
static void append_escaped(struct strbuf *out, const char *value) {
    for (const char *c = value;;) {
        size_t run = strcspn(c, "\\\"\n");
        check(strbuf_append(out, c, run));
        c += run;
        if (*c == '\0') {
            return;
        }
        check(strbuf_append_str(out, *c == '\\' ? "\\\\" : *c == '"' ? "\\\"" : "\\n"));
        c++;
    }
}

/* Where a translation goes: Prometheus text (dcgm_translate()), or a parsed document built
 * directly (dcgm_translate_doc(): the summary's path, without writing the text and parsing it
 * again).  One emission (emit() below) drives both, so the two say the same: a set of labels, then
 * the series that carry it. */
struct writer {
    struct strbuf *text;  /* text: the output */
    struct strbuf labels; /* text: the current labels, written once per set */
    struct prom_doc *doc; /* document: the output */
    size_t sample_cap, label_cap;
    struct strbuf arena; /* document: its label values, NUL-terminated (becomes doc->text) */
    size_t *offsets;     /* document: each label's value in the arena, until emit() ends */
    size_t first;        /* document: the current set's first label */
};

static void append(struct strbuf *out, const char *text) {
    check(strbuf_append_str(out, text));
}

/* A value that is not finite is no reading (docs/cluster.md): NaN, which Prometheus text spells
 * so ("%g" would write "-inf", which it does not read). */
static void append_value(struct strbuf *out, double v) {
    if (!isfinite(v)) {
        check(strbuf_append_str(out, " NaN\n"));
        return;
    }
    /* Most of dcgm-exporter's values are whole numbers (MiB, MHz, C, %, counters): written
     * without printf's floating-point conversion, the most of a translation's cost. */
    if (v >= 0 && v < 1e15 && v == floor(v)) {
        char digits[24], *p = digits + sizeof digits;
        *--p = '\n';
        unsigned long long n = (unsigned long long)v;
        do {
            *--p = (char)('0' + n % 10);
            n /= 10;
        } while (n > 0);
        *--p = ' ';
        check(strbuf_append(out, p, (size_t)(digits + sizeof digits - p)));
        return;
    }
    check(strbuf_appendf(out, " %.17g\n", v));
}

static void labels_begin(struct writer *w) {
    if (w->text != NULL) {
        strbuf_clear(&w->labels);
    } else {
        w->first = w->doc->label_count;
    }
}

/* name="value" in the current set (NULL: ""). */
static void label(struct writer *w, const char *name, const char *value) {
    value = value != NULL ? value : "";
    if (w->text != NULL) {
        if (w->labels.len > 0) {
            append(&w->labels, ",");
        }
        append(&w->labels, name);
        append(&w->labels, "=\"");
        append_escaped(&w->labels, value);
        append(&w->labels, "\"");
        return;
    }
    struct prom_doc *doc = w->doc;
    if (doc->label_count == w->label_cap) {
        w->label_cap = w->label_cap ? w->label_cap * 2 : 64;
        doc->labels = xrealloc(doc->labels, w->label_cap * sizeof *doc->labels);
        w->offsets = xrealloc(w->offsets, w->label_cap * sizeof *w->offsets);
    }
    w->offsets[doc->label_count] = w->arena.len;
    doc->labels[doc->label_count++] = (struct prom_label){name, NULL};
    check(strbuf_append(&w->arena, value, strlen(value) + 1));
}

/* name{the current labels} v */
static void series(struct writer *w, const char *name, double v) {
    if (w->text != NULL) {
        append(w->text, name);
        append(w->text, "{");
        check(strbuf_append(w->text, w->labels.data, w->labels.len));
        append(w->text, "}");
        append_value(w->text, v);
        return;
    }
    struct prom_doc *doc = w->doc;
    if (doc->sample_count == w->sample_cap) {
        w->sample_cap = w->sample_cap ? w->sample_cap * 2 : 32;
        doc->samples = xrealloc(doc->samples, w->sample_cap * sizeof *doc->samples);
    }
    doc->samples[doc->sample_count++] =
        (struct prom_sample){name, w->first, doc->label_count - w->first, isfinite(v) ? v : NAN};
}

/* A device's labels, the same in each of its series: hostname, index, devicename, uuid. */
static void device_labels(struct writer *w, const char *host, const struct device *d) {
    char index[48];
    index_text(index, sizeof index, d);
    labels_begin(w);
    label(w, "hostname", host);
    label(w, "index", index);
    if (d->mig && d->profile != NULL) {
        char model[256];
        snprintf(model, sizeof model, "%s MIG %s", d->model != NULL ? d->model : "", d->profile);
        label(w, "devicename", model);
    } else {
        label(w, "devicename", d->model);
    }
    label(w, "uuid", d->uuid);
}

static double add(double a, double b) {
    return isnan(a) ? b : isnan(b) ? a : a + b;
}

/* A physical GPU without memory figures of its own: its MIG instances' sums. */
static void fill_from_instances(struct devices *ds, struct device *parent) {
    static const enum slot sums[] = {S_FB_USED, S_FB_FREE, S_FB_RESERVED};
    for (size_t k = 0; k < ARRAY_SIZE(sums); k++) {
        if (!isnan(parent->v[sums[k]])) {
            continue;
        }
        for (size_t i = 0; i < ds->count; i++) {
            const struct device *d = &ds->items[i];
            if (d->mig && d->gpu == parent->gpu) {
                parent->v[sums[k]] = add(parent->v[sums[k]], d->v[sums[k]]);
            }
        }
    }
}

/* The devices of doc's dcgm-exporter samples, with the node's hostname and driver version; false
 * when there is none. */
static bool collect(const struct prom_doc *doc, struct devices *ds, const char **host,
                    const char **driver) {
    *host = NULL;
    *driver = NULL;
    for (size_t i = 0; i < doc->sample_count; i++) {
        const struct prom_sample *s = &doc->samples[i];
        unsigned long gpu, instance = 0;
        if (!dcgm_is_family(s->name, strlen(s->name)) ||
            !number_of(prom_label_value(doc, s, "gpu"), &gpu)) {
            continue;
        }
        const char *gi = nonempty(prom_label_value(doc, s, "GPU_I_ID"));
        if (gi != NULL && !number_of(gi, &instance)) {
            continue;
        }
        *host = *host != NULL ? *host : nonempty(prom_label_value(doc, s, "Hostname"));
        *driver = *driver != NULL ? *driver
                                  : nonempty(prom_label_value(doc, s, "DCGM_FI_DRIVER_VERSION"));
        (void)device_of(ds, gpu, false, 0); /* every GPU seen is a physical device */
        struct device *d = device_of(ds, gpu, gi != NULL, instance);
        d->model = d->model != NULL ? d->model : nonempty(prom_label_value(doc, s, "modelName"));
        d->uuid = d->uuid != NULL ? d->uuid : nonempty(prom_label_value(doc, s, "UUID"));
        d->profile =
            d->profile != NULL ? d->profile : nonempty(prom_label_value(doc, s, "GPU_I_PROFILE"));
        d->pod = d->pod != NULL ? d->pod : nonempty(prom_label_value(doc, s, "pod"));
        d->namespace_ =
            d->namespace_ != NULL ? d->namespace_ : nonempty(prom_label_value(doc, s, "namespace"));
        for (size_t f = 0; f < ARRAY_SIZE(fields); f++) {
            if (strcmp(s->name, fields[f].dcgm) == 0) {
                d->v[fields[f].slot] = dcgm_blank(s->value) ? NAN : s->value;
                break;
            }
        }
    }
    return ds->count > 0;
}

/* The translation of the devices, in either form. */
static void emit(struct writer *w, struct devices *ds, const char *host, const char *driver) {
    qsort(ds->items, ds->count, sizeof *ds->items, by_index);
    labels_begin(w);
    label(w, "hostname", host);
    label(w, "driver_version", driver);
    label(w, "exporter", "dcgm-exporter");
    series(w, "nvitop_info", 1);
    for (size_t i = 0; i < ds->count; i++) {
        struct device *d = &ds->items[i];
        if (!d->mig) {
            fill_from_instances(ds, d);
        }
        device_labels(w, host, d);
        double total = add(add(d->v[S_FB_USED], d->v[S_FB_FREE]), d->v[S_FB_RESERVED]);
        if (isnan(d->v[S_FB_USED]) || isnan(d->v[S_FB_FREE])) {
            total = NAN; /* the reserved part alone is no total */
        }
        series(w, "gpu_memory_total_MiB", total);
        for (size_t k = 0; k < S_COUNT; k++) {
            if (written[k] != NULL) {
                series(w, written[k], d->v[k]);
            }
        }
        series(w, "nvitop_health_flags", health_flags(d->v));
        if (d->pod != NULL) {
            char user[256];
            snprintf(user, sizeof user, "%s%s%s", d->namespace_ != NULL ? d->namespace_ : "",
                     d->namespace_ != NULL ? "/" : "", d->pod);
            char index[48];
            index_text(index, sizeof index, d);
            labels_begin(w);
            label(w, "index", index);
            label(w, "username", user);
            series(w, "nvitop_pod_gpu_memory_MiB", d->v[S_FB_USED]);
        }
    }
}

bool dcgm_translate(const struct prom_doc *doc, struct strbuf *out) {
    struct devices ds = {0};
    const char *host, *driver;
    if (!collect(doc, &ds, &host, &driver)) {
        free(ds.items);
        return false;
    }
    struct writer w = {.text = out, .labels = STRBUF_INIT};
    emit(&w, &ds, host, driver);
    strbuf_fini(&w.labels);
    free(ds.items);
    return true;
}

bool dcgm_translate_doc(const struct prom_doc *doc, struct prom_doc *out) {
    struct devices ds = {0};
    const char *host, *driver;
    memset(out, 0, sizeof *out);
    if (!collect(doc, &ds, &host, &driver)) {
        free(ds.items);
        return false;
    }
    struct writer w = {.doc = out, .arena = STRBUF_INIT};
    emit(&w, &ds, host, driver);
    /* The arena is complete: each label's value is a place in it, and the doc owns it. */
    for (size_t i = 0; i < out->label_count; i++) {
        out->labels[i].value = w.arena.data + w.offsets[i];
    }
    out->text = w.arena.data;
    free(w.offsets);
    free(ds.items);
    return true;
}
