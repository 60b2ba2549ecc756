/*
 * A copy of a host process in one allocation, as nvt_host_process_read() returns one, for the
 * sources that hand out processes they keep (a recording's, the sampler's tree-view readings).
 */
#ifndef NVITOP_SRC_TUI_HOST_COPY_H
#define NVITOP_SRC_TUI_HOST_COPY_H

#include <nvitop/process.h>

/* A copy of host, freed with nvt_host_process_free() (i.e. free()).  Aborts through the program's
 * allocator hook when out of memory. */
struct nvt_host_process *tui_host_copy(const struct nvt_host_process *host);

#endif /* NVITOP_SRC_TUI_HOST_COPY_H */
