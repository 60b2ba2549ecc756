/*
 * Sort orders of the process table (docs/nvitop-behaviour.md §3.6.3 plus nvitop 1.5's %GMBW order).
 * N/A compares greater than any number, as nvitop's NA does.
 */
#include "view/processes/process_sort.h"

#include <ctype.h>
#include <math.h>
#include <string.h>

static const struct view_sort_info sort_infos[VIEW_SORT_COUNT] = {
    [VIEW_SORT_NATURAL] = {'n', "ID", 3, false, "natural"},
    [VIEW_SORT_PID] = {'p', "PID", 10, false, "pid"},
    [VIEW_SORT_USERNAME] = {'u', "USER", 19, false, "username"},
    [VIEW_SORT_GPU_MEMORY] = {'g', "GPU-MEM", 25, true, "gpu_memory"},
    [VIEW_SORT_SM_UTILIZATION] = {'s', "SM", 34, true, "sm_utilization"},
    [VIEW_SORT_GPU_MEMORY_UTILIZATION] = {'b', "GMBW", 38, true, "gpu_memory_utilization"},
    [VIEW_SORT_CPU_PERCENT] = {'c', "%CPU", 44, true, "cpu_percent"},
    [VIEW_SORT_MEMORY_PERCENT] = {'m', "%MEM", 50, true, "memory_percent"},
    [VIEW_SORT_TIME] = {'t', "TIME", 56, true, "time"},
};

const struct view_sort_info *view_sort_info(enum view_sort_order order) {
    if ((unsigned)order >= VIEW_SORT_COUNT) {
        return &sort_infos[VIEW_SORT_NATURAL];
    }
    return &sort_infos[order];
}

bool view_sort_from_key(char letter, enum view_sort_order *order, bool *reverse) {
    char lower = (char)tolower((unsigned char)letter);
    for (size_t i = 0; i < VIEW_SORT_COUNT; i++) {
        if (sort_infos[i].bind_key == lower) {
            *order = (enum view_sort_order)i;
            *reverse = lower != letter;
            return true;
        }
    }
    return false;
}

static int cmp_num(double a, double b) {
    bool na_a = isnan(a);
    bool na_b = isnan(b);
    if (na_a || na_b) {
        return (int)na_a - (int)na_b;
    }
    return (a > b) - (a < b);
}

static double u64_num(uint64_t value) {
    return nvt_is_na_u64(value) ? NAN : (double)value;
}

static double u32_num(uint32_t value) {
    return nvt_is_na_u32(value) ? NAN : (double)value;
}

static int cmp_device(const struct view_sort_item *a, const struct view_sort_item *b) {
    if (a->physical_index != b->physical_index) {
        return a->physical_index < b->physical_index ? -1 : 1;
    }
    /* (i,) sorts before (i, j): a physical GPU before its MIG devices. */
    bool mig_a = !nvt_is_na_u32(a->mig_index);
    bool mig_b = !nvt_is_na_u32(b->mig_index);
    if (mig_a != mig_b) {
        return mig_a ? 1 : -1;
    }
    return mig_a ? cmp_num(a->mig_index, b->mig_index) : 0;
}

static int cmp_pid(const struct view_sort_item *a, const struct view_sort_item *b) {
    return (a->process->pid > b->process->pid) - (a->process->pid < b->process->pid);
}

static int cmp_user(const struct view_sort_item *a, const struct view_sort_item *b) {
    return strcmp(a->user, b->user);
}

/* Compare by the fields of an order, in nvitop's key order, with the leading "gone" flag. */
int view_sort_compare(enum view_sort_order order, const struct view_sort_item *a,
                      const struct view_sort_item *b) {
    const struct nvt_gpu_process *pa = a->process;
    const struct nvt_gpu_process *pb = b->process;
    int c = 0;
    if (order == VIEW_SORT_NATURAL) {
        c = cmp_device(a, b);
    }
    if (c == 0) {
        c = (int)a->gone - (int)b->gone;
    }
    switch (order) {
    case VIEW_SORT_NATURAL:
        c = c != 0 ? c : cmp_user(a, b);
        return c != 0 ? c : cmp_pid(a, b);
    case VIEW_SORT_PID:
        c = c != 0 ? c : cmp_pid(a, b);
        break;
    case VIEW_SORT_USERNAME:
        c = c != 0 ? c : cmp_user(a, b);
        c = c != 0 ? c : cmp_pid(a, b);
        break;
    case VIEW_SORT_GPU_MEMORY:
        c = c != 0 ? c : cmp_num(u64_num(pa->gpu_memory_bytes), u64_num(pb->gpu_memory_bytes));
        c = c != 0 ? c : cmp_num(u32_num(pa->sm_util_pct), u32_num(pb->sm_util_pct));
        c = c != 0 ? c : cmp_num(a->cpu_percent, b->cpu_percent);
        c = c != 0 ? c : cmp_pid(a, b);
        break;
    case VIEW_SORT_SM_UTILIZATION:
    case VIEW_SORT_GPU_MEMORY_UTILIZATION:
        c = c != 0 ? c
                   : (order == VIEW_SORT_SM_UTILIZATION
                          ? cmp_num(u32_num(pa->sm_util_pct), u32_num(pb->sm_util_pct))
                          : cmp_num(u32_num(pa->memory_util_pct), u32_num(pb->memory_util_pct)));
        c = c != 0 ? c : cmp_num(u64_num(pa->gpu_memory_bytes), u64_num(pb->gpu_memory_bytes));
        c = c != 0 ? c : cmp_num(a->cpu_percent, b->cpu_percent);
        c = c != 0 ? c : cmp_pid(a, b);
        break;
    case VIEW_SORT_CPU_PERCENT:
        c = c != 0 ? c : cmp_num(a->cpu_percent, b->cpu_percent);
        c = c != 0 ? c : cmp_num(a->memory_percent, b->memory_percent);
        c = c != 0 ? c : cmp_pid(a, b);
        break;
    case VIEW_SORT_MEMORY_PERCENT:
        c = c != 0 ? c : cmp_num(a->memory_percent, b->memory_percent);
        c = c != 0 ? c : cmp_num(a->cpu_percent, b->cpu_percent);
        c = c != 0 ? c : cmp_pid(a, b);
        break;
    case VIEW_SORT_TIME:
        c = c != 0 ? c : cmp_num(a->running_time, b->running_time);
        c = c != 0 ? c : cmp_pid(a, b);
        break;
    case VIEW_SORT_COUNT:
        break;
    }
    return c != 0 ? c : cmp_device(a, b);
}
