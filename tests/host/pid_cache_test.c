/*
 * The pid cache's one table of two generations (pid_cache.c): a reading stored in a pass is still
 * there in the next, and forgotten at the end of that one unless stored (or carried) again, its
 * kept descriptors closed then; a pid taken by another process holds the old process's entry
 * until its generation ends, as the two tables of before did.  Many stores and sweeps, with pids
 * that share their home slot and clusters that wrap around the table's end, keep every lookup
 * equal to a model of the two generations.
 */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "linux_internal.h"
#include "nvt_cmocka.h"

/* A bare identity (nothing kept open), as the cache owns and frees one. */
static struct process_identity *bare_identity(void) {
    struct process_identity *identity = calloc(1, sizeof(*identity));
    assert_non_null(identity);
    identity->stat_fd = -1;
    identity->statm_fd = -1;
    identity->status_fd = -1;
    identity->cmdline_fd = -1;
    identity->schedstat_fd = -1;
    return identity;
}

/* An identity keeping a descriptor (of /dev/null) as its stat file, counted in the cache's budget
 * as pid_cache_open_kept() counts one; *fd is that descriptor. */
static struct process_identity *identity_keeping(struct pid_cache *cache, int *fd) {
    struct process_identity *identity = bare_identity();
    identity->stat_fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
    assert_true(identity->stat_fd >= 0);
    cache->kept_fds++;
    *fd = identity->stat_fd;
    return identity;
}

static bool fd_open(int fd) {
    return fcntl(fd, F_GETFD) != -1;
}

static void store(struct pid_cache *cache, uint32_t pid, uint64_t start, uint64_t cpu,
                  struct process_identity *identity) {
    const struct pid_cache_entry entry = {
        .pid = pid, .start_ticks = start, .cpu_ticks = cpu, .identity = identity};
    assert_true(pid_cache_store(cache, &entry));
}

/* An entry lives through the generation after the one that stored it, and no longer: its
 * descriptors close when it is forgotten.  Carrying it restamps it like a store. */
static void test_entry_lifetime(void **state) {
    (void)state;
    struct pid_cache cache;
    pid_cache_init(&cache);
    int fd_read = -1;
    int fd_carried = -1;
    store(&cache, 10, 100, 1, identity_keeping(&cache, &fd_read));
    store(&cache, 30, 300, 3, identity_keeping(&cache, &fd_carried));
    assert_int_equal(cache.current_count, 2);
    pid_cache_rotate(&cache);

    /* The next pass finds both; only 30 is carried into it. */
    const struct pid_cache_entry *hit = pid_cache_find(&cache, 10, 100);
    assert_non_null(hit);
    assert_int_equal(hit->cpu_ticks, 1);
    assert_non_null(hit->identity);
    assert_non_null(pid_cache_carry(&cache, 30));
    assert_int_equal(cache.count, 2);
    assert_int_equal(cache.current_count, 1);
    assert_true(fd_open(fd_read));
    pid_cache_rotate(&cache);

    /* Two passes without a read: forgotten, its descriptor closed. */
    assert_null(pid_cache_find_pid(&cache, 10));
    assert_false(fd_open(fd_read));
    assert_int_equal(cache.kept_fds, 1);
    assert_int_equal(cache.count, 1);
    hit = pid_cache_find(&cache, 30, 300);
    assert_non_null(hit);
    assert_int_equal(hit->cpu_ticks, 3);

    /* Another process takes pid 30: the old one's entry (and descriptor) stays for its own
     * lifetime, the new one's is the pid's newest. */
    int fd_new = -1;
    store(&cache, 30, 301, 4, identity_keeping(&cache, &fd_new));
    assert_int_equal(cache.count, 2);
    assert_int_equal(pid_cache_find_pid(&cache, 30)->start_ticks, 301);
    assert_int_equal(pid_cache_find(&cache, 30, 300)->cpu_ticks, 3);
    assert_true(fd_open(fd_carried));
    pid_cache_rotate(&cache);
    assert_false(fd_open(fd_carried));
    assert_null(pid_cache_find(&cache, 30, 300));
    assert_int_equal(pid_cache_find(&cache, 30, 301)->cpu_ticks, 4);
    assert_int_equal(cache.kept_fds, 1);

    /* Read again in the next pass, the same process's entry is taken over, not doubled. */
    store(&cache, 30, 301, 5, bare_identity());
    assert_int_equal(cache.count, 1);
    assert_false(fd_open(fd_new)); /* its identity replaced */
    assert_int_equal(cache.kept_fds, 0);
    pid_cache_rotate(&cache);
    pid_cache_rotate(&cache);
    assert_int_equal(cache.count, 0);
    assert_null(pid_cache_find_pid(&cache, 30));
    pid_cache_fini(&cache);
}

/* The model: what the two tables of before held, one entry per pid in each, except that a
 * process stored again takes over its entry of the previous generation. */
#define FAMILIES    4
#define FAMILY_SIZE 12
#define MODEL_PIDS  (FAMILIES * FAMILY_SIZE)
#define STEPS       20000

struct model_entry {
    bool present;
    uint64_t start;
    uint64_t cpu;
};

struct model {
    uint32_t pids[MODEL_PIDS];
    struct model_entry current[MODEL_PIDS];
    struct model_entry previous[MODEL_PIDS];
};

/* A pid whose home slot is the last one of tables of up to 256 slots (pid_cache.c's hash), so
 * that its cluster wraps around to the table's start. */
static uint32_t last_slot_pid(void) {
    uint32_t pid = 1;
    while (((pid * UINT32_C(2654435761)) & 255) != 255) {
        pid++;
    }
    return pid;
}

/* Families of pids 65536 apart share their home slot in every table the test grows; two bases
 * next to each other run their clusters together. */
static void model_init(struct model *m) {
    memset(m, 0, sizeof(*m));
    const uint32_t bases[FAMILIES] = {7, 8, 4000, last_slot_pid()};
    for (size_t f = 0; f < FAMILIES; f++) {
        for (size_t k = 0; k < FAMILY_SIZE; k++) {
            m->pids[f * FAMILY_SIZE + k] = bases[f] + (uint32_t)k * 65536u;
        }
    }
}

static void model_store(struct model *m, size_t i, uint64_t start, uint64_t cpu) {
    if (!m->current[i].present && m->previous[i].present && m->previous[i].start == start) {
        m->previous[i].present = false;
    }
    m->current[i] = (struct model_entry){true, start, cpu};
}

static void model_carry(struct model *m, size_t i) {
    if (!m->current[i].present && m->previous[i].present) {
        m->current[i] = m->previous[i];
        m->previous[i].present = false;
    }
}

static void model_rotate(struct model *m) {
    memcpy(m->previous, m->current, sizeof(m->previous));
    memset(m->current, 0, sizeof(m->current));
}

static const struct model_entry *model_find(const struct model *m, size_t i, uint64_t start) {
    if (m->current[i].present && m->current[i].start == start) {
        return &m->current[i];
    }
    return m->previous[i].present && m->previous[i].start == start ? &m->previous[i] : NULL;
}

static void expect_entry(const struct pid_cache_entry *hit, const struct model_entry *want) {
    if (want == NULL) {
        assert_null(hit);
        return;
    }
    assert_non_null(hit);
    assert_int_equal(hit->start_ticks, want->start);
    assert_int_equal(hit->cpu_ticks, want->cpu);
}

static void expect_model(struct pid_cache *cache, const struct model *m) {
    size_t count = 0;
    size_t current = 0;
    for (size_t i = 0; i < MODEL_PIDS; i++) {
        count += m->current[i].present + m->previous[i].present;
        current += m->current[i].present;
        for (uint64_t start = 1; start <= 2; start++) {
            expect_entry(pid_cache_find(cache, m->pids[i], start), model_find(m, i, start));
        }
        const struct model_entry *newest = m->current[i].present    ? &m->current[i]
                                           : m->previous[i].present ? &m->previous[i]
                                                                    : NULL;
        expect_entry(pid_cache_find_pid(cache, m->pids[i]), newest);
    }
    assert_int_equal(cache->count, count);
    assert_int_equal(cache->current_count, current);
    assert_true(cache->count * 2 <= cache->capacity);
}

/* Random stores (two processes take turns under each pid), carries and generation ends. */
static void test_matches_two_generations(void **state) {
    (void)state;
    struct model m;
    model_init(&m);
    struct pid_cache cache;
    pid_cache_init(&cache);
    uint32_t seed = 12345;
    for (uint64_t step = 1; step <= STEPS; step++) {
        seed = seed * 1103515245u + 12345u;
        uint32_t r = seed >> 8;
        size_t i = (r >> 8) % MODEL_PIDS;
        uint64_t start = 1 + ((r >> 16) & 1);
        if (r % 100 < 80) {
            store(&cache, m.pids[i], start, step, bare_identity());
            model_store(&m, i, start, step);
        } else if (r % 100 < 95) {
            bool known = m.current[i].present || m.previous[i].present;
            assert_true((pid_cache_carry(&cache, m.pids[i]) != NULL) == known);
            model_carry(&m, i);
        } else {
            pid_cache_rotate(&cache);
            model_rotate(&m);
        }
        expect_model(&cache, &m);
    }
    pid_cache_fini(&cache);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_entry_lifetime),
        cmocka_unit_test(test_matches_two_generations),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
