#include "bench_nvt.h"

#include <stdio.h>

nvt_context *bench_open(const char *program) {
    nvt_context *ctx = NULL;
    nvt_status status = nvt_open(NULL, &ctx);
    if (status != NVT_OK) {
        fprintf(stderr, "%s: %s\n", program, nvt_strerror(status));
        return NULL;
    }
    return ctx;
}
