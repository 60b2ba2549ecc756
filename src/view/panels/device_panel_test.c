/*
 * Device panel and process table on a hand-made snapshot: every line has the panel's width in
 * all layouts the monitor uses, selection styles, and horizontal scrolling of process rows.
 */
#include "view/panels/device_panel.h"

#include <math.h>
#include <string.h>

#include "nvt_cmocka.h"
#include "util/array.h"
#include "view/processes/process_table.h"

static struct nvt_device_snapshot devices[2];
static struct nvt_gpu_process processes[2];
static struct nvt_snapshot snap;
static struct view_config config;

static void fill_device(struct nvt_device_snapshot *d, uint32_t index, uint32_t util) {
    memset(d, 0, sizeof(*d));
    d->info.index = index;
    d->info.mig_index = NVT_NA_U32;
    d->info.handle_status = NVT_OK;
    strcpy(d->info.name, "NVIDIA GeForce RTX 3090");
    strcpy(d->info.bus_id, "00000000:1A:00.0");
    d->state.memory_total_bytes = 24ULL << 30;
    d->state.memory_used_bytes = 20110ULL << 20;
    d->state.bar1_used_bytes = NVT_NA_U64;
    d->state.bar1_total_bytes = NVT_NA_U64;
    d->state.gpu_util_pct = util;
    d->state.memory_bandwidth_util_pct = 40;
    d->state.fan_speed_pct = 72;
    d->state.temperature_c = 71;
    d->state.power_usage_mw = 312000;
    d->state.power_limit_mw = 350000;
    d->state.performance_state = 2;
    d->state.persistence_mode = NVT_FEATURE_ENABLED;
    d->state.display_active = NVT_FEATURE_DISABLED;
    d->state.compute_mode = NVT_COMPUTE_MODE_DEFAULT;
    d->state.mig_mode = NVT_FEATURE_NA;
    d->state.ecc_uncorrected_volatile = NVT_NA_U64;
    d->state.clock_sm_mhz = 1980;
    d->state.clock_memory_mhz = 9751;
    d->parent = NVT_NA_SIZE;
}

static void fill_process(struct nvt_gpu_process *p, uint32_t pid, size_t device,
                         const char *command) {
    memset(p, 0, sizeof(*p));
    p->pid = pid;
    p->device = device;
    p->type = NVT_PROCESS_COMPUTE;
    p->gpu_memory_bytes = 1ULL << 30;
    p->sm_util_pct = 50;
    p->memory_util_pct = 10;
    p->host.pid = pid;
    p->host.status = NVT_HOST_OK;
    p->host.user = "someone-long";
    p->host.command = command;
    p->host.cpu_percent = 12.5;
    p->host.memory_percent = 0.5;
    p->host.running_time_s = 65;
}

static int setup(void **state) {
    (void)state;
    fill_device(&devices[0], 0, 87);
    fill_device(&devices[1], 1, 3);
    devices[1].state.memory_used_bytes = 3700ULL << 20; /* 15.1 %: moderate */
    fill_process(&processes[0], 4242, 0, "python3 train.py --epochs 100 --lr 1e-4 --batch-size 64");
    fill_process(&processes[1], 77, 1, "sleep 1000");
    memset(&snap, 0, sizeof(snap));
    strcpy(snap.system.driver_version, "525.85.12");
    snap.system.cuda_driver_version = 12000;
    snap.device_count = 2;
    snap.devices = devices;
    snap.process_count = 2;
    snap.processes = processes;
    memset(&config, 0, sizeof(config));
    config.thresholds = (struct view_thresholds){10, 75, 10, 80};
    config.user_name = "me";
    return 0;
}

static void assert_widths(const struct view_lines *lines, size_t width) {
    for (size_t i = 0; i < lines->count; i++) {
        assert_int_equal(view_line_width(&lines->items[i]), width);
    }
}

static void test_every_layout_has_the_panel_width(void **state) {
    (void)state;
    static const size_t widths[] = {79, 99, 100, 122, 123, 200};
    for (size_t i = 0; i < ARRAY_SIZE(widths); i++) {
        for (int compact = 0; compact < 2; compact++) {
            struct view_lines lines;
            view_lines_init(&lines);
            struct view_device_panel_options options = {widths[i], compact, NVT_NA_SIZE, "1.0.0"};
            view_device_panel(&snap, &config, &options, &lines);
            /* The header lines above the double rule keep nvitop's 79 columns (5 in the full
             * layout, 4 in the compact one); below 100 columns so does everything else. */
            size_t fixed = compact ? 4 : 5;
            struct view_lines head = {lines.items, fixed, fixed};
            struct view_lines rest = {lines.items + fixed, lines.count - fixed,
                                      lines.count - fixed};
            assert_widths(&head, 79);
            assert_widths(&rest, widths[i] >= 100 ? widths[i] : 79);
            assert_int_equal(lines.count, view_device_panel_height(&snap, &config, compact));
            view_lines_fini(&lines);
        }
    }
}

/* The height the monitor lays out with equals what is drawn: MIG groups, and no device at all. */
static void test_height_matches_rendering(void **state) {
    (void)state;
    struct nvt_device_snapshot mig[4];
    fill_device(&mig[0], 0, 0);
    mig[0].state.mig_mode = NVT_FEATURE_ENABLED;
    mig[0].first_child = 1;
    mig[0].child_count = 2;
    for (size_t k = 1; k <= 2; k++) {
        fill_device(&mig[k], 0, 0);
        mig[k].info.is_mig = true;
        mig[k].info.mig_index = (uint32_t)(k - 1);
        mig[k].parent = 0;
    }
    fill_device(&mig[3], 1, 50);
    mig[3].state.mig_mode = NVT_FEATURE_DISABLED;
    struct nvt_snapshot mig_snap = snap;
    mig_snap.devices = mig;
    mig_snap.device_count = 4;
    mig_snap.process_count = 0;
    struct nvt_snapshot empty = snap;
    empty.device_count = 0;
    empty.process_count = 0;
    const struct nvt_snapshot *cases[] = {&snap, &mig_snap, &empty};
    for (size_t c = 0; c < ARRAY_SIZE(cases); c++) {
        for (int compact = 0; compact < 2; compact++) {
            struct view_lines lines;
            view_lines_init(&lines);
            struct view_device_panel_options options = {120, compact, NVT_NA_SIZE, "1.0.0"};
            view_device_panel(cases[c], &config, &options, &lines);
            assert_int_equal(lines.count, view_device_panel_height(cases[c], &config, compact));
            view_lines_fini(&lines);
        }
    }
    /* A filter that hides every device leaves the "No visible devices found" box. */
    static const uint32_t none[] = {7};
    struct view_config filtered = config;
    filtered.device_filter = (struct view_device_filter){true, none, 1};
    struct view_lines lines;
    view_lines_init(&lines);
    view_device_panel(&snap, &filtered, NULL, &lines);
    assert_int_equal(lines.count, view_device_panel_height(&snap, &filtered, false));
    assert_int_equal(lines.count, 5);
    view_lines_fini(&lines);
}

static void test_selected_device_bold_others_dim(void **state) {
    (void)state;
    struct view_lines lines;
    view_lines_init(&lines);
    struct view_device_panel_options options = {79, false, 1, NULL};
    view_device_panel(&snap, &config, &options, &lines);
    /* Header (6 lines), GPU 0 (2 lines), separator, GPU 1 (2 lines), bottom. */
    assert_int_equal(lines.count, 12);
    const struct view_line *gpu0 = &lines.items[6];
    const struct view_line *gpu1 = &lines.items[9];
    assert_true(gpu0->span_count > 0 && gpu1->span_count > 0);
    assert_int_equal(gpu0->spans[0].style.attrs, VIEW_ATTR_DIM);
    assert_int_equal(gpu1->spans[0].style.attrs, VIEW_ATTR_BOLD);
    assert_int_equal(gpu0->spans[0].style.color, VIEW_COLOR_RED);    /* 87 % utilisation */
    assert_int_equal(gpu1->spans[0].style.color, VIEW_COLOR_YELLOW); /* 80 % memory */
    view_lines_fini(&lines);
}

static void test_process_rows_scroll_and_sort(void **state) {
    (void)state;
    struct view_process_table table;
    view_process_table_build(&snap, &config, VIEW_SORT_PID, false, &table);
    assert_int_equal(table.count, 2);
    assert_int_equal(table.rows[0].process->pid, 77);
    struct view_line row;
    view_line_init(&row);
    view_process_row_line(&table, 1, &config, 79, -1, &row);
    assert_int_equal(view_line_width(&row), 79);
    assert_non_null(strstr(row.text, "  4242 C someon+  1024MiB  50    10  12.5   0.5  1:05  "));
    assert_non_null(strstr(row.text, "python3 train.. │"));
    view_line_clear(&row);
    view_process_row_line(&table, 1, &config, 79, 20, &row);
    assert_int_equal(view_line_width(&row), 79);
    assert_non_null(strstr(row.text, " train.py --epochs"));
    view_line_fini(&row);
    view_process_table_fini(&table);

    view_process_table_build(&snap, &config, VIEW_SORT_NATURAL, true, &table);
    assert_int_equal(table.rows[0].process->pid, 77);
    view_process_table_fini(&table);
}

static void test_special_processes(void **state) {
    (void)state;
    static const struct {
        enum nvt_host_status status;
        const char *text;
        enum view_color color;
    } cases[] = {
        {NVT_HOST_GONE, "No Such Process", VIEW_COLOR_RED},
        {NVT_HOST_ZOMBIE, "Zombie Process", VIEW_COLOR_YELLOW},
        {NVT_HOST_NO_PERMISSION, "No Permissions", VIEW_COLOR_YELLOW},
        {NVT_HOST_NOT_IN_NAMESPACE, "No Such Process (not in this PID namespace; run with",
         VIEW_COLOR_RED},
    };
    for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
        processes[1].host.status = cases[i].status;
        struct view_process_table table;
        view_process_table_build(&snap, &config, VIEW_SORT_NATURAL, false, &table);
        struct view_line row;
        view_line_init(&row);
        view_process_row_line(&table, 1, &config, 140, -1, &row);
        assert_non_null(strstr(row.text, cases[i].text));
        /* Another user's process: everything but the GPU index is dim, the text coloured. */
        bool coloured = false;
        for (size_t k = 0; k < row.span_count; k++) {
            const struct view_span *span = &row.spans[k];
            if (span->style.color == cases[i].color && span->len > 0 &&
                strncmp(row.text + span->start, cases[i].text, strlen("No")) == 0) {
                coloured = true;
            }
        }
        assert_true(coloured);
        if (cases[i].status == NVT_HOST_GONE || cases[i].status == NVT_HOST_NOT_IN_NAMESPACE) {
            assert_non_null(strstr(row.text, "    N/A"));
        }
        view_line_fini(&row);
        view_process_table_fini(&table);
    }
    processes[1].host.status = NVT_HOST_OK;
}

static void test_sort_keys(void **state) {
    (void)state;
    enum view_sort_order order;
    bool reverse;
    assert_true(view_sort_from_key('b', &order, &reverse));
    assert_int_equal(order, VIEW_SORT_GPU_MEMORY_UTILIZATION);
    assert_false(reverse);
    assert_true(view_sort_from_key('T', &order, &reverse));
    assert_int_equal(order, VIEW_SORT_TIME);
    assert_true(reverse);
    assert_false(view_sort_from_key('z', &order, &reverse));
    assert_string_equal(view_sort_info(VIEW_SORT_GPU_MEMORY_UTILIZATION)->column, "GMBW");
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_layout_has_the_panel_width),
        cmocka_unit_test(test_height_matches_rendering),
        cmocka_unit_test(test_selected_device_bold_others_dim),
        cmocka_unit_test(test_process_rows_scroll_and_sort),
        cmocka_unit_test(test_special_processes),
        cmocka_unit_test(test_sort_keys),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
