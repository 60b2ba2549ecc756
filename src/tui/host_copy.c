/*
 * Copies of host processes (host_copy.h).
 */
#include "tui/host_copy.h"

#include <stdalign.h>
#include <stddef.h>
#include <string.h>

#include "util/xalloc.h"

static size_t text_size(const char *text) {
    return text != NULL ? strlen(text) + 1 : 0;
}

static const char *put_text(char **at, const char *text) {
    if (text == NULL) {
        return NULL;
    }
    size_t n = strlen(text) + 1;
    memcpy(*at, text, n);
    const char *copy = *at;
    *at += n;
    return copy;
}

struct nvt_host_process *tui_host_copy(const struct nvt_host_process *host) {
    size_t head = sizeof(*host);
    head = (head + alignof(max_align_t) - 1) / alignof(max_align_t) * alignof(max_align_t);
    size_t args = host->cmdline != NULL ? (host->cmdline_count + 1) * sizeof(char *) : 0;
    size_t strings = text_size(host->user) + text_size(host->name) + text_size(host->command);
    for (size_t i = 0; host->cmdline != NULL && i < host->cmdline_count; i++) {
        strings += text_size(host->cmdline[i]);
    }
    char *block = xmalloc(head + args + strings);
    struct nvt_host_process *copy = (struct nvt_host_process *)(void *)block;
    *copy = *host;
    const char **argv = (const char **)(void *)(block + head);
    char *at = block + head + args;
    copy->user = put_text(&at, host->user);
    copy->name = put_text(&at, host->name);
    copy->command = put_text(&at, host->command);
    if (host->cmdline != NULL) {
        for (size_t i = 0; i < host->cmdline_count; i++) {
            argv[i] = put_text(&at, host->cmdline[i]);
        }
        argv[host->cmdline_count] = NULL;
        copy->cmdline = argv;
    }
    return copy;
}
