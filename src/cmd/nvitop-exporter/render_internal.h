/* Shared by render.c (host and driver metrics) and render_gpu.c (device and process metrics). */
#ifndef NVITOP_SRC_CMD_NVITOP_EXPORTER_RENDER_INTERNAL_H
#define NVITOP_SRC_CMD_NVITOP_EXPORTER_RENDER_INTERNAL_H

#include "render.h"

#define MIB (1024.0 * 1024.0)

/* The output and whether every append succeeded. */
struct render_out {
    struct strbuf *sb;
    bool ok;
};

/* "# HELP <name> <help>\n# TYPE <name> gauge\n" */
void render_family(struct render_out *out, const char *name, const char *help);

/* "<name>{<labels>} <value>\n"; labels is the already escaped label text without braces. */
void render_sample(struct render_out *out, const char *name, const char *labels, double value);

/* A text of known length: a pass writes some 720 samples, and measuring the same family names and
 * label texts again for each (strlen) was a tenth of rendering. */
struct render_text {
    const char *text;
    size_t len;
};

/* As render_sample(), with the lengths known, and extra (extra_len bytes, "" for none) appended to
 * the labels: ",link=\"3\"". */
void render_sample_text(struct render_out *out, struct render_text name, struct render_text labels,
                        const char *extra, size_t extra_len, double value);

/* Append name="value" (escaped, with a leading ',' unless first) to a label text. */
void render_label(struct render_out *out, struct strbuf *labels, const char *name,
                  const char *value, bool first);

/* NaN for the N/A sentinels. */
double render_u32(uint32_t value);
double render_u64_mib(uint64_t bytes);

/* n written in decimal to buf (at least 21 bytes), NUL-terminated; returns its length. */
size_t render_uint(char *buf, uint64_t n);

/* The label text (hostname, index, devicename, uuid) of every device of the snapshot, built once
 * per pass for the device and the process families; NULL when out of memory (out->ok is then
 * false).  Freed with render_free_device_labels(). */
struct strbuf *render_device_labels(struct render_out *out, const struct render_input *in);
void render_free_device_labels(struct strbuf *labels, size_t count);

/* Device and process families (render_gpu.c, render_process.c); device_labels from
 * render_device_labels(). */
void render_devices(struct render_out *out, const struct render_input *in,
                    const struct strbuf *device_labels);
void render_processes(struct render_out *out, const struct render_input *in,
                      const struct strbuf *device_labels);

#endif /* NVITOP_SRC_CMD_NVITOP_EXPORTER_RENDER_INTERNAL_H */
