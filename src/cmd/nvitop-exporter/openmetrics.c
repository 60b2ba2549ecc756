/* The exposition in OpenMetrics (openmetrics.h). */
#include "openmetrics.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "util/text/strbuf.h"

bool openmetrics_accepted(const char *accept) {
    static const char type[] = "application/openmetrics-text";
    for (const char *p = accept; p != NULL && *p != '\0';) {
        while (*p == ' ' || *p == '\t') {
            p++;
        }
        size_t len = strcspn(p, ";,");
        size_t trimmed = len;
        while (trimmed > 0 && (p[trimmed - 1] == ' ' || p[trimmed - 1] == '\t')) {
            trimmed--;
        }
        if (trimmed == sizeof(type) - 1 && strncasecmp(p, type, trimmed) == 0) {
            return true;
        }
        p = strchr(p, ',');
        p = p != NULL ? p + 1 : NULL;
    }
    return false;
}

static bool ends_with(const char *text, size_t len, const char *suffix) {
    size_t n = strlen(suffix);
    return len >= n && memcmp(text + len - n, suffix, n) == 0;
}

/* "# HELP <name> <help>": the family's name (info families without their _info) and the help
 * with double quotes escaped. */
static bool help_line(struct strbuf *out, const char *line, size_t len) {
    const char *name = line + strlen("# HELP ");
    const char *space = memchr(name, ' ', (size_t)(line + len - name));
    size_t name_len = space != NULL ? (size_t)(space - name) : (size_t)(line + len - name);
    bool info = ends_with(name, name_len, "_info");
    bool ok = strbuf_append(out, "# HELP ", strlen("# HELP ")) &&
              strbuf_append(out, name, info ? name_len - strlen("_info") : name_len);
    for (const char *p = space; ok && p != NULL && p < line + len; p++) {
        ok = *p == '"' ? strbuf_append(out, "\\\"", 2) : strbuf_append(out, p, 1);
    }
    return ok && strbuf_append(out, "\n", 1);
}

/* "# TYPE <name> gauge": info families typed info under their base name; gauges with their unit,
 * the name's last word. */
static bool type_line(struct strbuf *out, const char *line, size_t len) {
    const char *name = line + strlen("# TYPE ");
    const char *space = memchr(name, ' ', (size_t)(line + len - name));
    if (space == NULL) {
        return strbuf_append(out, line, len) && strbuf_append(out, "\n", 1);
    }
    size_t name_len = (size_t)(space - name);
    if (ends_with(name, name_len, "_info")) {
        return strbuf_append(out, "# TYPE ", strlen("# TYPE ")) &&
               strbuf_append(out, name, name_len - strlen("_info")) &&
               strbuf_append(out, " info\n", strlen(" info\n"));
    }
    bool ok = strbuf_append(out, line, len) && strbuf_append(out, "\n", 1);
    const char *unit = name + name_len;
    while (unit > name && unit[-1] != '_') {
        unit--;
    }
    if (ok && unit > name) {
        ok = strbuf_append(out, "# UNIT ", strlen("# UNIT ")) &&
             strbuf_append(out, name, name_len) && strbuf_append(out, " ", 1) &&
             strbuf_append(out, unit, (size_t)(name + name_len - unit)) &&
             strbuf_append(out, "\n", 1);
    }
    return ok;
}

char *openmetrics_from_text(const char *text, size_t len, size_t *out_len) {
    struct strbuf out = STRBUF_INIT;
    /* The units and the end marker add a little: one reservation. */
    bool ok = strbuf_reserve(&out, len + len / 16 + 64);
    const char *end = text + len;
    for (const char *line = text; ok && line < end;) {
        const char *newline = memchr(line, '\n', (size_t)(end - line));
        size_t line_len = newline != NULL ? (size_t)(newline - line) : (size_t)(end - line);
        if (line_len > 7 && memcmp(line, "# HELP ", 7) == 0) {
            ok = help_line(&out, line, line_len);
        } else if (line_len > 7 && memcmp(line, "# TYPE ", 7) == 0) {
            ok = type_line(&out, line, line_len);
        } else if (line_len > 0) {
            ok = strbuf_append(&out, line, line_len) && strbuf_append(&out, "\n", 1);
        }
        line += line_len + (newline != NULL ? 1 : 0);
    }
    ok = ok && strbuf_append(&out, "# EOF\n", strlen("# EOF\n"));
    if (!ok) {
        strbuf_fini(&out);
        return NULL;
    }
    *out_len = out.len;
    return strbuf_detach(&out);
}
