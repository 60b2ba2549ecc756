/*
 * Frame patches (format 2, docs/recording.md "Patches"): a frame written as what changed since
 * the previous one, field by field, in the frame message's tags.  A patch only changes values: a
 * frame whose structure differs from the previous one (devices and their MIG slots, the list of
 * GPU processes or related processes and their strings, the CPU count) is written as a keyframe
 * instead.  Pure functions over caller-owned frames; one thread per frame.
 */
#ifndef NVITOP_SRC_RECORD_CODEC_PATCH_H
#define NVITOP_SRC_RECORD_CODEC_PATCH_H

#include <stdbool.h>
#include <stddef.h>

#include <nvitop/snapshot.h>

#include "record/codec/frame.h"
#include "util/text/strbuf.h"

/* Append to out the patch that turns prev into snap (and its related processes), and make prev
 * that frame.  False, with prev and out unchanged, when the structure differs (write a keyframe
 * then); also false when memory ran out (out may then hold part of a patch). */
bool patch_encode(struct strbuf *out, struct frame *prev, const struct nvt_snapshot *snap,
                  const struct nvt_host_process *related, size_t related_count);

/* Apply a patch to frame (the previous frame, which becomes the patched one) for a frame taken at
 * time.  False with a reason for a malformed patch; frame may then be partly patched (decode again
 * from the keyframe). */
bool patch_apply(struct frame *frame, const void *data, size_t size, double time, char *error,
                 size_t error_size);

#endif /* NVITOP_SRC_RECORD_CODEC_PATCH_H */
