#include "proc_parse.h"

#include <ctype.h>
#include <string.h>

#include "util/array.h"
#include "util/text/parse.h"

#define NA_U64 UINT64_MAX

/* The next line after p, or NULL at the end of the text. */
static const char *next_line(const char *p) {
    const char *nl = strchr(p, '\n');
    return nl != NULL ? nl + 1 : NULL;
}

/* True when the line at p starts with word followed by a blank. */
static bool line_has_key(const char *p, const char *word, const char **rest) {
    size_t n = strlen(word);
    if (strncmp(p, word, n) != 0 || (p[n] != ' ' && p[n] != '\t')) {
        return false;
    }
    *rest = p + n;
    return true;
}

static bool parse_cpu_times(const char *p, struct proc_cpu_times *t) {
    uint64_t *fields[] = {&t->user, &t->nice,    &t->system, &t->idle,  &t->iowait,
                          &t->irq,  &t->softirq, &t->steal,  &t->guest, &t->guest_nice};
    memset(t, 0, sizeof(*t));
    size_t count = 0;
    for (; count < ARRAY_SIZE(fields); count++) {
        if (parse_u64_field(&p, fields[count]) != 0) {
            break;
        }
    }
    /* Linux has had at least user, nice, system and idle forever; newer kernels add the rest. */
    return count >= 4;
}

void proc_parse_stat(const char *text, struct proc_stat *out, struct proc_cpu_times *per_cpu,
                     uint32_t per_cpu_cap) {
    memset(out, 0, sizeof(*out));
    for (const char *p = text; p != NULL && *p != '\0'; p = next_line(p)) {
        const char *rest = NULL;
        if (line_has_key(p, "cpu", &rest)) {
            out->has_total = parse_cpu_times(rest, &out->total);
        } else if (strncmp(p, "cpu", 3) == 0 && isdigit((unsigned char)p[3])) {
            rest = p + 3;
            while (isdigit((unsigned char)*rest)) {
                rest++;
            }
            struct proc_cpu_times t;
            if (!parse_cpu_times(rest, &t) || out->cpu_count == UINT32_MAX) {
                continue;
            }
            if (out->cpu_count < per_cpu_cap) {
                per_cpu[out->cpu_count] = t;
            }
            out->cpu_count++;
        } else if (line_has_key(p, "btime", &rest)) {
            out->has_boot_time = parse_u64_field(&rest, &out->boot_time) == 0;
        }
    }
}

double proc_cpu_total(const struct proc_cpu_times *t) {
    /* Doubles, so that absurd counters cannot wrap around. */
    double sum = (double)t->user + (double)t->nice + (double)t->system + (double)t->idle +
                 (double)t->iowait + (double)t->irq + (double)t->softirq + (double)t->steal;
    /* guest and guest_nice are already counted in user and nice: adding all ten fields and
     * subtracting those two, as psutil does, leaves the first eight. */
    return sum;
}

double proc_cpu_busy(const struct proc_cpu_times *t) {
    return proc_cpu_total(t) - (double)t->idle - (double)t->iowait;
}

struct meminfo_key {
    const char *name;
    size_t offset;
};

void proc_parse_meminfo(const char *text, struct proc_meminfo *out) {
    static const struct meminfo_key keys[] = {
        {"MemTotal:", offsetof(struct proc_meminfo, mem_total)},
        {"MemFree:", offsetof(struct proc_meminfo, mem_free)},
        {"MemAvailable:", offsetof(struct proc_meminfo, mem_available)},
        {"Buffers:", offsetof(struct proc_meminfo, buffers)},
        {"Cached:", offsetof(struct proc_meminfo, cached)},
        {"SReclaimable:", offsetof(struct proc_meminfo, sreclaimable)},
        {"Active(file):", offsetof(struct proc_meminfo, active_file)},
        {"Inactive(file):", offsetof(struct proc_meminfo, inactive_file)},
        {"SwapTotal:", offsetof(struct proc_meminfo, swap_total)},
        {"SwapFree:", offsetof(struct proc_meminfo, swap_free)},
    };
    for (size_t i = 0; i < ARRAY_SIZE(keys); i++) {
        *(uint64_t *)((char *)out + keys[i].offset) = NA_U64;
    }
    for (const char *p = text; p != NULL && *p != '\0'; p = next_line(p)) {
        for (size_t i = 0; i < ARRAY_SIZE(keys); i++) {
            const char *rest = NULL;
            if (!line_has_key(p, keys[i].name, &rest)) {
                continue;
            }
            uint64_t kib = 0;
            /* The values are in KiB whatever the unit column says; too large means garbage. */
            if (parse_u64_field(&rest, &kib) == 0 && kib <= NA_U64 / 1024) {
                *(uint64_t *)((char *)out + keys[i].offset) = kib * 1024;
            }
            break;
        }
    }
}

bool proc_parse_zoneinfo_low(const char *text, uint64_t *pages) {
    uint64_t sum = 0;
    bool found = false;
    for (const char *p = text; p != NULL && *p != '\0'; p = next_line(p)) {
        while (*p == ' ' || *p == '\t') {
            p++;
        }
        const char *rest = NULL;
        uint64_t value = 0;
        if (line_has_key(p, "low", &rest) && parse_u64_field(&rest, &value) == 0 &&
            value <= NA_U64 - sum) {
            sum += value;
            found = true;
        }
    }
    *pages = sum;
    return found;
}

/* One blank-separated field into buf as a C string; false when none or too long. */
static bool take_field(const char **cursor, char *buf, size_t size) {
    const char *start = *cursor;
    while (*start == ' ' || *start == '\t') {
        start++;
    }
    const char *end = start;
    if (parse_skip_field(&end) != 0 || (size_t)(end - start) >= size) {
        return false;
    }
    memcpy(buf, start, (size_t)(end - start));
    buf[end - start] = '\0';
    *cursor = end;
    return true;
}

static bool take_double(const char **cursor, double *out) {
    char field[64];
    return take_field(cursor, field, sizeof(field)) && parse_double(field, out) == 0 && *out >= 0.0;
}

bool proc_parse_loadavg(const char *text, double load[3]) {
    const char *p = text;
    double values[3];
    for (int i = 0; i < 3; i++) {
        if (!take_double(&p, &values[i])) {
            return false;
        }
    }
    memcpy(load, values, sizeof(values));
    return true;
}

bool proc_parse_uptime(const char *text, double *uptime_s) {
    const char *p = text;
    return take_double(&p, uptime_s);
}

/* Fields of /proc/<pid>/stat after the command name, counted from 3 (state) as proc(5) does. */
enum {
    STAT_STATE = 3,
    STAT_PPID = 4,
    STAT_FLAGS = 9,
    STAT_UTIME = 14,
    STAT_STIME = 15,
    STAT_NUM_THREADS = 20,
    STAT_STARTTIME = 22,
    STAT_RSS = 24
};

bool proc_parse_pid_statm_resident(const char *text, uint64_t *resident_pages) {
    const char *p = text;
    uint64_t size_pages = 0;
    return parse_u64_field(&p, &size_pages) == 0 && parse_u64_field(&p, resident_pages) == 0;
}

bool proc_parse_pid_schedstat(const char *text, uint64_t *runtime_ns, uint64_t *slices) {
    const char *p = text;
    uint64_t run_delay_ns = 0;
    return parse_u64_field(&p, runtime_ns) == 0 && parse_u64_field(&p, &run_delay_ns) == 0 &&
           parse_u64_field(&p, slices) == 0;
}

/* One numeric field: unsigned fields may use all 64 bits, signed ones may be negative (those we
 * keep are never meaningfully negative, so a negative value reads as 0). */
static bool take_stat_number(const char **p, uint64_t *out) {
    const char *q = *p;
    while (*q == ' ') {
        q++;
    }
    if (*q != '-') {
        return parse_u64_field(p, out) == 0;
    }
    int64_t value = 0;
    if (parse_i64_field(p, &value) != 0) {
        return false;
    }
    *out = value < 0 ? 0 : (uint64_t)value;
    return true;
}

static bool parse_stat_fields(const char *p, struct proc_pid_stat *out) {
    while (*p == ' ') {
        p++;
    }
    if (*p == '\0' || *p == '\n' || *p == ' ') {
        return false;
    }
    out->state = *p++;
    for (int field = STAT_PPID; field <= STAT_RSS; field++) {
        uint64_t u = 0;
        if (!take_stat_number(&p, &u)) {
            return false;
        }
        switch (field) {
        case STAT_PPID:
            if (u > UINT32_MAX) {
                return false;
            }
            out->ppid = (uint32_t)u;
            break;
        case STAT_FLAGS:
            out->flags = u;
            break;
        case STAT_UTIME:
            out->utime_ticks = u;
            break;
        case STAT_STIME:
            out->stime_ticks = u;
            break;
        case STAT_NUM_THREADS:
            out->num_threads = u;
            break;
        case STAT_STARTTIME:
            out->start_ticks = u;
            break;
        case STAT_RSS:
            out->rss_pages = u;
            break;
        default:
            break;
        }
    }
    return true;
}

bool proc_parse_pid_stat(const char *text, struct proc_pid_stat *out) {
    memset(out, 0, sizeof(*out));
    const char *open = strchr(text, '(');
    const char *close = strrchr(text, ')');
    if (open == NULL || close == NULL || close < open) {
        return false;
    }
    size_t len = (size_t)(close - open - 1);
    if (len >= sizeof(out->comm)) {
        len = sizeof(out->comm) - 1;
    }
    memcpy(out->comm, open + 1, len);
    out->comm[len] = '\0';
    return parse_stat_fields(close + 1, out);
}

/* The value of a "VmRSS:" line's rest ("   1234 kB"), in KiB; false unless it is in kB. */
static bool parse_kib(const char *rest, uint64_t *out) {
    if (parse_u64_field(&rest, out) != 0) {
        return false;
    }
    while (*rest == ' ' || *rest == '\t') {
        rest++;
    }
    return rest[0] == 'k' && rest[1] == 'B';
}

/* The lines looked for, dispatched on their first letter (status has about fifty-five lines, in
 * the order Name, Uid, NSpid, VmRSS, Threads among them): a bit each once met. */
enum {
    STATUS_UID = 1,
    STATUS_NSPID = 2,
    STATUS_RSS = 4,
    STATUS_THREADS = 8,
    STATUS_NAME = 16,
    STATUS_ALL = 31
};

/* The rest of a "Name:" line (after its blanks) into name, cut to fit. */
static void take_status_name(const char *rest, char *name, size_t size) {
    while (*rest == ' ' || *rest == '\t') {
        rest++;
    }
    size_t len = 0;
    while (rest[len] != '\0' && rest[len] != '\n' && len + 1 < size) {
        len++;
    }
    memcpy(name, rest, len);
    name[len] = '\0';
}

/* line_has_key() for a key of known length, compared in place (status has about fifty-five lines
 * to try). */
static bool status_key(const char *p, const char *key, size_t n, const char **rest) {
    for (size_t i = 0; i < n; i++) {
        if (p[i] != key[i]) {
            return false;
        }
    }
    if (p[n] != ' ' && p[n] != '\t') {
        return false;
    }
    *rest = p + n;
    return true;
}

void proc_parse_pid_status(const char *text, struct proc_pid_status *out) {
    memset(out, 0, sizeof(*out));
    unsigned met = 0;
    for (const char *p = text; p != NULL && *p != '\0' && met != STATUS_ALL; p = next_line(p)) {
        const char *rest = NULL;
        uint64_t value = 0;
        if (*p == 'N' && status_key(p, "Name:", 5, &rest)) {
            met |= STATUS_NAME;
            out->has_name = true;
            take_status_name(rest, out->name, sizeof(out->name));
        } else if (*p == 'U' && status_key(p, "Uid:", 4, &rest)) {
            met |= STATUS_UID;
            out->has_uid = parse_u64_field(&rest, &value) == 0 && value <= UINT32_MAX;
            out->uid = out->has_uid ? (uint32_t)value : 0;
            uint64_t effective = 0;
            uint64_t saved = 0;
            out->has_uid_all = out->has_uid && parse_u64_field(&rest, &effective) == 0 &&
                               parse_u64_field(&rest, &saved) == 0 && effective <= UINT32_MAX &&
                               saved <= UINT32_MAX;
            out->uid_effective = out->has_uid_all ? (uint32_t)effective : 0;
            out->uid_saved = out->has_uid_all ? (uint32_t)saved : 0;
        } else if (*p == 'T' && status_key(p, "Threads:", 8, &rest)) {
            met |= STATUS_THREADS;
            out->has_threads = parse_u64_field(&rest, &value) == 0 && value <= UINT32_MAX;
            out->threads = out->has_threads ? (uint32_t)value : 0;
        } else if (*p == 'N' && status_key(p, "NSpid:", 6, &rest)) {
            met |= STATUS_NSPID;
            out->nspid_count = 0;
            while (parse_u64_field(&rest, &value) == 0 && out->nspid_count < UINT32_MAX) {
                out->nspid_count++;
            }
        } else if (*p == 'V' && status_key(p, "VmRSS:", 6, &rest)) {
            met |= STATUS_RSS;
            out->has_rss = parse_kib(rest, &out->rss_kib);
            out->rss_kib = out->has_rss ? out->rss_kib : 0;
        }
    }
}

/* Number of pieces of data[0, end) separated by sep. */
static size_t count_pieces(const char *data, size_t end, char sep) {
    size_t count = 1;
    for (size_t i = 0; i < end; i++) {
        count += data[i] == sep;
    }
    return count;
}

/* Terminate the first cap pieces of data[0, end) and record them in argv. */
static void split_pieces(char *data, size_t end, char sep, char **argv, size_t cap) {
    size_t count = 0;
    size_t start = 0;
    for (size_t i = 0; i <= end && count < cap; i++) {
        if (i < end && data[i] != sep) {
            continue;
        }
        data[i] = '\0';
        argv[count++] = data + start;
        start = i + 1;
    }
}

/* Number of leading pieces left after dropping trailing empty ones. */
static size_t without_trailing_empty(const char *data, size_t end, char sep, size_t count) {
    size_t i = end;
    while (count > 0) {
        /* The last piece is empty when the byte before its end is a separator or nothing. */
        if (i > 0 && data[i - 1] != sep) {
            break;
        }
        if (i == 0) {
            return 0;
        }
        count--;
        i--;
    }
    return count;
}

/* psutil's choice of separator and the end of the data without its final separator. */
static char cmdline_separator(const char *data, size_t len, size_t *end) {
    char sep = data[len - 1] == '\0' ? '\0' : ' ';
    *end = data[len - 1] == sep ? len - 1 : len;
    if (sep == '\0' && memchr(data, '\0', *end) == NULL && memchr(data, ' ', *end) != NULL) {
        sep = ' ';
    }
    return sep;
}

size_t proc_count_cmdline(const char *data, size_t len) {
    if (len == 0) {
        return 0;
    }
    size_t end = 0;
    char sep = cmdline_separator(data, len, &end);
    return without_trailing_empty(data, end, sep, count_pieces(data, end, sep));
}

size_t proc_split_cmdline(char *data, size_t len, char **argv, size_t cap) {
    size_t count = proc_count_cmdline(data, len);
    if (count == 0) {
        return 0;
    }
    size_t end = 0;
    char sep = cmdline_separator(data, len, &end);
    split_pieces(data, end, sep, argv, cap < count ? cap : count);
    return count;
}
