/*
 * The memory a snapshot of many processes takes: h100-8gpu-1000.json's 1,000 GPU processes,
 * the first CHILDREN of them this test's own children (so their host data, strings included, is
 * real), the others pids that do not exist.  The packed block must hold what it hands out and
 * little else: the header, the devices, the per-CPU figures, one entry per GPU process and each
 * distinct process's strings once (docs/performance.md, "Memory at 1,000 processes").
 */
#include <malloc.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lib_testutil.h"
#include "nvt_cmocka.h"

#define CHILDREN           100
#define SCENARIO_PROCESSES 1000

static pid_t children[CHILDREN];

static int start_children(void **state) {
    (void)state;
    for (size_t i = 0; i < CHILDREN; i++) {
        pid_t pid = fork();
        if (pid == 0) {
            for (;;) {
                pause();
            }
        }
        if (pid < 0) {
            return -1;
        }
        children[i] = pid;
        char name[32];
        char value[32];
        snprintf(name, sizeof(name), "NVT_STANDIN_%zu", i + 1);
        snprintf(value, sizeof(value), "%d", (int)pid);
        setenv(name, value, 1);
    }
    return 0;
}

static int stop_children(void **state) {
    (void)state;
    for (size_t i = 0; i < CHILDREN; i++) {
        if (children[i] > 0) {
            kill(children[i], SIGKILL);
            waitpid(children[i], NULL, 0);
        }
    }
    return 0;
}

static size_t string_bytes(const char *text) {
    return (text != NULL ? strlen(text) : 0) + 1;
}

/* The bytes of one process's strings and argument pointers, with its worst alignment padding. */
static size_t host_bytes(const struct nvt_host_process *host) {
    size_t bytes = string_bytes(host->user) + string_bytes(host->name) +
                   string_bytes(host->command) + host->cmdline_count * sizeof(char *) +
                   sizeof(char *) - 1;
    for (size_t i = 0; i < host->cmdline_count; i++) {
        bytes += string_bytes(host->cmdline[i]);
    }
    return bytes;
}

static bool seen_before(const struct nvt_snapshot *snap, size_t i) {
    for (size_t j = 0; j < i; j++) {
        if (snap->processes[j].pid == snap->processes[i].pid) {
            return true;
        }
    }
    return false;
}

static void test_block_holds_what_it_hands_out(void **state) {
    (void)state;
    nvt_context *ctx = tu_open(tu_bundled_scenario("h100-8gpu-1000.json"));
    struct nvt_snapshot *snap = NULL;
    assert_int_equal(nvt_snapshot_take(ctx, NVT_SAMPLE_ALL, &snap), NVT_OK);
    assert_int_equal(snap->process_count, SCENARIO_PROCESSES);

    size_t expected = sizeof(*snap) + snap->device_count * sizeof(*snap->devices) +
                      snap->host.cpu_count * sizeof(double) +
                      snap->process_count * sizeof(*snap->processes) + 64;
    size_t real = 0;
    for (size_t i = 0; i < snap->process_count; i++) {
        const struct nvt_host_process *host = &snap->processes[i].host;
        if (!seen_before(snap, i)) {
            expected += host_bytes(host);
        }
        real += host->status == NVT_HOST_OK && host->command != NULL && host->command[0] != '\0';
    }
    assert_int_equal(real, CHILDREN);

    size_t block = malloc_usable_size(snap);
    printf("snapshot of %zu processes: %zu bytes, %zu expected at most\n", snap->process_count,
           block, expected);
    /* A block this large may be a mapping of its own, whole pages. */
    assert_true(block <= expected + 4096);
    nvt_snapshot_free(snap);
    nvt_close(ctx);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_block_holds_what_it_hands_out),
    };
    return cmocka_run_group_tests(tests, start_children, stop_children);
}
