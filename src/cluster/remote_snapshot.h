/*
 * A node's nvitop-exporter metrics turned into a struct nvt_snapshot, so that the monitor's view
 * code (device panel, process table) draws a remote node as it draws the local GPUs.  What the
 * exporter does not export (bus id, persistence and compute modes, ECC, ...) is N/A.  No I/O.
 */
#ifndef NVITOP_SRC_CLUSTER_REMOTE_SNAPSHOT_H
#define NVITOP_SRC_CLUSTER_REMOTE_SNAPSHOT_H

#include <stddef.h>

#include <nvitop/snapshot.h>

#include "cluster/parse/promtext.h"

/* What needs a human on one device (docs/cluster.md, "Health"): node.h's NODE_FLAG_* bits. */
struct remote_health {
    unsigned flags;
    double xid_last; /* NaN: none */
};

struct remote_snapshot {
    struct nvt_snapshot snap; /* first: a pointer to it is a pointer to the whole */
    struct prom_doc doc;      /* the parsed body the strings point into */
    struct nvt_device_snapshot *devices;
    struct nvt_gpu_process *processes;
    const char **cmdlines;        /* one argv entry (the command) per process */
    struct remote_health *health; /* one per device, in the devices' order */
};

/* Parse body and build the snapshot.  NULL with a message in err for a malformed body or one
 * without nvitop-exporter GPU metrics.  Free with remote_snapshot_free(). */
struct remote_snapshot *remote_snapshot_build(const char *body, size_t len, char *err,
                                              size_t errlen);

void remote_snapshot_free(struct remote_snapshot *rs);

#endif /* NVITOP_SRC_CLUSTER_REMOTE_SNAPSHOT_H */
