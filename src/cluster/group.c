/* Rows grouped by a pattern (group.h), with POSIX regular expressions (regex.h). */
#include "cluster/group.h"

#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cluster/table.h"
#include "util/text/strbuf.h"
#include "util/text/utf8.h"
#include "util/xalloc.h"

struct node_grouping {
    regex_t re;
};

/* pattern with \d, \w and \s spelled in POSIX classes (a "\\" pair is kept as it is). */
static bool translate(const char *pattern, struct strbuf *out) {
    bool ok = true;
    for (const char *p = pattern; *p != '\0'; p++) {
        if (p[0] == '\\' && p[1] != '\0') {
            const char *with = p[1] == 'd'   ? "[0-9]"
                               : p[1] == 'w' ? "[[:alnum:]_]"
                               : p[1] == 's' ? "[[:space:]]"
                                             : NULL;
            ok = (with != NULL ? strbuf_append(out, with, strlen(with))
                               : strbuf_append(out, p, 2)) &&
                 ok;
            p++;
            continue;
        }
        ok = strbuf_append(out, p, 1) && ok;
    }
    return ok;
}

struct node_grouping *node_grouping_new(const char *pattern, char *err, size_t size) {
    struct strbuf text = STRBUF_INIT;
    if (!translate(pattern, &text)) {
        strbuf_fini(&text);
        snprintf(err, size, "out of memory");
        return NULL;
    }
    struct node_grouping *g = xcalloc(1, sizeof *g);
    int rc = regcomp(&g->re, text.data != NULL ? text.data : "", REG_EXTENDED);
    strbuf_fini(&text);
    if (rc != 0) {
        char why[128];
        regerror(rc, &g->re, why, sizeof why);
        snprintf(err, size, "invalid pattern '%s': %s", pattern, why);
        free(g);
        return NULL;
    }
    return g;
}

void node_grouping_free(struct node_grouping *g) {
    if (g != NULL) {
        regfree(&g->re);
        free(g);
    }
}

static bool group_in(const struct node_grouping *g, const char *text, char *buf, size_t size) {
    regmatch_t m[2];
    if (text[0] == '\0' || regexec(&g->re, text, 2, m, 0) != 0) {
        return false;
    }
    const regmatch_t *part = g->re.re_nsub > 0 && m[1].rm_so >= 0 ? &m[1] : &m[0];
    size_t len = (size_t)(part->rm_eo - part->rm_so);
    len = len < size ? len : size - 1;
    memcpy(buf, text + part->rm_so, len);
    buf[len] = '\0';
    return true;
}

void node_grouping_of(const struct node_grouping *g, const struct node *n, char *buf, size_t size) {
    buf[0] = '\0';
    if (!group_in(g, n->address, buf, size)) {
        group_in(g, n->summary.hostname, buf, size);
    }
}

struct keyed {
    char group[64];
    size_t index;
    size_t position;
};

static int by_group(const void *a, const void *b) {
    const struct keyed *x = a, *y = b;
    bool xe = x->group[0] == '\0', ye = y->group[0] == '\0';
    if (xe != ye) {
        return xe ? 1 : -1; /* no group last */
    }
    int c = strcmp(x->group, y->group);
    if (c != 0) {
        return c;
    }
    return x->position < y->position ? -1 : x->position > y->position;
}

void node_grouping_sort(const struct node_grouping *g, const struct node *nodes, size_t *order,
                        size_t count) {
    if (count == 0) {
        return;
    }
    struct keyed *keys = xcalloc(count, sizeof *keys);
    for (size_t i = 0; i < count; i++) {
        node_grouping_of(g, &nodes[order[i]], keys[i].group, sizeof keys[i].group);
        keys[i].index = order[i];
        keys[i].position = i;
    }
    qsort(keys, count, sizeof *keys, by_group);
    for (size_t i = 0; i < count; i++) {
        order[i] = keys[i].index;
    }
    free(keys);
}

#define GROUP_WIDTH_MAX 24

int node_grouping_width(const struct node_grouping *g, const struct node *nodes, size_t count) {
    int width = 5; /* "GROUP" */
    for (size_t i = 0; i < count; i++) {
        char group[64];
        node_grouping_of(g, &nodes[i], group, sizeof group);
        int w = (int)utf8_width(group, strlen(group));
        width = w > width ? w : width;
    }
    return width > GROUP_WIDTH_MAX ? GROUP_WIDTH_MAX : width;
}

void node_grouping_cell(const struct node_grouping *g, const struct node *n, int width, char *buf,
                        size_t size) {
    char group[64];
    node_grouping_of(g, n, group, sizeof group);
    table_cell(buf, size, group[0] != '\0' ? group : "-", width);
    size_t len = strlen(buf);
    if (len + 3 <= size) {
        memcpy(buf + len, "  ", 3);
    }
}
