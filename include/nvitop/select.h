/*
 * Device selection for jobs (nvisel, docs/nvitop-behaviour.md §4.3) as a pure function over a
 * snapshot.
 *
 * Manual: nvt_select_devices(3); overview libnvitop(3).
 */
#ifndef NVITOP_SELECT_H
#define NVITOP_SELECT_H

#include <nvitop/common.h>
#include <nvitop/snapshot.h>
#include <nvitop/status.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Set up with nvt_select_criteria_init(), which records this program's struct size in struct_size;
 * a later library reads only the fields that size covers (the rest keep their defaults). */
struct nvt_select_criteria {
    size_t struct_size;              /* sizeof(struct nvt_select_criteria) of the caller */
    size_t min_count;                /* fewer found: the short list (*out_count < min_count) */
    size_t max_count;                /* NVT_NA_SIZE: no limit */
    uint64_t min_free_memory_bytes;  /* NVT_NA_U64: no constraint */
    uint64_t min_total_memory_bytes; /* NVT_NA_U64: no constraint */
    uint32_t max_gpu_util_pct;       /* NVT_NA_U32: no constraint */
    uint32_t max_memory_util_pct;    /* NVT_NA_U32: no constraint */
    uint32_t tolerance_pct;          /* loosen every constraint by this many percent */
    /* GPU memory of processes owned by these users counts as free (the snapshot needs
     * NVT_SAMPLE_PROCESSES and NVT_SAMPLE_HOST_PROCESSES for the owners to be known). */
    const char *const *free_accounts;
    size_t free_account_count;
    bool no_sort; /* keep candidate order instead of best-first */
};

/* Criteria with no constraint at all (max_count unlimited, tolerance 0) and struct_size for this
 * program's headers.  Inline, so that the size is the caller's; pure. */
static inline void nvt_select_criteria_init(struct nvt_select_criteria *criteria) {
    memset(criteria, 0, sizeof(*criteria));
    criteria->struct_size = sizeof(struct nvt_select_criteria);
    criteria->max_count = NVT_NA_SIZE;
    criteria->min_free_memory_bytes = NVT_NA_U64;
    criteria->min_total_memory_bytes = NVT_NA_U64;
    criteria->max_gpu_util_pct = NVT_NA_U32;
    criteria->max_memory_util_pct = NVT_NA_U32;
}

/*
 * Choose devices among candidates (slots of leaf devices of snap, in the caller's order, e.g.
 * CUDA order).  Writes up to candidate_count chosen slots to out_slots and their number to
 * *out_count.  *prefer_uuid is set when the result is a MIG device, which only a UUID can name.
 *
 * The snapshot must hold what selection reads: NVT_SAMPLE_INFO (UUIDs, to name the result) and
 * NVT_SAMPLE_DEVICES or NVT_SAMPLE_DEVICES_FAST (memory and utilisation), plus
 * NVT_SAMPLE_PROCESSES and NVT_SAMPLE_HOST_PROCESSES when criteria->free_accounts is set;
 * otherwise NVT_ERR_INVALID_ARGUMENT, and nvt_select_unmet() says what is missing.
 *
 * A device without a handle or lost (info.handle_status or state.status not NVT_OK) is never
 * chosen, whatever the criteria.
 *
 * Fewer qualifying devices than criteria->min_count is not an error: as nvitop's select_devices(),
 * the call returns NVT_OK with the short list; tell by *out_count < criteria->min_count (nvisel
 * then warns "Not enough devices found" and exits with 4).  Returns NVT_OK, or
 * NVT_ERR_INVALID_ARGUMENT (the snapshot above, max_count < min_count, a candidate out of range, a
 * criteria struct_size smaller than the first release's struct) or NVT_ERR_NO_MEMORY.  Reads snap
 * and criteria, writes only the outputs: thread-safe (any number of threads may select over one
 * snapshot).
 */
NVT_API nvt_status nvt_select_devices(const struct nvt_snapshot *snap, const size_t *candidates,
                                      size_t candidate_count,
                                      const struct nvt_select_criteria *criteria, size_t *out_slots,
                                      size_t *out_count, bool *prefer_uuid);

/* Why nvt_select_devices() would refuse this snapshot and criteria for what the snapshot lacks,
 * e.g. "the snapshot was taken without NVT_SAMPLE_INFO (device UUIDs)"; NULL when it has all it
 * needs. criteria may be NULL (defaults).  Static string; reads only its arguments: thread-safe. */
NVT_API const char *nvt_select_unmet(const struct nvt_snapshot *snap,
                                     const struct nvt_select_criteria *criteria);

#ifdef __cplusplus
}
#endif

#endif /* NVITOP_SELECT_H */
