/*
 * Caller-allocated structs that carry their size (struct_size, set by the header's inline *_init
 * from the caller's sizeof): the sizes of their first release, below which a struct is refused,
 * and the copy that reads or writes only what both sides know (docs/api.md, "ABI and
 * versioning").  Only src/lib/ includes this.
 */
#ifndef NVITOP_SRC_LIB_ABI_H
#define NVITOP_SRC_LIB_ABI_H

#include <stddef.h>
#include <string.h>

#include <nvitop/collector.h>
#include <nvitop/context.h>
#include <nvitop/device.h>
#include <nvitop/select.h>

/* Bytes of `type` up to and including `member`.  The first-release sizes name the last member of
 * that release, so appending members later does not change them. */
#define ABI_SIZE_THROUGH(type, member) (offsetof(type, member) + sizeof(((type *)NULL)->member))

#define ABI_OPTIONS_SIZE_1           ABI_SIZE_THROUGH(struct nvt_options, allow_no_gpu)
#define ABI_CRITERIA_SIZE_1          ABI_SIZE_THROUGH(struct nvt_select_criteria, no_sort)
#define ABI_DEV_STATE_SIZE_1         ABI_SIZE_THROUGH(struct nvt_device_state, nvlink_rx_kibps)
#define ABI_COLLECTOR_OPTIONS_SIZE_1 ABI_SIZE_THROUGH(struct nvt_collector_options, clock_data)
#define ABI_DAEMON_OPTIONS_SIZE_1    ABI_SIZE_THROUGH(struct nvt_collector_daemon_options, user)

/* Copy the first min(caller_size, own_size) bytes: the part both the caller's and the library's
 * version of a struct have.  Pure. */
static inline void abi_copy(void *to, const void *from, size_t caller_size, size_t own_size) {
    memcpy(to, from, caller_size < own_size ? caller_size : own_size);
}

#endif /* NVITOP_SRC_LIB_ABI_H */
