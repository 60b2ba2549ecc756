/*
 * The tree view's rows (see process_tree.h): nodes found through parent links, then flattened
 * depth first with nvitop's prefixes and formatted into nvitop's columns.
 */
#include "view/processes/process_tree.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <nvitop/format.h>

#include "util/text/str.h"
#include "util/xalloc.h"

#define NO_NODE SIZE_MAX

struct index_list {
    size_t *items;
    size_t count;
    size_t cap;
};

struct node {
    uint32_t pid;
    const struct nvt_host_process *host;
    bool gpu;
    size_t parent;
    struct index_list children;
    struct index_list table_rows; /* rows of the process table (one per device) */
};

struct builder {
    const struct view_process_table *table;
    const struct view_config *config;
    struct node *nodes;
    size_t count;
    size_t cap;
    size_t *slots; /* open addressing: node index + 1, 0 when empty */
    size_t slot_cap;
    view_tree_reader read;
    void *arg;
    struct view_process_tree *tree;
};

static void list_push(struct index_list *list, size_t value) {
    if (list->count == list->cap) {
        list->cap = list->cap == 0 ? 4 : list->cap * 2;
        list->items = xrealloc(list->items, list->cap * sizeof(*list->items));
    }
    list->items[list->count++] = value;
}

static size_t hash_slot(uint32_t pid, size_t cap) {
    return (size_t)((pid * UINT32_C(2654435761)) & (cap - 1));
}

static size_t find_node(const struct builder *b, uint32_t pid) {
    if (b->slot_cap == 0) {
        return NO_NODE;
    }
    for (size_t i = hash_slot(pid, b->slot_cap);; i = (i + 1) & (b->slot_cap - 1)) {
        if (b->slots[i] == 0) {
            return NO_NODE;
        }
        if (b->nodes[b->slots[i] - 1].pid == pid) {
            return b->slots[i] - 1;
        }
    }
}

static void hash_insert(struct builder *b, size_t index) {
    size_t i = hash_slot(b->nodes[index].pid, b->slot_cap);
    while (b->slots[i] != 0) {
        i = (i + 1) & (b->slot_cap - 1);
    }
    b->slots[i] = index + 1;
}

static size_t add_node(struct builder *b, uint32_t pid, const struct nvt_host_process *host,
                       bool gpu) {
    if (b->count == b->cap) {
        b->cap = b->cap == 0 ? 64 : b->cap * 2;
        b->nodes = xrealloc(b->nodes, b->cap * sizeof(*b->nodes));
    }
    if ((b->count + 1) * 2 > b->slot_cap) {
        free(b->slots);
        b->slot_cap = b->slot_cap == 0 ? 128 : b->slot_cap * 2;
        b->slots = xcalloc(b->slot_cap, sizeof(*b->slots));
        for (size_t i = 0; i < b->count; i++) {
            hash_insert(b, i);
        }
    }
    size_t index = b->count++;
    b->nodes[index] = (struct node){.pid = pid, .host = host, .gpu = gpu, .parent = NO_NODE};
    hash_insert(b, index);
    return index;
}

/* Read a process that is not on a GPU; the tree keeps what the reader returned. */
static size_t add_read_node(struct builder *b, uint32_t pid) {
    struct nvt_host_process *host = b->read(b->arg, pid);
    if (host == NULL) {
        return NO_NODE;
    }
    struct view_process_tree *tree = b->tree;
    if (tree->owned_count == tree->owned_cap) {
        tree->owned_cap = tree->owned_cap == 0 ? 64 : tree->owned_cap * 2;
        tree->owned = xrealloc(tree->owned, tree->owned_cap * sizeof(*tree->owned));
    }
    tree->owned[tree->owned_count++] = host;
    return add_node(b, pid, host, false);
}

/* Is node `ancestor` on the parent chain of `node` (or the node itself)? */
static bool is_ancestor(const struct builder *b, size_t ancestor, size_t node) {
    for (size_t i = node, steps = 0; i != NO_NODE && steps <= b->count;
         i = b->nodes[i].parent, steps++) {
        if (i == ancestor) {
            return true;
        }
    }
    return false;
}

static void link(struct builder *b, size_t child, size_t parent) {
    b->nodes[child].parent = parent;
    list_push(&b->nodes[parent].children, child);
}

static bool host_gone(const struct nvt_host_process *host) {
    return host->status == NVT_HOST_GONE || host->status == NVT_HOST_NOT_IN_NAMESPACE;
}

/* A vanished process has no parent any more: it is a root. */
static bool has_parent_pid(const struct nvt_host_process *host) {
    return !host_gone(host) && host->ppid != 0 && host->ppid != NVT_NA_U32 &&
           host->ppid != host->pid;
}

/* Walk up from a GPU process until a root or a node already present. */
static void add_ancestors(struct builder *b, size_t start) {
    size_t current = start;
    while (has_parent_pid(b->nodes[current].host)) {
        uint32_t ppid = b->nodes[current].host->ppid;
        size_t parent = find_node(b, ppid);
        if (parent != NO_NODE) {
            /* A parent link loop (only a fixture can have one) would hide both from the roots. */
            if (!is_ancestor(b, current, parent)) {
                link(b, current, parent);
            }
            return;
        }
        parent = add_read_node(b, ppid);
        if (parent == NO_NODE) {
            return;
        }
        link(b, current, parent);
        current = parent;
    }
}

static int compare_pair_ppid(const void *a, const void *b) {
    const uint32_t *pa = a;
    const uint32_t *pb = b;
    return (pa[1] > pb[1]) - (pa[1] < pb[1]);
}

/* (pid, ppid) pairs sorted by ppid, for the children of a pid by binary search. */
static uint32_t *pairs_by_ppid(const uint32_t *pids, const uint32_t *ppids, size_t count) {
    uint32_t *pairs = xmalloc((count > 0 ? count : 1) * 2 * sizeof(*pairs));
    for (size_t i = 0; i < count; i++) {
        pairs[2 * i] = pids[i];
        pairs[2 * i + 1] = ppids[i];
    }
    qsort(pairs, count, 2 * sizeof(*pairs), compare_pair_ppid);
    return pairs;
}

static size_t first_child_pair(const uint32_t *pairs, size_t count, uint32_t ppid) {
    size_t lo = 0;
    size_t hi = count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (pairs[2 * mid + 1] < ppid) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    return lo;
}

static void add_children(struct builder *b, size_t gpu_count, const uint32_t *pairs, size_t count) {
    for (size_t i = 0; i < gpu_count; i++) {
        uint32_t pid = b->nodes[i].pid;
        for (size_t k = first_child_pair(pairs, count, pid); k < count && pairs[2 * k + 1] == pid;
             k++) {
            if (pairs[2 * k] == pid || find_node(b, pairs[2 * k]) != NO_NODE) {
                continue;
            }
            size_t child = add_read_node(b, pairs[2 * k]);
            if (child != NO_NODE) {
                link(b, child, i);
            }
        }
    }
}

static const char *user_of(const struct nvt_host_process *host) {
    return host_gone(host) || host->user == NULL || host->user[0] == '\0' ? "N/A" : host->user;
}

static int compare_roots(const void *a, const void *b, void *arg) {
    const struct node *nodes = arg;
    uint32_t pa = nodes[*(const size_t *)a].pid;
    uint32_t pb = nodes[*(const size_t *)b].pid;
    return (pa > pb) - (pa < pb);
}

static int compare_children(const void *a, const void *b, void *arg) {
    const struct node *nodes = arg;
    const struct node *na = &nodes[*(const size_t *)a];
    const struct node *nb = &nodes[*(const size_t *)b];
    int gone = (int)host_gone(na->host) - (int)host_gone(nb->host);
    if (gone != 0) {
        return gone;
    }
    int user = strcmp(user_of(na->host), user_of(nb->host));
    if (user != 0) {
        return user;
    }
    return (na->pid > nb->pid) - (na->pid < nb->pid);
}

/* The text columns of one row before the tree prefix. */
struct row_text {
    char pid[16];
    const char *user;
    char device[64];
    char nlwp[16];
    char cpu[16];
    char mem[16];
    char time[32];
    const char *command;
};

struct widths {
    size_t pid, user, device, nlwp, time;
};

static void device_text(const struct builder *b, const struct node *node, char *buf, size_t size) {
    if (!node->gpu) {
        str_copy(buf, size, "Host");
        return;
    }
    /* Display indices in device order (slots list a GPU before its MIG devices). */
    size_t slots[64];
    size_t n = 0;
    for (size_t i = 0; i < node->table_rows.count && n < 64; i++) {
        size_t slot = b->table->rows[node->table_rows.items[i]].device_slot;
        size_t at = n;
        while (at > 0 && slots[at - 1] > slot) {
            at--;
        }
        if (at > 0 && slots[at - 1] == slot) {
            continue;
        }
        memmove(&slots[at + 1], &slots[at], (n - at) * sizeof(*slots));
        slots[at] = slot;
        n++;
    }
    str_copy(buf, size, "GPU ");
    for (size_t k = 0; k < n; k++) {
        for (size_t i = 0; i < node->table_rows.count; i++) {
            const struct view_process_row *row = &b->table->rows[node->table_rows.items[i]];
            if (row->device_slot == slots[k]) {
                if (k > 0) {
                    str_append(buf, size, ",");
                }
                str_append(buf, size, row->display_index);
                break;
            }
        }
    }
}

static void percent_text(char *buf, size_t size, double percent, bool cpu) {
    if (isnan(percent)) {
        str_copy(buf, size, "N/A");
    } else if (!cpu || percent < 1000.0) {
        nvt_format_fixed(buf, size, percent, 1);
    } else if (percent < 10000.0) {
        snprintf(buf, size, "%d", (int)percent);
    } else {
        str_copy(buf, size, "9999+");
    }
}

static void fill_text(const struct builder *b, const struct node *node, struct row_text *t) {
    const struct nvt_host_process *host = node->host;
    bool gone = host_gone(host);
    str_u64(t->pid, sizeof(t->pid), node->pid);
    t->user = user_of(host);
    device_text(b, node, t->device, sizeof(t->device));
    if (gone || host->num_threads == NVT_NA_U32) {
        str_copy(t->nlwp, sizeof(t->nlwp), "N/A");
    } else {
        str_u64(t->nlwp, sizeof(t->nlwp), host->num_threads);
    }
    percent_text(t->cpu, sizeof(t->cpu), gone ? NAN : host->cpu_percent, true);
    percent_text(t->mem, sizeof(t->mem), gone ? NAN : host->memory_percent, false);
    if (gone || isnan(host->running_time_s) || host->running_time_s < 0) {
        str_copy(t->time, sizeof(t->time), "N/A");
    } else {
        nvt_format_duration(t->time, sizeof(t->time), host->running_time_s, false);
    }
    if (gone) {
        t->command = "No Such Process";
    } else if (host->command != NULL && host->command[0] != '\0') {
        t->command = host->command;
    } else {
        t->command = host->name != NULL ? host->name : "";
    }
}

static size_t max_size(size_t a, size_t b) {
    return a > b ? a : b;
}

static void widen(struct widths *w, const struct row_text *t) {
    w->pid = max_size(w->pid, strlen(t->pid));
    w->user = max_size(w->user, nvt_text_width(t->user));
    w->device = max_size(w->device, strlen(t->device));
    w->nlwp = max_size(w->nlwp, strlen(t->nlwp));
    w->time = max_size(w->time, strlen(t->time));
}

/* Columns before COMMAND: fields two spaces apart, one space before %CPU and %MEM (nvitop). */
static void add_columns(struct view_line *line, const struct widths *w, const char *pid,
                        const char *user, const char *device, const char *nlwp, const char *cpu,
                        const char *mem, const char *time) {
    const struct view_style plain = {0};
    view_line_add_fit(line, pid, w->pid, true, plain);
    view_line_add(line, "  ", plain);
    view_line_add_fit(line, user, w->user, false, plain);
    view_line_add(line, "  ", plain);
    view_line_add_fit(line, device, w->device, true, plain);
    view_line_add(line, "  ", plain);
    view_line_add_fit(line, nlwp, w->nlwp, true, plain);
    view_line_add(line, " ", plain);
    view_line_add_fit(line, cpu, 5, true, plain);
    view_line_add(line, " ", plain);
    view_line_add_fit(line, mem, 5, true, plain);
    view_line_add(line, "  ", plain);
    view_line_add_fit(line, time, w->time, true, plain);
    view_line_add(line, "  ", plain);
}

struct flat_item {
    size_t node;
    size_t depth;
    char *prefix; /* owned */
};

struct flat {
    struct flat_item *items;
    size_t count;
};

/* continuation (len bytes) then tail into a fresh string. */
static char *joined(const char *continuation, size_t len, const char *tail) {
    size_t tail_len = strlen(tail);
    char *text = xmalloc(len + tail_len + 1);
    memcpy(text, continuation, len);
    memcpy(text + len, tail, tail_len + 1);
    return text;
}

/* Depth first from each root; continuation strings grow one level per step. */
static void flatten(struct builder *b, size_t index, size_t depth, const char *continuation,
                    bool last, struct flat *out) {
    struct node *node = &b->nodes[index];
    char *prefix;
    char *next;
    if (depth == 0) {
        prefix = xstrdup("");
        next = xstrdup("");
    } else {
        size_t len = strlen(continuation);
        prefix = joined(continuation, len, last ? "└─ " : "├─ ");
        next = joined(continuation, len, last ? "   " : "│  ");
    }
    out->items[out->count++] = (struct flat_item){index, depth, prefix};
    if (node->children.count > 1) {
        qsort_r(node->children.items, node->children.count, sizeof(size_t), compare_children,
                b->nodes);
    }
    for (size_t i = 0; i < node->children.count; i++) {
        flatten(b, node->children.items[i], depth + 1, next, i + 1 == node->children.count, out);
    }
    free(next);
}

static void emit_rows(struct builder *b, const struct flat *flat) {
    struct view_process_tree *tree = b->tree;
    struct row_text *texts = xcalloc(flat->count + 1, sizeof(*texts));
    struct widths w = {3, 4, 6, 4, 4};
    for (size_t i = 0; i < flat->count; i++) {
        fill_text(b, &b->nodes[flat->items[i].node], &texts[i]);
        widen(&w, &texts[i]);
    }
    const struct view_style plain = {0};
    const struct view_style prefix_style = {VIEW_COLOR_GREEN, VIEW_ATTR_BOLD, VIEW_COLOR_DEFAULT};
    view_line_init(&tree->header);
    add_columns(&tree->header, &w, "PID", "USER", "DEVICE", "NLWP", "%CPU", "%MEM", "TIME");
    tree->command_col = view_line_width(&tree->header);
    view_line_add(&tree->header, "COMMAND", plain);
    tree->rows = xcalloc(flat->count + 1, sizeof(*tree->rows));
    tree->count = flat->count;
    const struct view_config *config = b->config;
    for (size_t i = 0; i < flat->count; i++) {
        const struct node *node = &b->nodes[flat->items[i].node];
        const struct row_text *t = &texts[i];
        struct view_tree_row *row = &tree->rows[i];
        row->pid = node->pid;
        row->create_time = host_gone(node->host) ? NAN : node->host->create_time;
        row->host = node->host;
        row->gpu = node->gpu;
        row->depth = flat->items[i].depth;
        row->owned = config->superuser ||
                     (config->user_name != NULL && strcmp(t->user, config->user_name) == 0);
        view_line_init(&row->line);
        add_columns(&row->line, &w, t->pid, t->user, t->device, t->nlwp, t->cpu, t->mem, t->time);
        view_line_add(&row->line, flat->items[i].prefix, prefix_style);
        view_line_add(&row->line, t->command, plain);
    }
    free(texts);
}

void view_process_tree_build(const struct view_process_table *table, const uint32_t *pids,
                             const uint32_t *ppids, size_t count, view_tree_reader read, void *arg,
                             const struct view_config *config, struct view_process_tree *tree) {
    memset(tree, 0, sizeof(*tree));
    struct builder b = {.table = table, .config = config, .read = read, .arg = arg, .tree = tree};
    for (size_t i = 0; i < table->count; i++) {
        const struct nvt_gpu_process *process = table->rows[i].process;
        size_t node = find_node(&b, process->pid);
        if (node == NO_NODE) {
            node = add_node(&b, process->pid, &process->host, true);
        }
        list_push(&b.nodes[node].table_rows, i);
    }
    size_t gpu_count = b.count;
    for (size_t i = 0; i < gpu_count; i++) {
        add_ancestors(&b, i);
    }
    uint32_t *pairs = pairs_by_ppid(pids, ppids, count);
    add_children(&b, gpu_count, pairs, count);
    free(pairs);

    struct index_list roots = {0};
    for (size_t i = 0; i < b.count; i++) {
        if (b.nodes[i].parent == NO_NODE) {
            list_push(&roots, i);
        }
    }
    if (roots.count > 1) {
        qsort_r(roots.items, roots.count, sizeof(size_t), compare_roots, b.nodes);
    }
    struct flat flat = {xcalloc(b.count + 1, sizeof(struct flat_item)), 0};
    for (size_t i = 0; i < roots.count; i++) {
        flatten(&b, roots.items[i], 0, "", false, &flat);
    }
    emit_rows(&b, &flat);
    for (size_t i = 0; i < flat.count; i++) {
        free(flat.items[i].prefix);
    }
    free(flat.items);
    free(roots.items);
    for (size_t i = 0; i < b.count; i++) {
        free(b.nodes[i].children.items);
        free(b.nodes[i].table_rows.items);
    }
    free(b.nodes);
    free(b.slots);
}

void view_process_tree_fini(struct view_process_tree *tree) {
    if (tree == NULL) {
        return;
    }
    for (size_t i = 0; i < tree->count; i++) {
        view_line_fini(&tree->rows[i].line);
    }
    free(tree->rows);
    view_line_fini(&tree->header);
    for (size_t i = 0; i < tree->owned_count; i++) {
        nvt_host_process_free(tree->owned[i]);
    }
    free(tree->owned);
    memset(tree, 0, sizeof(*tree));
}

long view_process_tree_find(const struct view_process_tree *tree, uint32_t pid,
                            double create_time) {
    for (size_t i = 0; i < tree->count; i++) {
        const struct view_tree_row *row = &tree->rows[i];
        if (row->pid != pid) {
            continue;
        }
        if (isnan(create_time) || isnan(row->create_time) ||
            fabs(row->create_time - create_time) < 0.01) {
            return (long)i;
        }
    }
    return -1;
}
