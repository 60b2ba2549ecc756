/* The exposition's helpers, the driver info and the host metrics (render.h). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render_internal.h"
#include "util/array.h"
#include "util/text/utf8.h"

static void append(struct render_out *out, const char *text, size_t len) {
    out->ok = strbuf_append(out->sb, text, len) && out->ok;
}

static void append_str(struct render_out *out, const char *text) {
    append(out, text, strlen(text));
}

void render_family(struct render_out *out, const char *name, const char *help) {
    append_str(out, "# HELP ");
    append_str(out, name);
    append(out, " ", 1);
    append_str(out, help);
    append_str(out, "\n# TYPE ");
    append_str(out, name);
    append_str(out, " gauge\n");
}

void render_sample_text(struct render_out *out, struct render_text name, struct render_text labels,
                        const char *extra, size_t extra_len, double value) {
    /* One reservation and direct copies, the number written in place. */
    size_t most = name.len + labels.len + extra_len + RENDER_DOUBLE_MAX + 4;
    if (!strbuf_reserve(out->sb, most)) {
        out->ok = false;
        return;
    }
    char *start = out->sb->data + out->sb->len;
    char *p = start;
    memcpy(p, name.text, name.len);
    p += name.len;
    *p++ = '{';
    memcpy(p, labels.text, labels.len);
    p += labels.len;
    memcpy(p, extra, extra_len);
    p += extra_len;
    *p++ = '}';
    *p++ = ' ';
    p += render_double(p, RENDER_DOUBLE_MAX, value);
    *p++ = '\n';
    *p = '\0';
    out->sb->len += (size_t)(p - start);
}

void render_sample(struct render_out *out, const char *name, const char *labels, double value) {
    struct render_text n = {name, strlen(name)};
    struct render_text l = {labels, strlen(labels)};
    render_sample_text(out, n, l, "", 0, value);
}

void render_label(struct render_out *out, struct strbuf *labels, const char *name,
                  const char *value, bool first) {
    /* One reservation for the worst case (every byte an invalid one, written as the three bytes
     * of U+FFFD), then direct writes: a pass builds some 200 labels, and five appends each were a
     * third of building them. */
    size_t name_len = strlen(name);
    size_t value_len = strlen(value);
    if (value_len > (SIZE_MAX - name_len - 8) / 3 ||
        !strbuf_reserve(labels, name_len + 3 * value_len + 4)) {
        out->ok = false;
        return;
    }
    char *start = labels->data + labels->len;
    char *p = start;
    if (!first) {
        *p++ = ',';
    }
    memcpy(p, name, name_len);
    p += name_len;
    *p++ = '=';
    *p++ = '"';
    /* The text format escapes backslash, double quote and line feed in label values, and a label
     * value must be UTF-8 (Prometheus marks a target that sends anything else down): an invalid
     * byte becomes U+FFFD.  Runs of plain ASCII are copied whole. */
    const char *v = value;
    const char *end = value + value_len;
    while (v < end) {
        size_t run = 0;
        while (v + run < end && (unsigned char)v[run] < 0x80 && v[run] != '\\' && v[run] != '"' &&
               v[run] != '\n') {
            run++;
        }
        memcpy(p, v, run);
        p += run;
        v += run;
        if (v == end) {
            break;
        }
        if ((unsigned char)*v < 0x80) {
            *p++ = '\\';
            *p++ = *v == '\n' ? 'n' : *v;
            v++;
            continue;
        }
        uint32_t cp;
        size_t n = utf8_decode(v, (size_t)(end - v), &cp);
        if (cp == UTF8_INVALID) {
            memcpy(p, "\xEF\xBF\xBD", 3);
            p += 3;
        } else {
            memcpy(p, v, n);
            p += n;
        }
        v += n;
    }
    *p++ = '"';
    *p = '\0';
    labels->len += (size_t)(p - start);
}

double render_u32(uint32_t value) {
    return nvt_is_na_u32(value) ? NAN : (double)value;
}

double render_u64_mib(uint64_t bytes) {
    return nvt_is_na_u64(bytes) ? NAN : (double)bytes / MIB;
}

/* nvitop's cuda_driver_version(): "12.2", or "12.2.1" with a revision; "N/A" when unknown. */
static void cuda_version(int32_t version, char *buf, size_t size) {
    if (nvt_is_na_i32(version) || version <= 0) {
        snprintf(buf, size, "N/A");
    } else if (version % 10 != 0) {
        snprintf(buf, size, "%d.%d.%d", version / 1000, (version % 1000) / 10, version % 10);
    } else {
        snprintf(buf, size, "%d.%d", version / 1000, (version % 1000) / 10);
    }
}

static void render_info(struct render_out *out, const struct render_input *in,
                        struct strbuf *labels) {
    const struct nvt_system_info *sys = &in->snapshot->system;
    char count[16];
    char cuda[32];
    snprintf(count, sizeof(count), "%u", sys->device_count);
    cuda_version(sys->cuda_driver_version, cuda, sizeof(cuda));
    strbuf_clear(labels);
    render_label(out, labels, "hostname", in->hostname, true);
    render_label(out, labels, "device_count", count, false);
    render_label(out, labels, "driver_version",
                 sys->driver_version[0] != '\0' ? sys->driver_version : "N/A", false);
    render_label(out, labels, "cuda_driver_version", cuda, false);
    render_family(out, "nvitop_info", "NVITOP Prometheus Exporter.");
    render_sample(out, "nvitop_info", strbuf_cstr(labels), 1.0);
}

struct host_gauge {
    const char *name;
    const char *help;
    double value;
};

static void render_host_gauges(struct render_out *out, const struct render_input *in,
                               const char *labels) {
    const struct nvt_host_state *h = &in->snapshot->host;
    const struct host_gauge gauges[] = {
        {"host_uptime_Second", "Host uptime (s).", h->uptime_s},
        {"host_cpu_percent_Percentage", "Host CPU percent (%).", h->cpu_percent},
        {"host_virtual_memory_total_MiB", "Host virtual memory total (MiB).",
         render_u64_mib(h->memory_total_bytes)},
        {"host_virtual_memory_used_MiB", "Host virtual memory used (MiB).",
         render_u64_mib(h->memory_used_bytes)},
        {"host_virtual_memory_free_MiB", "Host virtual memory free (MiB).",
         render_u64_mib(h->memory_free_bytes)},
        {"host_virtual_memory_percent_Percentage", "Host virtual memory percent (%).",
         h->memory_percent},
        {"host_swap_memory_total_MiB", "Host swap total (MiB).",
         render_u64_mib(h->swap_total_bytes)},
        {"host_swap_memory_used_MiB", "Host swap used (MiB).", render_u64_mib(h->swap_used_bytes)},
        {"host_swap_memory_free_MiB", "Host swap free (MiB).", render_u64_mib(h->swap_free_bytes)},
        {"host_swap_memory_percent_Percentage", "Host swap percent (%).", h->swap_percent},
        {"host_load_average_1m_Percentage", "Host load average for the last minute.", h->load_1m},
        {"host_load_average_5m_Percentage", "Host load average for the last 5 minutes.",
         h->load_5m},
        {"host_load_average_15m_Percentage", "Host load average for the last 15 minutes.",
         h->load_15m},
    };
    for (size_t i = 0; i < ARRAY_SIZE(gauges); i++) {
        render_family(out, gauges[i].name, gauges[i].help);
        render_sample(out, gauges[i].name, labels, gauges[i].value);
    }
}

/* One family per field of a list, a sample per entry labelled label=<entry name>. */
struct list_family {
    const char *name;
    const char *help;
};

static void render_net(struct render_out *out, const struct render_input *in,
                       struct strbuf *labels) {
    static const struct list_family families[] = {
        {"host_net_io_tx_data_MiB", "Host network I/O transmitted data (MiB)."},
        {"host_net_io_rx_data_MiB", "Host network I/O received data (MiB)."},
        {"host_net_io_tx_packets_Packet", "Host network I/O transmitted packets."},
        {"host_net_io_rx_packets_Packet", "Host network I/O received packets."},
    };
    for (size_t f = 0; f < 4; f++) {
        render_family(out, families[f].name, families[f].help);
        for (size_t i = 0; i < in->net_count; i++) {
            const struct nvt_net_io *n = &in->net[i];
            const double values[4] = {(double)n->bytes_sent / MIB, (double)n->bytes_recv / MIB,
                                      (double)n->packets_sent, (double)n->packets_recv};
            strbuf_clear(labels);
            render_label(out, labels, "hostname", in->hostname, true);
            render_label(out, labels, "interface", n->interface, false);
            render_sample(out, families[f].name, strbuf_cstr(labels), values[f]);
        }
    }
}

static void render_disk_io(struct render_out *out, const struct render_input *in,
                           struct strbuf *labels) {
    static const struct list_family families[] = {
        {"host_disk_io_read_data_MiB", "Host disk I/O read data (MiB)."},
        {"host_disk_io_write_data_MiB", "Host disk I/O write data (MiB)."},
    };
    for (size_t f = 0; f < 2; f++) {
        render_family(out, families[f].name, families[f].help);
        for (size_t i = 0; i < in->disk_count; i++) {
            const struct nvt_disk_io *d = &in->disk[i];
            strbuf_clear(labels);
            render_label(out, labels, "hostname", in->hostname, true);
            render_label(out, labels, "partition", d->device, false);
            render_sample(out, families[f].name, strbuf_cstr(labels),
                          (double)(f == 0 ? d->read_bytes : d->write_bytes) / MIB);
        }
    }
}

/* The last entry with this mount point wins, at the place of the first (a mount point mounted
 * over twice is one series, as in prometheus_client's registry); true for the entry to show. */
static bool usage_shown(const struct render_input *in, size_t i) {
    for (size_t j = i + 1; j < in->usage_count; j++) {
        if (strcmp(in->usage[j].mountpoint, in->usage[i].mountpoint) == 0) {
            return false;
        }
    }
    return true;
}

static void render_disk_usage(struct render_out *out, const struct render_input *in,
                              struct strbuf *labels) {
    static const struct list_family families[] = {
        {"host_disk_usage_total_MiB", "Host disk usage total (MiB)."},
        {"host_disk_usage_used_MiB", "Host disk usage used (MiB)."},
        {"host_disk_usage_free_MiB", "Host disk usage free (MiB)."},
        {"host_disk_usage_percent_Percentage", "Host disk usage percent (%)."},
    };
    for (size_t f = 0; f < 4; f++) {
        render_family(out, families[f].name, families[f].help);
        for (size_t i = 0; i < in->usage_count; i++) {
            if (!usage_shown(in, i)) {
                continue;
            }
            const struct nvt_disk_usage *u = &in->usage[i];
            const double values[4] = {(double)u->total_bytes / MIB, (double)u->used_bytes / MIB,
                                      (double)u->free_bytes / MIB, u->percent};
            strbuf_clear(labels);
            render_label(out, labels, "hostname", in->hostname, true);
            render_label(out, labels, "mountpoint", u->mountpoint, false);
            render_sample(out, families[f].name, strbuf_cstr(labels), values[f]);
        }
    }
}

bool render_metrics(const struct render_input *in, struct strbuf *sb) {
    struct render_out out = {.sb = sb, .ok = true};
    struct strbuf labels = STRBUF_INIT;
    render_info(&out, in, &labels);
    strbuf_clear(&labels);
    render_label(&out, &labels, "hostname", in->hostname, true);
    render_host_gauges(&out, in, strbuf_cstr(&labels));
    render_net(&out, in, &labels);
    render_disk_io(&out, in, &labels);
    render_disk_usage(&out, in, &labels);
    strbuf_fini(&labels);
    struct strbuf *device_labels = render_device_labels(&out, in);
    if (device_labels != NULL) {
        render_devices(&out, in, device_labels);
        render_processes(&out, in, device_labels);
        render_free_device_labels(device_labels, in->snapshot->device_count);
    }
    return out.ok;
}
