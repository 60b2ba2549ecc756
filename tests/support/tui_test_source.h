/*
 * A snapshot source for the C tests of the monitor's screens: the tests hand snapshots to
 * app_set_snapshot() themselves, so take() has none; what the screens read on demand (the parent
 * map, host processes, environments) comes from a /proc-only library context of its own, as the
 * live source reads it.  Signals are accepted and counted, never sent.
 */
#ifndef NVITOP_TESTS_SUPPORT_TUI_TEST_SOURCE_H
#define NVITOP_TESTS_SUPPORT_TUI_TEST_SOURCE_H

#include <stddef.h>

#include "tui/source.h"

struct tt_source {
    struct tui_source source; /* lend &source to the app */
    nvt_context *host_ctx;    /* opened on first use */
    size_t signals_sent;      /* targets handed to send() */
};

/* Set up s (no allocation until the context is first asked for). */
void tt_source_init(struct tt_source *s);
/* Close what s opened. */
void tt_source_fini(struct tt_source *s);

#endif /* NVITOP_TESTS_SUPPORT_TUI_TEST_SOURCE_H */
