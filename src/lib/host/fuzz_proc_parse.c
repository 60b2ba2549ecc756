/*
 * libFuzzer target for the proc text parsers: the first byte chooses the parser, the rest is the
 * file's text.  Whatever the bytes, the parsers must neither crash nor read out of bounds, and a
 * split command line must agree with its count.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "proc_parse.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void split_cmdline(char *text, size_t len) {
    size_t count = proc_count_cmdline(text, len);
    char **argv = malloc((count + 1) * sizeof(char *));
    if (argv == NULL) {
        return;
    }
    if (proc_split_cmdline(text, len, argv, count) != count) {
        abort();
    }
    for (size_t i = 0; i < count; i++) {
        if (argv[i] < text || argv[i] > text + len) {
            abort();
        }
    }
    free(argv);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size == 0) {
        return 0;
    }
    char *text = malloc(size);
    if (text == NULL) {
        return 0;
    }
    /* The text after the selector byte, NUL-terminated (cmdline data may hold NULs). */
    size_t len = size - 1;
    memcpy(text, data + 1, len);
    text[len] = '\0';
    struct proc_cpu_times per_cpu[4];
    struct proc_stat stat;
    struct proc_meminfo meminfo;
    struct proc_pid_stat pid_stat;
    struct proc_pid_status pid_status;
    double load[3];
    double uptime = 0.0;
    uint64_t pages = 0;
    switch (data[0] % 8) {
    case 0:
        proc_parse_stat(text, &stat, per_cpu, 4);
        break;
    case 1:
        proc_parse_meminfo(text, &meminfo);
        break;
    case 2:
        proc_parse_loadavg(text, load);
        proc_parse_uptime(text, &uptime);
        break;
    case 3:
        proc_parse_pid_stat(text, &pid_stat);
        break;
    case 4:
        proc_parse_pid_status(text, &pid_status);
        break;
    case 5:
        proc_parse_zoneinfo_low(text, &pages);
        break;
    case 6:
        proc_parse_pid_statm_resident(text, &pages);
        proc_parse_pid_schedstat(text, &pages, &pages);
        break;
    default:
        split_cmdline(text, len);
        break;
    }
    free(text);
    return 0;
}
