/*
 * The host processes a frame records beside the GPU processes: the ancestors of every GPU process
 * up to the root, so that the tree view can be drawn again from a recording.  Children that are
 * not on a GPU are not recorded (reading them needs a walk of every process on the host).
 * Uses the context: the thread that owns it.
 */
#ifndef NVITOP_SRC_RECORD_RELATED_H
#define NVITOP_SRC_RECORD_RELATED_H

#include <stddef.h>

#include <nvitop/context.h>
#include <nvitop/snapshot.h>

struct related {
    struct nvt_host_process *items; /* shallow copies; strings owned by reads[] */
    size_t count;
    struct nvt_host_process **reads;
};

/* Read the ancestors of snap's GPU processes.  Processes that cannot be read end the walk. */
void related_read(nvt_context *ctx, const struct nvt_snapshot *snap, struct related *out);

void related_fini(struct related *related);

#endif /* NVITOP_SRC_RECORD_RELATED_H */
