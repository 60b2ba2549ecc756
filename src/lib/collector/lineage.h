/*
 * Which GPU processes a collector follows: those that are one of the root pids or descend from
 * one (nvitop's descendant test).  A process is classified once per (pid, start time) and the
 * verdict remembered while the process stays on a GPU; the parent pids of all processes are read
 * (nvt_host_ppid_map) only when an unknown GPU process appears, so a steady job costs no walk of
 * the proc file system.  A process whose parent exited is judged by its new parent.
 *
 * Belongs to one sampler; used under its lock.  Allocations are checked.
 */
#ifndef NVITOP_SRC_LIB_COLLECTOR_LINEAGE_H
#define NVITOP_SRC_LIB_COLLECTOR_LINEAGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <nvitop/context.h>
#include <nvitop/snapshot.h>
#include <nvitop/status.h>

struct lineage_entry {
    uint32_t pid;
    double create_time;
    bool positive;
};

struct lineage {
    uint32_t *roots; /* sorted */
    size_t root_count;
    bool all_processes;          /* root 1: every process */
    struct lineage_entry *known; /* the processes of the last snapshot */
    size_t known_count;
};

/* Copies roots; NULL or none: this process. */
nvt_status lineage_init(struct lineage *lineage, const uint32_t *roots, size_t root_count);
void lineage_fini(struct lineage *lineage);

/* Set followed[i] for every process of the snapshot.  The remembered verdicts are replaced by
 * those of this snapshot's processes, so exited ones are forgotten.  NVT_ERR_NO_MEMORY. */
nvt_status lineage_classify(struct lineage *lineage, nvt_context *ctx,
                            const struct nvt_snapshot *snap, bool *followed);

#endif /* NVITOP_SRC_LIB_COLLECTOR_LINEAGE_H */
