#include "collect_writer.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/xalloc.h"

struct collect_writer {
    FILE *out;
    bool rewritable;
    enum collect_format format;
    const char *prog;
    bool warned;
    /* CSV only: the columns, and every row written (values by column, NaN = empty). */
    char **columns;
    size_t column_count;
    size_t column_cap;
    double **rows;
    size_t *row_widths; /* columns that existed when each row was written */
    size_t row_count;
    size_t row_cap;
};

struct collect_writer *collect_writer_new(FILE *out, bool rewritable, enum collect_format format,
                                          const char *warn_prog) {
    struct collect_writer *w = xcalloc(1, sizeof(*w));
    w->out = out;
    w->rewritable = rewritable;
    w->format = format;
    w->prog = warn_prog;
    return w;
}

void collect_writer_free(struct collect_writer *w) {
    if (w == NULL) {
        return;
    }
    for (size_t i = 0; i < w->column_count; i++) {
        free(w->columns[i]);
    }
    for (size_t i = 0; i < w->row_count; i++) {
        free(w->rows[i]);
    }
    free(w->columns);
    free(w->rows);
    free(w->row_widths);
    free(w);
}

void collect_format_number(char *buf, size_t size, double value) {
    if (isnan(value) || isinf(value)) {
        buf[0] = '\0';
        return;
    }
    int digits = 17;
    for (int p = 1; p <= 17; p++) {
        snprintf(buf, size, "%.*e", p - 1, value);
        if (strtod(buf, NULL) == value) {
            digits = p;
            break;
        }
    }
    /* Those digits in plain notation unless the exponent is extreme, as Python's repr() does. */
    char *e = strchr(buf, 'e');
    int exponent = e != NULL ? atoi(e + 1) : 0;
    if (exponent >= -4 && exponent < 16) {
        int decimals = digits - 1 - exponent;
        snprintf(buf, size, "%.*f", decimals > 0 ? decimals : 0, value);
    } else {
        snprintf(buf, size, "%.*g", digits, value);
    }
}

/* ---- JSON Lines ------------------------------------------------------------------------- */

static void json_string(FILE *out, const char *text) {
    fputc('"', out);
    for (const unsigned char *p = (const unsigned char *)text; *p != '\0'; p++) {
        if (*p == '"' || *p == '\\') {
            fputc('\\', out);
            fputc(*p, out);
        } else if (*p < 0x20) {
            fprintf(out, "\\u%04x", *p);
        } else {
            fputc(*p, out);
        }
    }
    fputc('"', out);
}

static bool jsonl_row(struct collect_writer *w, const struct nvt_metric *m, size_t n) {
    fputc('{', w->out);
    for (size_t i = 0; i < n; i++) {
        if (i > 0) {
            fputs(", ", w->out);
        }
        json_string(w->out, m[i].key);
        char number[32];
        collect_format_number(number, sizeof(number), m[i].value);
        fprintf(w->out, ": %s", number[0] != '\0' ? number : "null");
    }
    fputs("}\n", w->out);
    return fflush(w->out) == 0 && !ferror(w->out);
}

/* ---- CSV -------------------------------------------------------------------------------- */

/* RFC 4180: quote a field holding a comma, a quote or a line break ("gpu:(0, 1)" has a comma). */
static void csv_field(FILE *out, const char *text) {
    if (strpbrk(text, ",\"\r\n") == NULL) {
        fputs(text, out);
        return;
    }
    fputc('"', out);
    for (const char *p = text; *p != '\0'; p++) {
        if (*p == '"') {
            fputc('"', out);
        }
        fputc(*p, out);
    }
    fputc('"', out);
}

static void csv_header(struct collect_writer *w) {
    for (size_t c = 0; c < w->column_count; c++) {
        if (c > 0) {
            fputc(',', w->out);
        }
        csv_field(w->out, w->columns[c]);
    }
    fputc('\n', w->out);
}

static void csv_values(struct collect_writer *w, const double *values, size_t width) {
    for (size_t c = 0; c < w->column_count; c++) {
        if (c > 0) {
            fputc(',', w->out);
        }
        if (c < width) {
            char number[32];
            collect_format_number(number, sizeof(number), values[c]);
            fputs(number, w->out);
        }
    }
    fputc('\n', w->out);
}

static size_t column_of(const struct collect_writer *w, const char *key) {
    for (size_t c = 0; c < w->column_count; c++) {
        if (strcmp(w->columns[c], key) == 0) {
            return c;
        }
    }
    return SIZE_MAX;
}

/* Add the keys not yet in the header; returns how many were added. */
static size_t add_columns(struct collect_writer *w, const struct nvt_metric *m, size_t n) {
    size_t added = 0;
    for (size_t i = 0; i < n; i++) {
        if (column_of(w, m[i].key) != SIZE_MAX) {
            continue;
        }
        if (w->column_count == w->column_cap) {
            w->column_cap = w->column_cap > 0 ? w->column_cap * 2 : 256;
            w->columns = xrealloc(w->columns, w->column_cap * sizeof(*w->columns));
        }
        w->columns[w->column_count++] = xstrdup(m[i].key);
        added++;
    }
    return added;
}

/* Rewrite the whole file with the current header and every row so far. */
static bool csv_rewrite(struct collect_writer *w) {
    if (fflush(w->out) != 0 || fseek(w->out, 0, SEEK_SET) != 0) {
        return false;
    }
    csv_header(w);
    for (size_t r = 0; r < w->row_count; r++) {
        csv_values(w, w->rows[r], w->row_widths[r]);
    }
    if (fflush(w->out) != 0) {
        return false;
    }
    long end = ftell(w->out);
    return end >= 0 && ftruncate(fileno(w->out), (off_t)end) == 0;
}

static bool csv_row(struct collect_writer *w, const struct nvt_metric *m, size_t n) {
    bool first = w->row_count == 0 && w->column_count == 0;
    size_t before = w->column_count;
    if (first || w->rewritable) {
        add_columns(w, m, n);
    }
    if (!first && w->column_count == before) {
        for (size_t i = 0; i < n && !w->warned; i++) {
            if (column_of(w, m[i].key) == SIZE_MAX) {
                fprintf(stderr,
                        "%s: warning: new metrics (e.g. \"%s\") are left out of the CSV output, "
                        "whose header is written; write to a file or use --format jsonl to keep "
                        "them\n",
                        w->prog, m[i].key);
                w->warned = true;
            }
        }
    }
    double *values = xmalloc((w->column_count > 0 ? w->column_count : 1) * sizeof(*values));
    for (size_t c = 0; c < w->column_count; c++) {
        values[c] = NAN;
    }
    for (size_t i = 0; i < n; i++) {
        size_t c = column_of(w, m[i].key);
        if (c != SIZE_MAX) {
            values[c] = m[i].value;
        }
    }
    if (!w->rewritable) { /* nothing will be rewritten: no need to keep the row */
        if (first) {
            csv_header(w);
        }
        csv_values(w, values, w->column_count);
        free(values);
        return fflush(w->out) == 0 && !ferror(w->out);
    }
    if (w->row_count == w->row_cap) {
        w->row_cap = w->row_cap > 0 ? w->row_cap * 2 : 64;
        w->rows = xrealloc(w->rows, w->row_cap * sizeof(*w->rows));
        w->row_widths = xrealloc(w->row_widths, w->row_cap * sizeof(*w->row_widths));
    }
    w->rows[w->row_count] = values;
    w->row_widths[w->row_count] = w->column_count;
    w->row_count++;
    if (first) {
        csv_header(w);
    } else if (w->column_count != before) {
        return csv_rewrite(w); /* writes this row too */
    }
    csv_values(w, values, w->column_count);
    return fflush(w->out) == 0 && !ferror(w->out);
}

bool collect_writer_row(struct collect_writer *w, const struct nvt_metric *metrics, size_t count) {
    return w->format == COLLECT_JSONL ? jsonl_row(w, metrics, count) : csv_row(w, metrics, count);
}
