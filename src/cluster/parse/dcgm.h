/*
 * NVIDIA dcgm-exporter's metrics read as ours: a body with DCGM_FI_* families is recognised by
 * its names and rewritten as the nvitop-exporter series the cluster view reads (docs/cluster.md,
 * "dcgm-exporter nodes"), so the summary, the node view and the health flags have one reader.
 * No I/O; pure and thread-safe.
 */
#ifndef NVITOP_SRC_CLUSTER_PARSE_DCGM_H
#define NVITOP_SRC_CLUSTER_PARSE_DCGM_H

#include <stdbool.h>
#include <stddef.h>

#include "cluster/parse/promtext.h"
#include "util/text/strbuf.h"

/* True for a dcgm-exporter family name ("DCGM_FI_..."; len bytes, not NUL-terminated). */
bool dcgm_is_family(const char *name, size_t len);

/* True for a family dcgm_translate() reads (DCGM_FI_DEV_GPU_UTIL, _FB_USED, ...): what a summary
 * needs to parse of a dcgm-exporter body. */
bool dcgm_is_read(const char *name, size_t len);

/* True for a DCGM "blank" value: a field without a value (DCGM_INT32_BLANK 2147483632 to
 * NOT_PERMISSIONED 2147483635, DCGM_INT64_BLANK 9223372036854775792 to 9223372036854775795, which
 * a double cannot tell from 2^63, and DCGM_FP64_BLANK 2^47 to 2^47 + 3). */
bool dcgm_blank(double v);

/*
 * When doc holds dcgm-exporter samples: appends their translation to out (Prometheus text in
 * nvitop-exporter's names: nvitop_info, gpu_*; and ours: nvitop_pod_gpu_memory_MiB for the
 * Kubernetes pods, nvitop_health_flags (node.h's NODE_FLAG_*), nvitop_xid_last and
 * nvitop_ecc_uncorrected_volatile per device) and
 * returns true; a blank value is written NaN.  False, out untouched, when doc has no
 * DCGM_FI_* sample with a gpu label.  Allocation failure aborts (program code).
 */
bool dcgm_translate(const struct prom_doc *doc, struct strbuf *out);

/* The same translation as a parsed document, built directly (*out, free with prom_doc_free();
 * its strings are its own, doc may be freed first): what prom_parse() of dcgm_translate()'s text
 * gives, sample for sample, without writing the text and parsing it again.  False, *out empty,
 * when doc has no DCGM_FI_* sample with a gpu label. */
bool dcgm_translate_doc(const struct prom_doc *doc, struct prom_doc *out);

#endif /* NVITOP_SRC_CLUSTER_PARSE_DCGM_H */
