/*
 * The exposition in OpenMetrics 1.0.0, for a scrape whose Accept header asks for it (Prometheus
 * does by default), as prometheus_client writes it for nvitop-exporter 1.7: every gauge family
 * gets its unit (# UNIT, the name's last word: MiB, Percentage, ...), the info families are typed
 * info under their base name (nvitop, process_info; samples stay nvitop_info, process_info_info),
 * a double quote in a HELP text is escaped, and the text ends with "# EOF".  Made from the text
 * format that render_metrics() wrote, so both formats always hold the same samples.
 */
#ifndef NVITOP_SRC_CMD_NVITOP_EXPORTER_OPENMETRICS_H
#define NVITOP_SRC_CMD_NVITOP_EXPORTER_OPENMETRICS_H

#include <stdbool.h>
#include <stddef.h>

#define OPENMETRICS_CONTENT_TYPE "application/openmetrics-text; version=1.0.0; charset=utf-8"

/* True when one of the comma-separated media types of an Accept header (NULL: none) is
 * application/openmetrics-text, parameters ignored: prometheus_client's choice. */
bool openmetrics_accepted(const char *accept);

/* The OpenMetrics form of a text exposition (len bytes).  Returns a malloc'd NUL-terminated text
 * and its length in *out_len, or NULL when out of memory.  Thread-safe (pure). */
char *openmetrics_from_text(const char *text, size_t len, size_t *out_len);

#endif /* NVITOP_SRC_CMD_NVITOP_EXPORTER_OPENMETRICS_H */
