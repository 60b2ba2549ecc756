/*
 * Trailing messages and start-up failures, with termcolor's escape sequences when colour is on.
 */
#include "cmd/nvitop/output/messages.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <nvitop/nvitop.h>

#include "util/text/strbuf.h"
#include "util/text/term_text.h"
#include "util/xalloc.h"

#define BOLD  "\033[1m"
#define RESET "\033[0m"

void messages_init(struct messages *messages, bool color) {
    memset(messages, 0, sizeof(*messages));
    messages->color = color;
}

void messages_fini(struct messages *messages) {
    for (size_t i = 0; i < messages->count; i++) {
        free(messages->items[i]);
    }
    free(messages->items);
    memset(messages, 0, sizeof(*messages));
}

void messages_addf(struct messages *messages, const char *fmt, ...) {
    struct strbuf text = STRBUF_INIT;
    va_list ap;
    va_start(ap, fmt);
    bool ok = strbuf_vappendf(&text, fmt, ap);
    va_end(ap);
    char *item = ok ? strbuf_detach(&text) : NULL;
    strbuf_fini(&text);
    if (item == NULL) {
        item = xstrdup("ERROR: out of memory");
    }
    messages->items = xrealloc(messages->items, (messages->count + 1) * sizeof(char *));
    messages->items[messages->count++] = item;
}

static int compare_ll(const void *a, const void *b) {
    long long x = *(const long long *)a;
    long long y = *(const long long *)b;
    return (x > y) - (x < y);
}

void messages_invalid_indices(struct messages *messages, const long long *indices, size_t count) {
    if (count == 0) {
        return;
    }
    long long *sorted = xcalloc(count, sizeof(*sorted));
    memcpy(sorted, indices, count * sizeof(*sorted));
    qsort(sorted, count, sizeof(*sorted), compare_ll);
    size_t unique = 0;
    for (size_t i = 0; i < count; i++) {
        if (unique == 0 || sorted[unique - 1] != sorted[i]) {
            sorted[unique++] = sorted[i];
        }
    }
    if (unique == 1) {
        messages_addf(messages, "ERROR: Invalid device index: %lld.", sorted[0]);
    } else {
        struct strbuf list = STRBUF_INIT;
        for (size_t i = 0; i < unique; i++) {
            (void)strbuf_appendf(&list, "%s%lld", i > 0 ? ", " : "", sorted[i]);
        }
        messages_addf(messages, "ERROR: Invalid device indices: [%s].", strbuf_cstr(&list));
        strbuf_fini(&list);
    }
    free(sorted);
}

void messages_add_missing_functions(struct messages *messages, const nvt_context *ctx) {
    const char *names[64];
    size_t total = nvt_missing_functions(ctx, names, 64);
    if (total == 0) {
        return;
    }
    struct strbuf text = STRBUF_INIT;
    (void)strbuf_append_str(
        &text, total > 1 ? "ERROR: Some FunctionNotFound errors occurred while calling:"
                         : "ERROR: A FunctionNotFound error occurred while calling:");
    for (size_t i = 0; i < total && i < 64; i++) {
        (void)strbuf_appendf(&text, "\n    nvmlQuery('%s', *args, **kwargs)", names[i]);
    }
    (void)strbuf_append_str(&text, "\nThe NVIDIA driver's libnvidia-ml.so.1 lacks these "
                                   "functions; the fields they provide are shown as N/A.\n"
                                   "Please update the NVIDIA driver to get them.");
    messages_addf(messages, "%s", strbuf_cstr(&text));
    strbuf_fini(&text);
}

/* A message line by line, each shown as plain characters (term_text.h): messages quote process
 * names, paths and libraries' reasons. */
static void print_clean(const char *text) {
    while (*text != '\0') {
        size_t len = strcspn(text, "\n");
        char *clean = xmalloc(len + 1);
        term_text_clean(text, len, clean);
        fputs(clean, stderr);
        free(clean);
        text += len;
        if (*text == '\n') {
            fputc('\n', stderr);
            text++;
        }
    }
}

bool messages_print(const struct messages *messages) {
    static const struct {
        const char *tag;
        const char *color;
    } tags[] = {{"ERROR:", "\033[31m"}, {"WARNING:", "\033[33m"}, {"HINT:", "\033[32m"}};
    for (size_t i = 0; i < messages->count; i++) {
        const char *message = messages->items[i];
        for (size_t t = 0; t < 3 && messages->color; t++) {
            size_t len = strlen(tags[t].tag);
            if (strncmp(message, tags[t].tag, len) == 0) {
                fprintf(stderr, BOLD "%s%s" RESET, tags[t].color, tags[t].tag);
                message += len;
                break;
            }
        }
        print_clean(message);
        fputc('\n', stderr);
    }
    return messages->count > 0;
}

void messages_print_nvml_not_found(bool color) {
    const char *fatal = color ? BOLD "\033[31mFATAL ERROR:" RESET : "FATAL ERROR:";
    const char *hint = color ? BOLD "\033[33mHINT:" RESET : "HINT:";
    const char *ul = color ? "\033[4m" : "";
    const char *end = color ? RESET : "";
    fprintf(
        stderr,
        "%s NVIDIA Management Library (NVML) not found.\n"
        "%s The NVIDIA Management Library ships with the NVIDIA display driver (available at\n"
        "      %shttps://www.nvidia.com/Download/index.aspx%s), or can be downloaded as part "
        "of the\n"
        "      NVIDIA CUDA Toolkit (available at %shttps://developer.nvidia.com/cuda-downloads%s)."
        "\n"
        "      The lists of OS platforms and NVIDIA-GPUs supported by the NVML library can be\n"
        "      found in the NVML API Reference at %shttps://docs.nvidia.com/deploy/nvml-api%s.\n",
        fatal, hint, ul, end, ul, end, ul, end);
}

/* NVITOP_NVML_LIBRARY set and not empty (an empty one is ignored, as by the library). */
static bool nvml_library_named(void) {
    const char *named = getenv(NVT_ENV_NVML_LIBRARY);
    return named != NULL && named[0] != '\0';
}

void messages_print_nvml_library_error(bool color) {
    /* Only for a library named by the environment (nvitop has no such variable): which one
     * failed, and why. */
    char why[1024];
    if (nvml_library_named() && nvt_nvml_library_error(NULL, why, sizeof(why)) > 0) {
        fprintf(stderr, "%s %s\n", color ? BOLD "\033[31mERROR:" RESET : "ERROR:", why);
    }
}

void messages_print_nvml_error(bool color, const char *message) {
    fprintf(stderr, "%s ", color ? BOLD "\033[31mNVML ERROR:" RESET : "NVML ERROR:");
    print_clean(message);
    fputc('\n', stderr);
}
