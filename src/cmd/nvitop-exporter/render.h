/*
 * The Prometheus text exposition (format 0.0.4) of one sampling pass, with nvitop-exporter's
 * metric names, units, HELP strings and labels (docs/exporter.md), plus our `container` label on
 * process series.  Pure: renders what it is given.  Not thread-safe for one strbuf.
 */
#ifndef NVITOP_SRC_CMD_NVITOP_EXPORTER_RENDER_H
#define NVITOP_SRC_CMD_NVITOP_EXPORTER_RENDER_H

#include <stdbool.h>
#include <stddef.h>

#include <nvitop/host.h>
#include <nvitop/snapshot.h>

#include "util/text/strbuf.h"

struct render_input {
    const char *hostname; /* value of every `hostname` label */
    const struct nvt_snapshot *snapshot;
    const struct nvt_net_io *net;
    size_t net_count;
    const struct nvt_disk_io *disk;
    size_t disk_count;
    const struct nvt_disk_usage *usage;
    size_t usage_count;
    /* The container of snapshot->processes[i] ("" on bare metal); NULL: all "". */
    const char *const *containers;
};

/* Append the exposition to out.  False when out of memory (out then holds a partial text). */
bool render_metrics(const struct render_input *in, struct strbuf *out);

/* A device's devicename and uuid labels as nvitop-exporter 1.7 writes them: "ERROR: GPU is Lost"
 * or "ERROR: Unknown" for a device whose handle failed (its uuid then "N/A"), else the name and
 * UUID, "N/A" when empty. */
const char *render_device_name(const struct nvt_device_info *info);
const char *render_device_uuid(const struct nvt_device_info *info);

/* A double as Python's repr() writes it ("1.0", "85.3", "1e-05", "NaN", "+Inf"), which is what
 * prometheus_client prints.  buf needs 32 bytes (RENDER_DOUBLE_MAX); returns the length written
 * (without the NUL). */
#define RENDER_DOUBLE_MAX 32
size_t render_double(char *buf, size_t size, double value);

#endif /* NVITOP_SRC_CMD_NVITOP_EXPORTER_RENDER_H */
