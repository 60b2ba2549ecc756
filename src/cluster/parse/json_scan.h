/*
 * A strict JSON scanner without a tree, for reading large answers once (Prometheus's API):
 * the caller walks objects and arrays member by member, reads the values it wants and skips the
 * rest, which is still checked.  Strings are decoded in place in the caller's text (which must be
 * writable and NUL-terminated at `end`).  The first problem is kept in `error` and stops every
 * later call.  No allocation; pure and thread-safe.
 */
#ifndef NVITOP_SRC_CLUSTER_PARSE_JSON_SCAN_H
#define NVITOP_SRC_CLUSTER_PARSE_JSON_SCAN_H

#include <stdbool.h>

struct json_scan {
    char *start;
    char *p;
    char *end;
    const char *error; /* what went wrong, at p; NULL while all is well */
};

/* Set the error (the first one is kept); returns false. */
bool jscan_fail(struct json_scan *s, const char *what);

void jscan_skip_blanks(struct json_scan *s);

/* Consume c after blanks, or fail with what. */
bool jscan_expect(struct json_scan *s, char c, const char *what);

/* A string after blanks, decoded and NUL-terminated in place; NULL on error. */
char *jscan_string(struct json_scan *s);

/* A number after blanks, checked against JSON's grammar. */
bool jscan_number(struct json_scan *s, double *out);

/* The next member of an object whose '{' was read: true with its key (the cursor after the
 * ':'), false at the closing '}' (read) or on error.  *first starts true. */
bool jscan_member(struct json_scan *s, bool *first, char **key);

/* Whether an array whose '[' was read has another element (the cursor on it).  *first starts
 * true. */
bool jscan_element(struct json_scan *s, bool *first);

/* Check and skip any value; depth is the current nesting (1 at a member of the top object). */
bool jscan_skip_value(struct json_scan *s, int depth);

/* A string value, or NULL when the value is of another type (checked and skipped). */
const char *jscan_string_or_skip(struct json_scan *s);

#endif /* NVITOP_SRC_CLUSTER_PARSE_JSON_SCAN_H */
