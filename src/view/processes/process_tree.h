/*
 * The tree view's rows (docs/nvitop-behaviour.md §3.8): every GPU process of a process table with
 * its ancestors up to the roots and its direct children, drawn with nvitop's columns (PID USER
 * DEVICE NLWP %CPU %MEM TIME COMMAND) and tree prefixes (`├─ `, `└─ `, `│  `).  Roots are sorted by
 * pid, children by (vanished, user, pid).
 *
 * The build is pure apart from the reader the caller passes for processes that are not on a GPU
 * (ancestors and children), so that tests and benchmarks can feed it anything.  The rows point
 * into the process table's snapshot: keep the snapshot alive while the tree is used.  Not
 * thread-safe for one tree; pure otherwise.
 */
#ifndef NVITOP_SRC_VIEW_PROCESSES_PROCESS_TREE_H
#define NVITOP_SRC_VIEW_PROCESSES_PROCESS_TREE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <nvitop/process.h>

#include "view/config.h"
#include "view/draw/line.h"
#include "view/processes/process_table.h"

/* Read a process that is not on a GPU: an allocation the tree takes over (it frees it with
 * nvt_host_process_free()), or NULL when the process is gone or unreadable (it is then left out).
 */
typedef struct nvt_host_process *(*view_tree_reader)(void *arg, uint32_t pid);

struct view_tree_row {
    uint32_t pid;
    double create_time;                  /* seconds since the epoch; NaN when unknown */
    const struct nvt_host_process *host; /* never NULL */
    bool gpu;                            /* a GPU process (else an ancestor or a child) */
    bool owned;                          /* the current user's (or running as superuser) */
    size_t depth;                        /* 0 for a root */
    struct view_line line;               /* the whole row, unscrolled (prefix green bold) */
};

struct view_process_tree {
    struct view_tree_row *rows;
    size_t count;
    size_t command_col; /* cell where the COMMAND column starts */
    struct view_line header;
    struct nvt_host_process **owned; /* what the reader returned */
    size_t owned_count;
    size_t owned_cap;
};

/*
 * Build the tree of the table's processes.  pids/ppids (count entries) are the parent map of
 * every process on the host (nvt_host_ppid_map()), used to find children; ancestors come from
 * each process's own ppid.  read is called once per ancestor or child.  The tree is overwritten
 * (call view_process_tree_fini() before reuse).  Aborts through the program's allocator hook when
 * out of memory.
 */
void view_process_tree_build(const struct view_process_table *table, const uint32_t *pids,
                             const uint32_t *ppids, size_t count, view_tree_reader read, void *arg,
                             const struct view_config *config, struct view_process_tree *tree);

void view_process_tree_fini(struct view_process_tree *tree);

/* The row showing (pid, create_time), or -1.  create_time NaN matches any. */
long view_process_tree_find(const struct view_process_tree *tree, uint32_t pid, double create_time);

#endif /* NVITOP_SRC_VIEW_PROCESSES_PROCESS_TREE_H */
