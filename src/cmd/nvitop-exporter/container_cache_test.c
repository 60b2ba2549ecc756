/* container_cache.h: a process keeps the name read at its first pass, whatever its place in
 * the list; a new process, a reused pid (another create time) and an unknown create time are
 * looked up; one process on two GPUs is looked up once; every name lands at its own index; the
 * same list again looks nothing up. */
#include "container_cache.h"

#include <math.h>
#include <stdio.h>

#include "nvt_cmocka.h"
#include "util/array.h"

struct lookups {
    unsigned count;
    unsigned calls_for[64]; /* by pid */
};

/* Names a pid "c<pid>-<n>", n the lookup's number, so a name read again shows. */
static void fake_lookup(void *arg, uint32_t pid, char *name, size_t size) {
    struct lookups *l = arg;
    l->count++;
    if (pid < 64) {
        l->calls_for[pid]++;
    }
    snprintf(name, size, "c%u-%u", (unsigned)pid, l->count);
}

static struct nvt_gpu_process proc(uint32_t pid, double create_time) {
    struct nvt_gpu_process p = {0};
    p.pid = pid;
    p.host.create_time = create_time;
    return p;
}

static void test_kept_by_identity(void **state) {
    (void)state;
    struct container_cache cache = {0};
    struct lookups l = {0};
    const char *names[6];

    /* Pid 7 on two GPUs; pid 9's create time unknown. */
    struct nvt_gpu_process first[] = {proc(30, 100.0), proc(7, 50.0), proc(12, 60.0), proc(7, 50.0),
                                      proc(9, NAN)};
    assert_true(container_cache_resolve(&cache, first, ARRAY_SIZE(first), fake_lookup, &l, names));
    assert_int_equal(l.count, 5);
    assert_string_equal(names[0], "c30-1");
    assert_string_equal(names[1], "c7-2");
    assert_string_equal(names[2], "c12-3");
    assert_string_equal(names[3], "c7-4");
    assert_string_equal(names[4], "c9-5");

    /* Another order; 12 gone; 30's pid reused by a new process; 41 new; 9 still unknown. */
    struct nvt_gpu_process second[] = {proc(41, 200.0), proc(9, NAN), proc(7, 50.0),
                                       proc(30, 150.0), proc(7, 50.0)};
    assert_true(
        container_cache_resolve(&cache, second, ARRAY_SIZE(second), fake_lookup, &l, names));
    assert_int_equal(l.count, 7);
    assert_string_equal(names[0], "c41-6");
    assert_string_equal(names[1], "c9-5");
    assert_true(names[2][0] == 'c' && names[2][1] == '7');
    assert_string_equal(names[3], "c30-7");
    assert_true(names[4][0] == 'c' && names[4][1] == '7');
    assert_int_equal(l.calls_for[7], 2);  /* both first-pass entries of 7 were kept */
    assert_int_equal(l.calls_for[30], 2); /* the reused pid was read again */
    assert_int_equal(l.calls_for[12], 1);

    /* 12 comes back: it was dropped with the pass that lost it, so it is read again. */
    struct nvt_gpu_process third[] = {proc(12, 60.0)};
    assert_true(container_cache_resolve(&cache, third, ARRAY_SIZE(third), fake_lookup, &l, names));
    assert_string_equal(names[0], "c12-8");

    /* An empty pass empties the cache. */
    assert_true(container_cache_resolve(&cache, NULL, 0, fake_lookup, &l, names));
    assert_int_equal(cache.count, 0);
    container_cache_fini(&cache);
}

/* The same list again, then one process replaced at its place, then the list reordered: each
 * process is found wherever it stands. */
static void test_same_list_then_changes(void **state) {
    (void)state;
    struct container_cache cache = {0};
    struct lookups l = {0};
    const char *names[3];
    struct nvt_gpu_process a[] = {proc(1, 1.0), proc(2, 2.0), proc(3, 3.0)};
    assert_true(container_cache_resolve(&cache, a, 3, fake_lookup, &l, names));
    assert_true(container_cache_resolve(&cache, a, 3, fake_lookup, &l, names));
    assert_int_equal(l.count, 3);
    assert_string_equal(names[2], "c3-3");
    struct nvt_gpu_process b[] = {proc(1, 1.0), proc(2, 2.0), proc(4, 4.0)};
    assert_true(container_cache_resolve(&cache, b, 3, fake_lookup, &l, names));
    assert_int_equal(l.count, 4);
    assert_string_equal(names[2], "c4-4");
    struct nvt_gpu_process c[] = {proc(4, 4.0), proc(3, 3.0), proc(2, 2.0), proc(1, 1.0)};
    const char *more[4];
    assert_true(container_cache_resolve(&cache, c, 4, fake_lookup, &l, more));
    assert_int_equal(l.count, 5);
    assert_string_equal(more[0], "c4-4");
    assert_string_equal(more[1], "c3-5");
    assert_string_equal(more[2], "c2-2");
    assert_string_equal(more[3], "c1-1");
    container_cache_fini(&cache);
}

/* Many processes in descending pid order, twice: the second pass looks nothing up. */
static void test_many(void **state) {
    (void)state;
    enum {
        N = 3000
    };
    static struct nvt_gpu_process procs[N];
    static const char *names[N];
    for (size_t i = 0; i < N; i++) {
        procs[i] = proc((uint32_t)(N - i) + 100, (double)i);
    }
    struct container_cache cache = {0};
    struct lookups l = {0};
    assert_true(container_cache_resolve(&cache, procs, N, fake_lookup, &l, names));
    assert_int_equal(l.count, N);
    assert_true(container_cache_resolve(&cache, procs, N, fake_lookup, &l, names));
    assert_int_equal(l.count, N);
    for (size_t i = 0; i < N; i++) {
        char want[32];
        snprintf(want, sizeof(want), "c%u-%zu", procs[i].pid, i + 1);
        assert_string_equal(names[i], want);
    }
    container_cache_fini(&cache);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_kept_by_identity),
        cmocka_unit_test(test_same_list_then_changes),
        cmocka_unit_test(test_many),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
