/*
 * The tree view's rows: ancestors up to the roots, direct children only, nvitop's order (roots by
 * pid, children by vanished, user, pid), prefixes, the DEVICE column, a vanished GPU process and
 * a parent loop (which must neither hang nor hide the processes).
 */
#include "view/processes/process_tree.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nvt_cmocka.h"
#include "util/array.h"

/* Host processes the reader knows: pid, ppid, user, command. */
static const struct {
    uint32_t pid;
    uint32_t ppid;
    const char *user;
    const char *command;
} known[] = {
    {1, 0, "root", "/sbin/init"},    {10, 1, "root", "sh job.sh"},  {11, 10, "root", "sleep 1"},
    {30, 20, "root", "worker b"},    {31, 20, "alice", "worker a"}, {32, 30, "root", "grandchild"},
    {61, 60, "root", "loop parent"},
};

static struct nvt_host_process host(uint32_t pid, uint32_t ppid, const char *user,
                                    const char *command) {
    struct nvt_host_process h = {
        .pid = pid,
        .status = NVT_HOST_OK,
        .ppid = ppid,
        .num_threads = 2,
        .user = user,
        .name = "name",
        .command = command,
        .cpu_percent = 1.5,
        .memory_percent = 0.25,
        .create_time = 1000.0 + pid,
        .running_time_s = 61.0,
    };
    return h;
}

static struct nvt_host_process *read_known(void *arg, uint32_t pid) {
    int *reads = arg;
    (*reads)++;
    for (size_t i = 0; i < ARRAY_SIZE(known); i++) {
        if (known[i].pid == pid) {
            struct nvt_host_process *p = malloc(sizeof(*p));
            assert_non_null(p);
            *p = host(pid, known[i].ppid, known[i].user, known[i].command);
            return p;
        }
    }
    return NULL;
}

/* The text of a row from the COMMAND column on. */
static const char *command_of(const struct view_process_tree *tree, size_t row) {
    static char buf[256];
    const struct view_line *line = &tree->rows[row].line;
    /* Columns before COMMAND are ASCII: the byte offset is the cell offset. */
    snprintf(buf, sizeof(buf), "%.*s", (int)(line->len - tree->command_col),
             line->text + tree->command_col);
    return buf;
}

static void test_tree(void **state) {
    (void)state;
    struct nvt_gpu_process gpus[5] = {0};
    gpus[0].pid = 20;
    gpus[0].host = host(20, 10, "root", "python train.py");
    gpus[1] = gpus[0]; /* the same process on a second (MIG) device */
    gpus[2].pid = 40;
    gpus[2].host = host(40, 1, "root", "python eval.py");
    gpus[3].pid = 50;
    gpus[3].host = host(50, 1, "", "");
    gpus[3].host.status = NVT_HOST_GONE;
    gpus[4].pid = 60;
    gpus[4].host = host(60, 61, "root", "loop child");
    struct view_process_row rows[5] = {0};
    static const char *const display[] = {"0", "1:0", "0", "1", "1"};
    static const size_t slots[] = {0, 2, 0, 1, 1};
    for (size_t i = 0; i < 5; i++) {
        rows[i].process = &gpus[i];
        rows[i].device_slot = slots[i];
        snprintf(rows[i].display_index, sizeof(rows[i].display_index), "%s", display[i]);
    }
    struct view_process_table table = {.rows = rows, .count = 5};
    static const uint32_t pids[] = {1, 10, 11, 20, 30, 31, 32, 40, 60, 61};
    static const uint32_t ppids[] = {0, 1, 10, 10, 20, 20, 30, 1, 61, 60};
    struct view_config config = {.user_name = "alice"};
    struct view_process_tree tree;
    int reads = 0;
    view_process_tree_build(&table, pids, ppids, 10, read_known, &reads, &config, &tree);

    static const struct {
        uint32_t pid;
        const char *command;
    } expected[] = {
        {1, "/sbin/init"},         {10, "├─ sh job.sh"},      {20, "│  └─ python train.py"},
        {31, "│     ├─ worker a"}, {30, "│     └─ worker b"}, {40, "└─ python eval.py"},
        {50, "No Such Process"},   {61, "loop parent"},       {60, "└─ loop child"},
    };
    size_t count = ARRAY_SIZE(expected);
    assert_int_equal(tree.count, count);
    for (size_t i = 0; i < count; i++) {
        assert_int_equal(tree.rows[i].pid, expected[i].pid);
        assert_string_equal(command_of(&tree, i), expected[i].command);
    }
    /* Ancestors 1, 10, 61 and children 30, 31: five reads, none for 11 or 32. */
    assert_int_equal(reads, 5);
    assert_true(tree.rows[2].gpu);
    assert_false(tree.rows[1].gpu);
    assert_true(tree.rows[3].owned);  /* alice's */
    assert_false(tree.rows[4].owned); /* root's */
    assert_true(isnan(tree.rows[6].create_time));
    assert_int_equal(tree.rows[2].create_time, 1020.0);

    assert_string_equal(tree.header.text, "PID  USER      DEVICE  NLWP  %CPU  %MEM  TIME  COMMAND");
    assert_string_equal(tree.rows[2].line.text,
                        " 20  root   GPU 0,1:0     2   1.5   0.2  1:01  │  └─ python train.py");
    assert_string_equal(tree.rows[1].line.text,
                        " 10  root        Host     2   1.5   0.2  1:01  ├─ sh job.sh");
    assert_string_equal(tree.rows[6].line.text,
                        " 50  N/A        GPU 1   N/A   N/A   N/A   N/A  No Such Process");
    assert_int_equal(view_process_tree_find(&tree, 20, 1020.001), 2);
    assert_int_equal(view_process_tree_find(&tree, 20, 1030.0), -1);
    assert_int_equal(view_process_tree_find(&tree, 50, NAN), 6);
    view_process_tree_fini(&tree);
}

static void test_empty(void **state) {
    (void)state;
    struct view_process_table table = {0};
    struct view_config config = {0};
    struct view_process_tree tree;
    int reads = 0;
    view_process_tree_build(&table, NULL, NULL, 0, read_known, &reads, &config, &tree);
    assert_int_equal(tree.count, 0);
    assert_int_equal(reads, 0);
    view_process_tree_fini(&tree);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tree),
        cmocka_unit_test(test_empty),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
