/*
 * Parsing and printing replay times (when.h).
 */
#include "record/when.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "util/text/parse.h"

/* Parse "HH:MM[:SS]" at p; returns the end or NULL. */
static const char *parse_clock(const char *p, int *h, int *m, int *s) {
    int n = 0;
    *s = 0;
    if (sscanf(p, "%2d:%2d%n", h, m, &n) != 2 || n != 5) {
        return NULL;
    }
    p += n;
    if (*p == ':') {
        int k = 0;
        if (sscanf(p, ":%2d%n", s, &k) != 1 || k != 3) {
            return NULL;
        }
        p += k;
    }
    if (*h > 23 || *m > 59 || *s > 60 || *h < 0 || *m < 0 || *s < 0) {
        return NULL;
    }
    return p;
}

static double local_time(int year, int mon, int day, int h, int m, int s) {
    struct tm tm = {0};
    tm.tm_year = year - 1900;
    tm.tm_mon = mon - 1;
    tm.tm_mday = day;
    tm.tm_hour = h;
    tm.tm_min = m;
    tm.tm_sec = s;
    tm.tm_isdst = -1;
    return (double)mktime(&tm);
}

/* HH:MM[:SS] on each local day from last's back to first's: the latest one within the range.
 * Days are counted on the calendar (mktime normalises the day of the month), not in steps of
 * 86,400 s: a DST day has 23 or 25 hours. */
static double clock_in_range(int h, int m, int s, double first, double last) {
    double best = NAN;
    time_t end = (time_t)last;
    struct tm tm;
    if (localtime_r(&end, &tm) == NULL) {
        return best;
    }
    for (int i = 0; i < 400; i++) { /* at most 400 days back */
        double t = local_time(tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday - i, h, m, s);
        if (t <= last + 60) {
            if (isnan(best)) {
                best = t; /* the latest one not after the end, even before the start */
            }
            if (t >= first) {
                return t;
            }
        }
        if (t < first - 2 * 86400.0) {
            break;
        }
    }
    return best;
}

/* The first HH:MM[:SS] at or after after, on after's local day or the ones following it (by the
 * calendar: a DST day has 23 or 25 hours). */
static double clock_after(int h, int m, int s, double after) {
    time_t start = (time_t)floor(after);
    struct tm tm;
    if (localtime_r(&start, &tm) == NULL) {
        return NAN;
    }
    for (int i = 0; i < 3; i++) {
        double t = local_time(tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday + i, h, m, s);
        if (t >= after) {
            return t;
        }
    }
    return NAN;
}

/* Is year-mon-day a day of the calendar (not February 30)? */
static bool valid_date(int year, int mon, int day) {
    static const int days[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
    return day <= days[mon - 1] + (mon == 2 && leap ? 1 : 0);
}

bool when_parse(const char *text, double first, double last, double *out, char *error,
                size_t error_size) {
    int year = 0;
    int mon = 0;
    int day = 0;
    int h = 0;
    int m = 0;
    int s = 0;
    int n = 0;
    if (text[0] == '@') {
        if (parse_double(text + 1, out) == 0 && *out >= 0 && *out < 1e11) {
            return true;
        }
    } else if (strlen(text) >= 5 && text[2] == ':') {
        const char *end = parse_clock(text, &h, &m, &s);
        if (end != NULL && *end == '\0') {
            *out = clock_in_range(h, m, s, first, last);
            return !isnan(*out);
        }
    } else if (sscanf(text, "%4d-%2d-%2d%n", &year, &mon, &day, &n) == 3 && n == 10 && mon >= 1 &&
               mon <= 12 && day >= 1 && day <= 31 && year >= 1970) {
        const char *p = text + n;
        bool utc = false;
        if (*p == 'T' || *p == ' ') {
            p = parse_clock(p + 1, &h, &m, &s);
            if (p != NULL && *p == 'Z') {
                utc = true;
                p++;
            }
        }
        if (p != NULL && *p == '\0' && !valid_date(year, mon, day)) {
            snprintf(error, error_size, "'%s' is not a time: %04d-%02d has no day %d", text, year,
                     mon, day);
            return false;
        }
        if (p != NULL && *p == '\0') {
            if (utc) {
                struct tm tm = {.tm_year = year - 1900,
                                .tm_mon = mon - 1,
                                .tm_mday = day,
                                .tm_hour = h,
                                .tm_min = m,
                                .tm_sec = s};
                *out = (double)timegm(&tm);
            } else {
                *out = local_time(year, mon, day, h, m, s);
            }
            return true;
        }
    }
    snprintf(error, error_size,
             "'%s' is not a time: expected HH:MM[:SS], YYYY-MM-DD[THH:MM[:SS]] or @SECONDS", text);
    return false;
}

bool when_parse_after(const char *text, double after, double first, double last, double *out,
                      char *error, size_t error_size) {
    int h = 0;
    int m = 0;
    int s = 0;
    const char *end = strlen(text) >= 5 && text[2] == ':' ? parse_clock(text, &h, &m, &s) : NULL;
    if (end != NULL && *end == '\0') {
        *out = clock_after(h, m, s, after);
        if (!isnan(*out)) {
            return true;
        }
    }
    return when_parse(text, first, last, out, error, error_size);
}

bool when_twice(double t, double *other) {
    time_t secs = (time_t)floor(t);
    struct tm here;
    if (localtime_r(&secs, &here) == NULL) {
        return false;
    }
    for (int sign = -1; sign <= 1; sign += 2) {
        for (int hours = 1; hours <= 2; hours++) { /* DST shifts are an hour, rarely two */
            time_t there_s = secs + sign * hours * 3600;
            struct tm there;
            if (localtime_r(&there_s, &there) != NULL && there.tm_year == here.tm_year &&
                there.tm_yday == here.tm_yday && there.tm_hour == here.tm_hour &&
                there.tm_min == here.tm_min && there.tm_sec == here.tm_sec) {
                *other = t + (double)(sign * hours * 3600);
                return true;
            }
        }
    }
    return false;
}

void when_format(double t, char *out, size_t size) {
    time_t secs = (time_t)floor(t);
    struct tm tm;
    if (localtime_r(&secs, &tm) == NULL || strftime(out, size, "%Y-%m-%d %H:%M:%S", &tm) == 0) {
        snprintf(out, size, "@%.0f", t);
    }
}
