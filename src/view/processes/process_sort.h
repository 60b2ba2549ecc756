/*
 * Comparison of process rows for the sort orders of view/processes/process_table.h.  Internal to
 * src/view/ (and usable by the monitor's tests).  Pure.
 */
#ifndef NVITOP_SRC_VIEW_PROCESSES_PROCESS_SORT_H
#define NVITOP_SRC_VIEW_PROCESSES_PROCESS_SORT_H

#include <stdbool.h>

#include <nvitop/process.h>

#include "view/processes/process_table.h"

/* The values a row is sorted by, with N/A as NaN (host values of vanished processes are N/A). */
struct view_sort_item {
    const struct nvt_gpu_process *process;
    uint32_t physical_index;
    uint32_t mig_index; /* NVT_NA_U32 for a physical GPU */
    bool gone;
    const char *user; /* "N/A" when unknown */
    double cpu_percent;
    double memory_percent;
    double running_time;
};

/* Ascending comparison (<0, 0, >0) of a and b under order; the caller flips it for descending. */
int view_sort_compare(enum view_sort_order order, const struct view_sort_item *a,
                      const struct view_sort_item *b);

#endif /* NVITOP_SRC_VIEW_PROCESSES_PROCESS_SORT_H */
