/*
 * Choosing what to sample for each output and printing it.
 */
#include "cmd/nvitop/output/output.h"

#include <stdio.h>

#include <nvitop/snapshot.h>

#include "cmd/nvitop/output/json.h"
#include "cmd/nvitop/output/query.h"
#include "cmd/nvitop/output/report.h"
#include "record/file/writer.h"
#include "record/related.h"
#include "record/sample_flags.h"

/* The report's bars show clocks ("@ 1980MHz"); BAR1 of MIG rows comes with the device fields. */
#define REPORT_FLAGS (NVT_SAMPLE_DEFAULT | NVT_SAMPLE_CLOCKS)

bool output_print(nvt_context *ctx, const struct view_config *config, enum nvitop_output kind,
                  struct rec_writer *recorder) {
    unsigned flags = REPORT_FLAGS;
    if (kind != NVITOP_OUTPUT_REPORT) {
        flags = NVT_SAMPLE_ALL & ~(unsigned)NVT_SAMPLE_PCIE_THROUGHPUT;
    }
    if (recorder != NULL) {
        flags |= REC_SAMPLE_EXTRA; /* the frame holds what nvitop-record's hold */
    }
    struct nvt_snapshot *snap = NULL;
    nvt_status status = nvt_snapshot_take(ctx, flags, &snap);
    if (status != NVT_OK) {
        fprintf(stderr, "nvitop: cannot take a snapshot: %s\n", nvt_strerror(status));
        return false;
    }
    bool ok = false;
    if (recorder != NULL) {
        struct related related;
        related_read(ctx, snap, &related);
        char error[256];
        if (!rec_writer_append(recorder, snap, related.items, related.count, error,
                               sizeof(error))) {
            fprintf(stderr, "nvitop: --record: %s\n", error);
            related_fini(&related);
            nvt_snapshot_free(snap);
            return false;
        }
        related_fini(&related);
    }
    switch (kind) {
    case NVITOP_OUTPUT_REPORT:
        ok = report_print(stdout, snap, config, report_terminal_columns());
        break;
    case NVITOP_OUTPUT_JSON:
        ok = json_print(stdout, snap, config);
        break;
    case NVITOP_OUTPUT_QUERY:
        ok = query_print(stdout, snap, config);
        break;
    }
    nvt_snapshot_free(snap);
    return ok;
}
