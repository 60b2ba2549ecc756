#include "util/ring.h"

#include <stdlib.h>
#include <string.h>

#include "nvt_cmocka.h"
#include "util/sys/clock.h"
#include "util/xalloc.h"

static void test_ring(void **state) {
    (void)state;
    struct ring ring;
    assert_false(ring_init(&ring, 0, 4));
    assert_false(ring_init(&ring, 8, SIZE_MAX));
    ring_fini(&ring);
    assert_true(ring_init(&ring, sizeof(double), 3));
    assert_null(ring_newest(&ring));
    assert_null(ring_at(&ring, 0));
    for (int i = 1; i <= 5; i++) {
        double v = i;
        ring_push(&ring, &v);
    }
    assert_int_equal(ring.count, 3);
    assert_true(*(const double *)ring_at(&ring, 0) == 3.0);
    assert_true(*(const double *)ring_at(&ring, 2) == 5.0);
    assert_true(*(const double *)ring_newest(&ring) == 5.0);
    assert_null(ring_at(&ring, 3));
    ring_clear(&ring);
    assert_int_equal(ring.count, 0);
    ring_fini(&ring);
    ring_fini(&ring);
}

/* The storage grows by doubling while the ring fills and wraps at the capacity. */
static void test_ring_grows(void **state) {
    (void)state;
    struct ring ring;
    assert_true(ring_init(&ring, sizeof(int), 300));
    assert_true(ring.allocated < 300);
    for (int i = 0; i < 1000; i++) {
        ring_push(&ring, &i);
        assert_int_equal(ring.count, i < 300 ? i + 1 : 300);
        assert_int_equal(*(const int *)ring_newest(&ring), i);
        assert_int_equal(*(const int *)ring_at(&ring, 0), i < 300 ? 0 : i - 299);
    }
    assert_int_equal(ring.allocated, 300);
    ring_clear(&ring);
    int v = 7;
    ring_push(&ring, &v);
    assert_int_equal(*(const int *)ring_at(&ring, 0), 7);
    ring_fini(&ring);
}

static void test_clock(void **state) {
    (void)state;
    uint64_t a = clock_monotonic_ns();
    uint64_t b = clock_monotonic_ns();
    assert_true(b >= a);
    assert_true(clock_monotonic_s() > 0.0);
    /* Any date after 2020 will do. */
    assert_true(clock_wall_s() > 1577836800.0);
}

static void test_xalloc(void **state) {
    (void)state;
    char *s = xstrdup("nvitop");
    assert_string_equal(s, "nvitop");
    s = xrealloc(s, 100);
    assert_string_equal(s, "nvitop");
    free(s);
    int *zeros = xcalloc(4, sizeof(int));
    assert_int_equal(zeros[3], 0);
    free(zeros);
    free(xmalloc(0));
    xalloc_set_fatal_hook(NULL);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ring),
        cmocka_unit_test(test_ring_grows),
        cmocka_unit_test(test_clock),
        cmocka_unit_test(test_xalloc),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
