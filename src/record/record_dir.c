/*
 * Daily recording files with rotation and retention (record_dir.h).
 */
#include "record/record_dir.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "util/text/strbuf.h"
#include "util/xalloc.h"

#define PREFIX "nvitop-"
#define SUFFIX ".nvtrec"

struct rec_dir {
    char *dir;
    struct rec_writer_options options;
    struct rec_dir_limits limits;
    struct rec_writer *writer;
    char day[16];  /* YYYY-MM-DD of the current file */
    unsigned part; /* NNN of the current file */
    char *current; /* its name */
    unsigned appends;
};

struct name_list {
    char **names;
    size_t count;
};

static int compare_names(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Our files only: nvitop-YYYY-MM-DD-NNN.nvtrec with digits where the pattern has them, a month
 * 01-12 and a day 01-31 (a look-alike name is neither counted as a day nor removed). */
static bool is_ours(const char *name) {
    static const char pattern[] = PREFIX "0000-00-00-000" SUFFIX;
    if (strlen(name) != strlen(pattern)) {
        return false;
    }
    for (size_t i = 0; pattern[i] != '\0'; i++) {
        bool digit = pattern[i] == '0' && i >= strlen(PREFIX);
        if (digit ? (name[i] < '0' || name[i] > '9') : name[i] != pattern[i]) {
            return false;
        }
    }
    int mon = (name[12] - '0') * 10 + (name[13] - '0');
    int day = (name[15] - '0') * 10 + (name[16] - '0');
    return mon >= 1 && mon <= 12 && day >= 1 && day <= 31;
}

static void list_files(const char *dir, struct name_list *list) {
    list->names = NULL;
    list->count = 0;
    DIR *d = opendir(dir);
    if (d == NULL) {
        return;
    }
    size_t cap = 0;
    struct dirent *ent;
    while ((ent = readdir(d)) != NULL) {
        if (!is_ours(ent->d_name)) {
            continue;
        }
        if (list->count == cap) {
            cap = cap == 0 ? 16 : cap * 2;
            list->names = xrealloc(list->names, cap * sizeof(*list->names));
        }
        list->names[list->count++] = xstrdup(ent->d_name);
    }
    closedir(d);
    if (list->count > 0) {
        qsort(list->names, list->count, sizeof(*list->names), compare_names);
    }
}

static void free_list(struct name_list *list) {
    for (size_t i = 0; i < list->count; i++) {
        free(list->names[i]);
    }
    free(list->names);
}

static unsigned long long file_size(const char *dir, const char *name) {
    struct strbuf path = STRBUF_INIT;
    strbuf_appendf(&path, "%s/%s", dir, name);
    struct stat st;
    unsigned long long size =
        stat(strbuf_cstr(&path), &st) == 0 ? (unsigned long long)st.st_size : 0;
    strbuf_fini(&path);
    return size;
}

/* The day a file is aged by: its name's, or the day it was last written (its last frame) when
 * that is later, as long as that is not after today: a file named by a clock that was wrong when
 * it was created is not removed for its name alone. */
static void file_day(const char *dir, const char *name, const char *today, char out[16]) {
    memcpy(out, name + 7, 10);
    out[10] = '\0';
    struct strbuf path = STRBUF_INIT;
    strbuf_appendf(&path, "%s/%s", dir, name);
    struct stat st;
    struct tm tm;
    char written[16];
    if (stat(strbuf_cstr(&path), &st) == 0 && gmtime_r(&st.st_mtime, &tm) != NULL &&
        strftime(written, sizeof(written), "%Y-%m-%d", &tm) == 10 && strcmp(written, out) > 0 &&
        strcmp(written, today) <= 0) {
        memcpy(out, written, 11);
    }
    strbuf_fini(&path);
}

/* The order to remove count files in, given the day each is aged by (file_day): the oldest day
 * first, by name within a day (a file named by a wrong clock but written today goes with today's
 * files, not first). */
struct age_order {
    const char (*days)[16];
};

static int compare_age(const void *a, const void *b, void *arg) {
    const struct age_order *o = arg;
    size_t i = *(const size_t *)a;
    size_t j = *(const size_t *)b;
    int c = strcmp(o->days[i], o->days[j]);
    return c != 0 ? c : (i > j) - (i < j);
}

static size_t *by_age(size_t count, const char (*days)[16]) {
    size_t *order = xcalloc(count + 1, sizeof(*order));
    for (size_t i = 0; i < count; i++) {
        order[i] = i;
    }
    struct age_order o = {days};
    qsort_r(order, count, sizeof(*order), compare_age, &o);
    return order;
}

/* Remove the oldest files beyond the limits, never the current one.  Days are counted among the
 * files of today and before (today: the day of the frame being recorded); a file dated after
 * today (named by a clock that was ahead) is kept and does not count as the newest day. */
static void apply_retention(struct rec_dir *d) {
    struct name_list list;
    list_files(d->dir, &list);
    unsigned long long total = 0;
    char(*days)[16] = xcalloc(list.count + 1, sizeof(*days));
    for (size_t i = 0; i < list.count; i++) {
        /* The file being written has room reserved past its end (writer.h): count its records. */
        bool current = d->current != NULL && strcmp(list.names[i], d->current) == 0;
        total += current && d->writer != NULL ? rec_writer_size(d->writer)
                                              : file_size(d->dir, list.names[i]);
        file_day(d->dir, list.names[i], d->day, days[i]);
    }
    /* The oldest day kept: the retain_days-th distinct day, newest first, of today and before. */
    char oldest[16] = "";
    if (d->limits.retain_days != 0) {
        size_t distinct = 0;
        char seen[16] = "";
        for (size_t pass = 0; pass < list.count && distinct < d->limits.retain_days; pass++) {
            /* the newest day before seen (the days are few: a quadratic walk is fine) */
            char best[16] = "";
            for (size_t i = 0; i < list.count; i++) {
                if (strcmp(days[i], d->day) <= 0 &&
                    (seen[0] == '\0' || strcmp(days[i], seen) < 0) && strcmp(days[i], best) > 0) {
                    memcpy(best, days[i], sizeof(best));
                }
            }
            if (best[0] == '\0') {
                break;
            }
            memcpy(seen, best, sizeof(seen));
            distinct++;
        }
        if (distinct == d->limits.retain_days) {
            memcpy(oldest, seen, sizeof(oldest));
        }
    }
    size_t *order = by_age(list.count, (const char(*)[16])days);
    for (size_t k = 0; k < list.count; k++) {
        size_t i = order[k];
        const char *name = list.names[i];
        bool too_old = oldest[0] != '\0' && strcmp(days[i], oldest) < 0;
        bool too_big = d->limits.retain_bytes != 0 && total > d->limits.retain_bytes;
        if ((!too_old && !too_big) || strcmp(name, d->current) == 0) {
            continue;
        }
        unsigned long long size = file_size(d->dir, name);
        struct strbuf path = STRBUF_INIT;
        strbuf_appendf(&path, "%s/%s", d->dir, name);
        if (unlink(strbuf_cstr(&path)) == 0) {
            total -= size;
        }
        strbuf_fini(&path);
    }
    free(order);
    free(days);
    free_list(&list);
}

/* A full disk under a byte limit: remove the oldest file that retention would remove first (of
 * today or before, never the current one), so that recording goes on.  False when there is none. */
static bool free_room(struct rec_dir *d) {
    struct name_list list;
    list_files(d->dir, &list);
    char(*days)[16] = xcalloc(list.count + 1, sizeof(*days));
    for (size_t i = 0; i < list.count; i++) {
        file_day(d->dir, list.names[i], d->day, days[i]);
    }
    size_t *order = by_age(list.count, (const char(*)[16])days);
    bool removed = false;
    for (size_t k = 0; k < list.count && !removed; k++) {
        const char *name = list.names[order[k]];
        if ((d->current != NULL && strcmp(name, d->current) == 0) ||
            strcmp(days[order[k]], d->day) > 0) {
            continue;
        }
        unsigned long long size = file_size(d->dir, name);
        struct strbuf path = STRBUF_INIT;
        strbuf_appendf(&path, "%s/%s", d->dir, name);
        removed = unlink(strbuf_cstr(&path)) == 0;
        if (removed && d->options.note != NULL) {
            struct strbuf text = STRBUF_INIT;
            strbuf_appendf(&text,
                           "the disk is full: removed %s (%llu bytes, the oldest file) to make "
                           "room (--retain-bytes)",
                           strbuf_cstr(&path), size);
            d->options.note(d->options.note_arg, strbuf_cstr(&text));
            strbuf_fini(&text);
        }
        strbuf_fini(&path);
    }
    free(order);
    free(days);
    free_list(&list);
    return removed;
}

static bool open_file(struct rec_dir *d, char *error, size_t error_size) {
    rec_writer_close(d->writer);
    d->writer = NULL;
    struct strbuf path = STRBUF_INIT;
    for (;;) {
        free(d->current);
        struct strbuf name = STRBUF_INIT;
        strbuf_appendf(&name, PREFIX "%s-%03u" SUFFIX, d->day, d->part);
        d->current = strbuf_detach(&name);
        strbuf_clear(&path);
        strbuf_appendf(&path, "%s/%s", d->dir, d->current);
        /* Today's file from before an upgrade (an older format), or something else with its
         * name (a directory, another program's file): continue in the next part. */
        if (d->part >= 999 || (!rec_writer_is_older(strbuf_cstr(&path)) &&
                               !rec_writer_is_foreign(strbuf_cstr(&path)))) {
            break;
        }
        d->part++;
    }
    d->writer = rec_writer_open(strbuf_cstr(&path), &d->options, error, error_size);
    strbuf_fini(&path);
    if (d->writer != NULL) {
        apply_retention(d);
    }
    return d->writer != NULL;
}

/* The day of t, and today's last part number on disk (a restart appends to it). */
static void day_of(double t, char out[16]) {
    time_t secs = (time_t)t;
    struct tm tm;
    if (gmtime_r(&secs, &tm) == NULL || strftime(out, 16, "%Y-%m-%d", &tm) == 0) {
        snprintf(out, 16, "0000-00-00");
    }
}

static unsigned last_part(const char *dir, const char *day) {
    struct name_list list;
    list_files(dir, &list);
    unsigned part = 0;
    for (size_t i = 0; i < list.count; i++) {
        if (strncmp(list.names[i] + 7, day, 10) == 0) {
            part = (unsigned)strtoul(list.names[i] + 18, NULL, 10);
        }
    }
    free_list(&list);
    return part;
}

/* The mode of a directory holding files of mode file_mode: each read bit with its search bit. */
static mode_t dir_mode(unsigned file_mode) {
    mode_t mode = (mode_t)(file_mode | 0700);
    mode |= (mode & 0040) != 0 ? 0010 : 0;
    mode |= (mode & 0004) != 0 ? 0001 : 0;
    return mode & 0777;
}

/* mkdir -p: the missing parents (mode 0755 less the umask, as mkdir -p), then dir itself with
 * mode, set whatever the umask.  True when dir exists afterwards (created or not). */
static bool make_dirs(const char *dir, mode_t mode, char *error, size_t error_size) {
    char *path = xstrdup(dir);
    for (char *slash = strchr(path + 1, '/'); slash != NULL; slash = strchr(slash + 1, '/')) {
        *slash = '\0';
        if (mkdir(path, 0755) != 0 && errno != EEXIST) {
            snprintf(error, error_size, "cannot create %s: %s", path, strerror(errno));
            free(path);
            return false;
        }
        *slash = '/';
    }
    free(path);
    if (mkdir(dir, mode) == 0) {
        if (chmod(dir, mode) != 0) {
            snprintf(error, error_size, "cannot set the permissions of %s: %s", dir,
                     strerror(errno));
            return false;
        }
    } else if (errno != EEXIST) {
        snprintf(error, error_size, "cannot create %s: %s", dir, strerror(errno));
        return false;
    }
    return true;
}

struct rec_dir *rec_dir_open(const char *dir, const struct rec_writer_options *options,
                             const struct rec_dir_limits *limits, char *error, size_t error_size) {
    if (!make_dirs(dir, dir_mode(options->mode != 0 ? options->mode : 0600), error, error_size)) {
        return NULL;
    }
    struct stat st;
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
        snprintf(error, error_size, "%s is not a directory", dir);
        return NULL;
    }
    struct rec_dir *d = xcalloc(1, sizeof(*d));
    d->dir = xstrdup(dir);
    d->options = *options;
    d->limits = *limits;
    return d;
}

bool rec_dir_append(struct rec_dir *d, const struct nvt_snapshot *snap,
                    const struct nvt_host_process *related, size_t related_count, char *error,
                    size_t error_size) {
    char day[16];
    day_of(snap->timestamp, day);
    bool new_day = strcmp(day, d->day) != 0;
    if (new_day) {
        memcpy(d->day, day, sizeof(day));
        d->part = last_part(d->dir, day);
    }
    bool full = d->writer != NULL && d->limits.retain_bytes != 0 &&
                rec_writer_size(d->writer) >= d->limits.retain_bytes / 4 && d->part < 999;
    if (full) {
        d->part++;
    }
    bool ok = (d->writer != NULL && !new_day && !full) || open_file(d, error, error_size);
    if (ok && ++d->appends % 60 == 0) {
        apply_retention(d);
    }
    ok = ok && rec_writer_append(d->writer, snap, related, related_count, error, error_size);
    /* A full disk under a byte limit: the oldest files go first, one at a time, before the
     * recorder pauses (the writer starts a new segment after a failed frame). */
    while (!ok && d->limits.retain_bytes != 0 && rec_disk_full(errno)) {
        int saved = errno;
        bool freed = free_room(d);
        errno = saved;
        if (!freed) {
            break;
        }
        ok = (d->writer != NULL || open_file(d, error, error_size)) &&
             rec_writer_append(d->writer, snap, related, related_count, error, error_size);
    }
    return ok;
}

void rec_dir_close(struct rec_dir *d) {
    if (d == NULL) {
        return;
    }
    rec_writer_close(d->writer);
    free(d->current);
    free(d->dir);
    free(d);
}
