/*
 * Private types of libnvitop shared between its source files.  Only src/lib/ includes this.
 */
#ifndef NVITOP_SRC_LIB_INTERNAL_H
#define NVITOP_SRC_LIB_INTERNAL_H

#include <nvitop/context.h>

struct host_ctx;

/* The host back-end of a context (never NULL for an open context). */
struct host_ctx *context_host(nvt_context *ctx);

#endif /* NVITOP_SRC_LIB_INTERNAL_H */
