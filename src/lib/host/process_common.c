/*
 * The public process reads every host back-end shares (include/nvitop/process.h): one
 * host_process_read() packed into one allocation for the caller.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <nvitop/process.h>

#include "host.h"
#include "internal.h"

static size_t string_size(const char *text) {
    return strlen(text) + 1;
}

static char *copy_string(char **cursor, const char *text) {
    char *start = *cursor;
    size_t size = string_size(text);
    memcpy(start, text, size);
    *cursor += size;
    return start;
}

/* Copy a host_process into one allocation holding the struct, the argv array and the strings. */
static struct nvt_host_process *pack_process(const struct host_process *hp) {
    size_t argc = hp->pub.cmdline_count;
    size_t size = sizeof(struct nvt_host_process) + (argc + 1) * sizeof(char *);
    size += string_size(hp->pub.user) + string_size(hp->pub.name) + string_size(hp->pub.command);
    for (size_t i = 0; i < argc; i++) {
        size += string_size(hp->pub.cmdline[i]);
    }
    struct nvt_host_process *p = malloc(size);
    if (p == NULL) {
        return NULL;
    }
    *p = hp->pub;
    const char **argv = (const char **)(p + 1);
    char *cursor = (char *)(argv + argc + 1);
    p->user = copy_string(&cursor, hp->pub.user);
    p->name = copy_string(&cursor, hp->pub.name);
    p->command = copy_string(&cursor, hp->pub.command);
    for (size_t i = 0; i < argc; i++) {
        argv[i] = copy_string(&cursor, hp->pub.cmdline[i]);
    }
    argv[argc] = NULL;
    p->cmdline = argv;
    return p;
}

nvt_status nvt_host_process_read(nvt_context *ctx, uint32_t pid, struct nvt_host_process **out) {
    if (ctx == NULL || out == NULL) {
        return NVT_ERR_INVALID_ARGUMENT;
    }
    *out = NULL;
    struct host_process hp;
    nvt_status st = host_process_read(context_host(ctx), pid, &hp);
    if (st != NVT_OK) {
        return st;
    }
    if (hp.pub.status == NVT_HOST_GONE || hp.pub.status == NVT_HOST_NOT_IN_NAMESPACE) {
        host_process_fini(&hp);
        return NVT_ERR_NO_SUCH_PROCESS;
    }
    /* The public call promises a measured percentage or N/A, never the first reading's 0.0. */
    if (hp.cpu_percent_first) {
        hp.pub.cpu_percent = NAN;
    }
    *out = pack_process(&hp);
    host_process_fini(&hp);
    return *out != NULL ? NVT_OK : NVT_ERR_NO_MEMORY;
}

void nvt_host_process_free(struct nvt_host_process *process) {
    free(process);
}

void nvt_host_process_pass_end(nvt_context *ctx) {
    if (ctx != NULL) {
        host_generation_end(context_host(ctx));
    }
}
