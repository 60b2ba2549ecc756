/*
 * The host tests link the host objects without the rest of libnvitop, so they stand in for the
 * context: an nvt_context pointer handed to the public process functions is really a host_ctx.
 */
#include "internal.h"

struct host_ctx *context_host(nvt_context *ctx) {
    return (struct host_ctx *)ctx;
}
