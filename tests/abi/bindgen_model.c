#include "bindgen_model.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct constant {
    char *name;
    long long value;
};

struct alias {
    char *name;
    char *target;
};

struct field {
    char *name;
    char *type;
};

struct record {
    char *name;
    bool is_union;
    struct field *fields;
    size_t count;
};

struct bindgen_model {
    struct constant *constants;
    size_t constant_count;
    struct alias *aliases;
    size_t alias_count;
    struct record *records;
    size_t record_count;
};

/* Allocation failures in a test helper: stop the test loudly. */
static void *grow(void *array, size_t count, size_t elem) {
    void *bigger = realloc(array, (count + 1) * elem);
    if (bigger == NULL) {
        fprintf(stderr, "bindgen_model: out of memory\n");
        abort();
    }
    return bigger;
}

static char *dup_range(const char *start, const char *end) {
    while (start < end && isspace((unsigned char)*start)) {
        start++;
    }
    while (end > start && isspace((unsigned char)end[-1])) {
        end--;
    }
    char *copy = malloc((size_t)(end - start) + 1);
    if (copy == NULL) {
        abort();
    }
    memcpy(copy, start, (size_t)(end - start));
    copy[end - start] = '\0';
    return copy;
}

/* "pub const NAME: TYPE = VALUE;" with an integer VALUE. */
static void parse_constant(struct bindgen_model *m, const char *line) {
    const char *colon = strchr(line, ':');
    const char *eq = strstr(line, " = ");
    if (colon == NULL || eq == NULL || colon > eq) {
        return;
    }
    char *end = NULL;
    long long value = strtoll(eq + 3, &end, 10);
    if (end == eq + 3 || *end != ';') {
        return;
    }
    m->constants = grow(m->constants, m->constant_count, sizeof(struct constant));
    m->constants[m->constant_count].name = dup_range(line, colon);
    m->constants[m->constant_count].value = value;
    m->constant_count++;
}

static void add_alias(struct bindgen_model *m, char *name, char *target) {
    m->aliases = grow(m->aliases, m->alias_count, sizeof(struct alias));
    m->aliases[m->alias_count].name = name;
    m->aliases[m->alias_count].target = target;
    m->alias_count++;
}

/* "pub type NAME = TARGET;" */
static void parse_type_alias(struct bindgen_model *m, const char *line) {
    const char *eq = strstr(line, " = ");
    const char *semi = strrchr(line, ';');
    if (eq != NULL && semi != NULL && semi > eq) {
        add_alias(m, dup_range(line, eq), dup_range(eq + 3, semi));
    }
}

/* "pub use self::TARGET as NAME;" */
static void parse_use_alias(struct bindgen_model *m, const char *line) {
    const char *as = strstr(line, " as ");
    const char *semi = strrchr(line, ';');
    if (as != NULL && semi != NULL && semi > as) {
        add_alias(m, dup_range(as + 4, semi), dup_range(line, as));
    }
}

/* "pub name: TYPE," inside a record body. */
static void parse_field(struct record *r, const char *line) {
    const char *colon = strchr(line, ':');
    const char *comma = strrchr(line, ',');
    if (colon == NULL || comma == NULL || comma < colon) {
        return;
    }
    r->fields = grow(r->fields, r->count, sizeof(struct field));
    r->fields[r->count].name = dup_range(line, colon);
    r->fields[r->count].type = dup_range(colon + 1, comma);
    r->count++;
}

static const char *skip_prefix(const char *line, const char *prefix) {
    size_t n = strlen(prefix);
    return strncmp(line, prefix, n) == 0 ? line + n : NULL;
}

static void parse_line(struct bindgen_model *m, const char *line, struct record **open) {
    while (*line == ' ') {
        line++;
    }
    const char *rest = NULL;
    if (*open != NULL) {
        if (line[0] == '}') {
            *open = NULL;
        } else if ((rest = skip_prefix(line, "pub ")) != NULL) {
            parse_field(*open, rest);
        }
        return;
    }
    bool is_union = false;
    if ((rest = skip_prefix(line, "pub const ")) != NULL) {
        parse_constant(m, rest);
    } else if ((rest = skip_prefix(line, "pub type ")) != NULL) {
        parse_type_alias(m, rest);
    } else if ((rest = skip_prefix(line, "pub use self::")) != NULL) {
        parse_use_alias(m, rest);
    } else if ((rest = skip_prefix(line, "pub struct ")) != NULL ||
               (is_union = (rest = skip_prefix(line, "pub union ")) != NULL)) {
        const char *brace = strchr(rest, '{');
        if (brace == NULL) {
            return;
        }
        m->records = grow(m->records, m->record_count, sizeof(struct record));
        struct record *r = &m->records[m->record_count++];
        memset(r, 0, sizeof(*r));
        r->name = dup_range(rest, brace);
        r->is_union = is_union;
        *open = strchr(brace, '}') != NULL ? NULL : r;
    }
}

/* rustfmt wraps a constant with a long name over two lines, "pub const NAME:" and
 * "    TYPE = VALUE;": append the continuation so that parse_constant sees one line. */
static void join_wrapped_constant(char *line, size_t size, FILE *f) {
    const char *start = line + strspn(line, " ");
    if (skip_prefix(start, "pub const ") == NULL || strchr(line, ';') != NULL) {
        return;
    }
    size_t used = strlen(line);
    if (used + 1 < size && fgets(line + used, (int)(size - used), f) != NULL) {
        line[strcspn(line, "\n")] = '\0';
    }
}

struct bindgen_model *bindgen_model_load(const char *path, char *err, size_t err_size) {
    FILE *f = path != NULL && path[0] != '\0' ? fopen(path, "r") : NULL;
    if (f == NULL) {
        snprintf(err, err_size,
                 "cannot read the NVML reference bindings '%s' (install "
                 "librust-nvml-wrapper-sys-dev and re-run cmake)",
                 path != NULL ? path : "");
        return NULL;
    }
    struct bindgen_model *m = calloc(1, sizeof(*m));
    if (m == NULL) {
        abort();
    }
    char line[4096];
    struct record *open = NULL;
    while (fgets(line, sizeof(line), f) != NULL) {
        line[strcspn(line, "\n")] = '\0';
        join_wrapped_constant(line, sizeof(line), f);
        parse_line(m, line, &open);
        /* Records may move when the array grows: reopen by index. */
        if (open != NULL) {
            open = &m->records[m->record_count - 1];
        }
    }
    fclose(f);
    return m;
}

void bindgen_model_free(struct bindgen_model *m) {
    if (m == NULL) {
        return;
    }
    for (size_t i = 0; i < m->constant_count; i++) {
        free(m->constants[i].name);
    }
    for (size_t i = 0; i < m->alias_count; i++) {
        free(m->aliases[i].name);
        free(m->aliases[i].target);
    }
    for (size_t i = 0; i < m->record_count; i++) {
        for (size_t j = 0; j < m->records[i].count; j++) {
            free(m->records[i].fields[j].name);
            free(m->records[i].fields[j].type);
        }
        free(m->records[i].fields);
        free(m->records[i].name);
    }
    free(m->constants);
    free(m->aliases);
    free(m->records);
    free(m);
}

bool bindgen_model_constant(const struct bindgen_model *m, const char *name, long long *value) {
    for (size_t i = 0; i < m->constant_count; i++) {
        if (strcmp(m->constants[i].name, name) == 0) {
            *value = m->constants[i].value;
            return true;
        }
    }
    return false;
}

static const struct record *find_record(const struct bindgen_model *m, const char *name) {
    for (size_t i = 0; i < m->record_count; i++) {
        if (strcmp(m->records[i].name, name) == 0) {
            return &m->records[i];
        }
    }
    return NULL;
}

bool bindgen_model_has_record(const struct bindgen_model *m, const char *name) {
    return find_record(m, name) != NULL;
}

struct primitive {
    const char *name;
    size_t size;
};

/* LP64 Linux, which is what the library and the simulator are built for. */
static const struct primitive primitives[] = {
    {"raw::c_char", 1},
    {"raw::c_schar", 1},
    {"raw::c_uchar", 1},
    {"raw::c_short", 2},
    {"raw::c_ushort", 2},
    {"raw::c_int", 4},
    {"raw::c_uint", 4},
    {"raw::c_long", 8},
    {"raw::c_ulong", 8},
    {"raw::c_longlong", 8},
    {"raw::c_ulonglong", 8},
    {"f32", 4},
    {"f64", 8},
    {"u8", 1},
    {"i8", 1},
    {"u16", 2},
    {"i16", 2},
    {"u32", 4},
    {"i32", 4},
    {"u64", 8},
    {"i64", 8},
    {"usize", 8},
    {"isize", 8},
    {"bool", 1},
};

static bool layout_of(const struct bindgen_model *m, const char *type, size_t *size, size_t *align,
                      char *err, size_t err_size, int depth);

static size_t round_up(size_t value, size_t align) {
    return (value + align - 1) / align * align;
}

/* Lay out a record; offsets[i] (optional) receives each field's offset. */
static bool layout_record(const struct bindgen_model *m, const struct record *r, size_t *size,
                          size_t *align, size_t *offsets, size_t *sizes, char *err, size_t err_size,
                          int depth) {
    size_t offset = 0;
    size_t max_align = 1;
    size_t max_size = 0;
    for (size_t i = 0; i < r->count; i++) {
        size_t s = 0;
        size_t a = 1;
        if (!layout_of(m, r->fields[i].type, &s, &a, err, err_size, depth + 1)) {
            return false;
        }
        max_align = a > max_align ? a : max_align;
        if (r->is_union) {
            max_size = s > max_size ? s : max_size;
            if (offsets != NULL) {
                offsets[i] = 0;
                sizes[i] = s;
            }
            continue;
        }
        offset = round_up(offset, a);
        if (offsets != NULL) {
            offsets[i] = offset;
            sizes[i] = s;
        }
        offset += s;
    }
    *size = round_up(r->is_union ? max_size : offset, max_align);
    *align = max_align;
    return true;
}

static bool layout_of(const struct bindgen_model *m, const char *type, size_t *size, size_t *align,
                      char *err, size_t err_size, int depth) {
    if (depth > 32) {
        snprintf(err, err_size, "type nesting too deep at '%s'", type);
        return false;
    }
    if (strncmp(type, "*mut ", 5) == 0 || strncmp(type, "*const ", 7) == 0 ||
        strncmp(type, "::std::option::Option<", 22) == 0) {
        *size = 8;
        *align = 8;
        return true;
    }
    if (type[0] == '[') {
        const char *semi = strrchr(type, ';');
        char *end = NULL;
        unsigned long long n = semi != NULL ? strtoull(semi + 1, &end, 10) : 0;
        if (semi == NULL || end == NULL || strncmp(end, "usize]", 6) != 0) {
            snprintf(err, err_size, "cannot read array type '%s'", type);
            return false;
        }
        char *elem = dup_range(type + 1, semi);
        bool ok = layout_of(m, elem, size, align, err, err_size, depth + 1);
        free(elem);
        *size *= (size_t)n;
        return ok;
    }
    for (size_t i = 0; i < sizeof(primitives) / sizeof(primitives[0]); i++) {
        if (strcmp(type, primitives[i].name) == 0) {
            *size = primitives[i].size;
            *align = primitives[i].size;
            return true;
        }
    }
    const struct record *r = find_record(m, type);
    if (r != NULL) {
        return layout_record(m, r, size, align, NULL, NULL, err, err_size, depth);
    }
    for (size_t i = 0; i < m->alias_count; i++) {
        if (strcmp(m->aliases[i].name, type) == 0) {
            return layout_of(m, m->aliases[i].target, size, align, err, err_size, depth + 1);
        }
    }
    snprintf(err, err_size, "unknown type '%s'", type);
    return false;
}

bool bindgen_model_sizeof(const struct bindgen_model *m, const char *type, size_t *size, char *err,
                          size_t err_size) {
    size_t align = 0;
    return layout_of(m, type, size, &align, err, err_size, 0);
}

bool bindgen_model_field(const struct bindgen_model *m, const char *record, const char *field,
                         size_t *offset, size_t *size, char *err, size_t err_size) {
    const struct record *r = find_record(m, record);
    if (r == NULL) {
        snprintf(err, err_size, "no record '%s' in the reference", record);
        return false;
    }
    size_t offsets[64];
    size_t sizes[64];
    size_t total = 0;
    size_t align = 0;
    if (r->count > 64 || !layout_record(m, r, &total, &align, offsets, sizes, err, err_size, 0)) {
        return false;
    }
    for (size_t i = 0; i < r->count; i++) {
        if (strcmp(r->fields[i].name, field) == 0) {
            *offset = offsets[i];
            *size = sizes[i];
            return true;
        }
    }
    snprintf(err, err_size, "no field '%s' in reference record '%s'", field, record);
    return false;
}

size_t bindgen_model_field_count(const struct bindgen_model *m, const char *record) {
    const struct record *r = find_record(m, record);
    return r != NULL ? r->count : 0;
}

const char *bindgen_model_field_name(const struct bindgen_model *m, const char *record, size_t i) {
    const struct record *r = find_record(m, record);
    return r != NULL && i < r->count ? r->fields[i].name : NULL;
}
