/* The cluster summary table and JSON (cluster_report.h). */
#include "cmd/nvitop/modes/cluster_report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>

#include <nvitop/version.h>

#include "cluster/table.h"
#include "cmd/nvitop/output/json_writer.h"
#include "util/text/strbuf.h"
#include "util/text/term_text.h"
#include "util/xalloc.h"

/* The columns to fit the table in: $COLUMNS, else the terminal's; 0 (no limit) for a pipe or a
 * file, so that scripts get whole addresses. */
static size_t table_columns(FILE *out) {
    const char *env = getenv("COLUMNS");
    if (env != NULL) {
        char *end = NULL;
        long value = strtol(env, &end, 10);
        if (end != env && *end == '\0' && value > 0) {
            return (size_t)value;
        }
    }
    struct winsize ws;
    if (ioctl(fileno(out), TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0) {
        return ws.ws_col;
    }
    return 0;
}

void cluster_print_table(FILE *out, const struct node *nodes, size_t count, double now,
                         const struct cluster_table_options *options) {
    char same[600];
    if (table_same_host(nodes, count, same, sizeof same)) {
        term_text_clean_in_place(same);
        fprintf(stderr, "nvitop: warning: %s\n", same);
    }
    const struct node_grouping *grouping = options->grouping;
    int group_width = grouping != NULL ? node_grouping_width(grouping, nodes, count) : 0;
    size_t columns = table_columns(out);
    if (columns > 0 && grouping != NULL) {
        columns = columns > (size_t)group_width + 2 ? columns - (size_t)group_width - 2 : 1;
    }
    struct table_widths w;
    table_widths_shown(nodes, count, columns, options->columns, &w);
    w.ascii = options->ascii;
    char line[1024], group[TABLE_CELL_MAX] = "";
    if (grouping != NULL) {
        table_cell(group, sizeof group, "GROUP", group_width);
        strcat(group, "  ");
    }
    table_header(line, sizeof line, &w);
    fprintf(out, "%s%s\n", group, line);
    size_t *order = xcalloc(count + 1, sizeof *order);
    for (size_t i = 0; i < count; i++) {
        order[i] = i;
    }
    if (grouping != NULL) {
        node_grouping_sort(grouping, nodes, order, count);
    }
    /* Rows carry the nodes' own labels and reasons: shown as plain characters (term_text.h). */
    for (size_t k = 0; k < count; k++) {
        size_t i = order[k];
        if (grouping != NULL) {
            node_grouping_cell(grouping, &nodes[i], group_width, group, sizeof group);
            term_text_clean_in_place(group);
        }
        table_row(line, sizeof line, &nodes[i], &w, now);
        term_text_clean_in_place(line);
        fprintf(out, "%s%s\n", group, line);
        if (nodes[i].has_data && nodes[i].state != NODE_OK) {
            /* Stale data: say why it is not fresh, under it. */
            char problem[320];
            table_problem(problem, sizeof problem, &nodes[i]);
            term_text_clean_in_place(problem);
            fprintf(out, "%*s%-*s  %-*s  %s\n", grouping != NULL ? group_width + 2 : 0, "", w.node,
                    "", w.host, "", problem);
        }
    }
    free(order);
    struct table_totals totals;
    table_totals(nodes, count, &totals);
    table_total_line(line, sizeof line, &totals);
    fprintf(out, "%s\n", line);
}

static void number(struct json_writer *w, const char *key, double v) {
    json_key(w, key);
    json_double(w, v);
}

/* "history": the node's mean utilization per slot, oldest first, null for a gap. */
static void history_array(struct json_writer *w, const struct node *n, double now) {
    double values[NODE_HISTORY_CELLS];
    node_history_values(&n->history, now, values);
    json_key(w, "history");
    json_begin_array(w);
    for (size_t i = 0; i < NODE_HISTORY_CELLS; i++) {
        json_double(w, values[i]);
    }
    json_end_array(w);
}

static void node_object(struct json_writer *w, const struct node *n, double now) {
    const struct node_summary *s = &n->summary;
    json_begin_object(w);
    json_key(w, "address");
    json_string(w, n->address);
    json_key(w, "state");
    json_string(w, node_state_name(n->state));
    json_key(w, "reason");
    json_string(w, n->state == NODE_OK ? NULL : n->reason);
    json_key(w, "http_status");
    if (n->http_status > 0) {
        json_i64(w, n->http_status);
    } else {
        json_null(w);
    }
    number(w, "age_s", n->has_data ? (now > n->data_time ? now - n->data_time : 0) : NAN);
    history_array(w, n, now);
    json_key(w, "summary");
    if (!n->has_data) {
        json_null(w);
        json_end_object(w);
        return;
    }
    json_begin_object(w);
    json_key(w, "hostname");
    json_string(w, s->hostname[0] != '\0' ? s->hostname : NULL);
    json_key(w, "driver_version");
    json_string(w, s->driver[0] != '\0' ? s->driver : NULL);
    json_key(w, "exporter");
    json_string(w, s->dcgm ? "dcgm-exporter" : "nvitop-exporter");
    json_key(w, "gpu_count");
    json_u64(w, s->gpu_count);
    json_key(w, "mig_count");
    json_u64(w, s->mig_count);
    number(w, "utilization_mean_pct", s->util_mean);
    number(w, "utilization_max_pct", s->util_max);
    number(w, "memory_used_mib", s->memory_used_mib);
    number(w, "memory_total_mib", s->memory_total_mib);
    number(w, "power_w", s->power_w);
    number(w, "temperature_max_c", s->temperature_max_c);
    json_key(w, "gpu_idle_count");
    json_u64(w, s->idle_count);
    json_key(w, "process_count"); /* dcgm-exporter has no process metrics */
    if (s->dcgm) {
        json_null(w);
    } else {
        json_u64(w, s->process_count);
    }
    json_key(w, "health"); /* the flags' names, [] when none */
    json_begin_array(w);
    for (unsigned flag = 1; flag <= NODE_FLAG_ALL; flag <<= 1) {
        if (s->flags & flag) {
            json_string(w, node_flag_name((enum node_flag)flag));
        }
    }
    json_end_array(w);
    number(w, "xid_last", s->xid_last);
    json_key(w, "top_users");
    json_begin_array(w);
    for (size_t i = 0; i < s->user_count && i < NODE_TOP_USERS; i++) {
        json_begin_object(w);
        json_key(w, "username");
        json_string(w, s->users[i].name);
        number(w, "gpu_memory_mib", s->users[i].gpu_memory_mib);
        json_end_object(w);
    }
    json_end_array(w);
    json_end_object(w);
    json_end_object(w);
}

bool cluster_print_json(FILE *out, const struct node *nodes, size_t count, double now,
                        const struct cluster_source_info *source, double history_step_s) {
    struct strbuf text = STRBUF_INIT;
    struct json_writer w;
    json_init(&w, &text);
    json_begin_object(&w);
    json_key(&w, "schema");
    json_string(&w, "nvitop-cluster");
    json_key(&w, "schema_version");
    json_u64(&w, CLUSTER_JSON_SCHEMA_VERSION);
    json_key(&w, "generator");
    json_string(&w, "nvitop " NVT_VERSION_STRING);
    number(&w, "timestamp", now);
    json_key(&w, "source");
    json_begin_object(&w);
    json_key(&w, "kind");
    json_string(&w, source->kind);
    json_key(&w, "url");
    json_string(&w, source->url);
    json_end_object(&w);
    number(&w, "history_step_s", history_step_s);
    struct table_totals totals;
    table_totals(nodes, count, &totals);
    json_key(&w, "totals");
    json_begin_object(&w);
    json_key(&w, "nodes");
    json_u64(&w, totals.nodes);
    json_key(&w, "nodes_up");
    json_u64(&w, totals.nodes_up);
    json_key(&w, "gpu_count");
    json_u64(&w, totals.gpus);
    json_key(&w, "gpu_idle_count");
    json_u64(&w, totals.gpus_idle);
    number(&w, "memory_free_mib", totals.memory_free_mib);
    number(&w, "power_w", totals.power_w);
    json_end_object(&w);
    json_key(&w, "nodes");
    json_begin_array(&w);
    for (size_t i = 0; i < count; i++) {
        node_object(&w, &nodes[i], now);
    }
    json_end_array(&w);
    json_end_object(&w);
    bool ok = w.ok && strbuf_append_char(&text, '\n') &&
              fwrite(strbuf_cstr(&text), 1, text.len, out) == text.len && fflush(out) == 0;
    strbuf_fini(&text);
    return ok;
}
