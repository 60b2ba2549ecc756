/*
 * libFuzzer target for the argparse-compatible parser: the input, split at NUL bytes, is an
 * argument vector parsed against a table shaped like nvitop's and nvisel's (flags, one value,
 * '?', '*', '+', two values, an exclusive group, prefixes and a digit option).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/nvitop/cli/argparse.h"

static const struct argparse_option table[] = {
    {1, {"--once", "-1"}, ARGPARSE_FLAG, 1, NULL},
    {2, {"--monitor", "-m"}, ARGPARSE_OPTIONAL, 1, NULL},
    {3, {"--interval"}, ARGPARSE_ONE, 0, NULL},
    {4, {"--only", "-o"}, ARGPARSE_ONE_OR_MORE, 0, NULL},
    {5, {"--only-visible", "-ov"}, ARGPARSE_FLAG, 0, NULL},
    {6, {"--user", "-u"}, ARGPARSE_ZERO_OR_MORE, 0, NULL},
    {7, {"--gpu-util-thresh"}, ARGPARSE_TWO, 0, NULL},
    {8, {"--sep", "--separator", "-s"}, ARGPARSE_ONE, 2, ","},
    {9, {"--null", "-0"}, ARGPARSE_FLAG, 2, NULL},
    {0, {NULL}, ARGPARSE_FLAG, 0, NULL},
};

static bool handler(void *context, const struct argparse_option *option, const char *display,
                    char *const *values, size_t count, char *error, size_t error_size) {
    size_t *total = context;
    (void)option;
    (void)error;
    (void)error_size;
    *total += strlen(display);
    for (size_t i = 0; i < count; i++) {
        *total += strlen(values[i]);
    }
    return true;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size > 4096) {
        return 0;
    }
    char *text = malloc(size + 1);
    char **argv = calloc(size + 2, sizeof(*argv));
    if (text == NULL || argv == NULL) {
        free(text);
        free(argv);
        return 0;
    }
    memcpy(text, data, size);
    text[size] = '\0';
    int argc = 0;
    static char prog[] = "prog";
    argv[argc++] = prog;
    for (size_t start = 0; start <= size;) {
        argv[argc++] = text + start;
        start += strlen(text + start) + 1;
    }
    char error[512];
    size_t total = 0;
    (void)argparse_parse(table, argc, argv, handler, &total, error, sizeof(error));
    free(argv);
    free(text);
    return 0;
}
