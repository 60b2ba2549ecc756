/*
 * One sampling pass of the exporter: a snapshot of every device and GPU process, the host's I/O
 * lists and the containers of the processes, rendered once into the exposition text that every
 * request of the following interval is answered with.  Used by one thread.
 */
#ifndef NVITOP_SRC_CMD_NVITOP_EXPORTER_EXPORTER_H
#define NVITOP_SRC_CMD_NVITOP_EXPORTER_EXPORTER_H

#include <stddef.h>

#include <nvitop/context.h>
#include <nvitop/snapshot.h>

#include "container_cache.h"

/* What a pass reads: everything nvitop-exporter shows, nothing more (static facts such as UUIDs
 * are read once per context and then repeated). */
#define EXPORTER_SAMPLE_FLAGS                                                                      \
    (NVT_SAMPLE_DEVICES | NVT_SAMPLE_PROCESSES | NVT_SAMPLE_HOST | NVT_SAMPLE_HOST_PROCESSES |     \
     NVT_SAMPLE_CLOCKS | NVT_SAMPLE_CODEC | NVT_SAMPLE_PCIE_THROUGHPUT | NVT_SAMPLE_NVLINK |       \
     NVT_SAMPLE_INFO)

struct exporter {
    nvt_context *ctx;
    const char *hostname;
    struct container_cache containers; /* of the last pass's processes */
    size_t last_len; /* length of the last text, to reserve as much for the next */
};

/* Take a pass: on success *text (malloc'd, *len bytes and a NUL) is the exposition and, when
 * snapshot_out is not NULL, *snapshot_out the snapshot (the caller frees it).  Fails with
 * NVT_ERR_NO_MEMORY only. */
nvt_status exporter_pass(struct exporter *exporter, char **text, size_t *len,
                         struct nvt_snapshot **snapshot_out);

void exporter_fini(struct exporter *exporter);

#endif /* NVITOP_SRC_CMD_NVITOP_EXPORTER_EXPORTER_H */
