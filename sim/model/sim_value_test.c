/* Unit tests of value evaluation: constants, sines, schedules, clamping and integrals. */
#include "model/sim_value.h"

#include <math.h>

#include "nvt_cmocka.h"

static struct sim_point ramp[] = {{10.0, 0.0}, {20.0, 100.0}, {30.0, 0.0}};

static struct sim_num schedule(bool repeat) {
    return (struct sim_num){
        .kind = SIM_NUM_SCHEDULE, .points = ramp, .point_count = 3, .repeat = repeat, .max = 100.0};
}

static void test_constant_and_clamp(void **state) {
    (void)state;
    struct sim_num num = {.kind = SIM_NUM_CONSTANT, .base = 42.0, .max = 100.0};
    assert_true(sim_value_at(&num, 123.0) == 42.0);
    assert_true(sim_value_integral(&num, 2.0) == 84.0);
    struct sim_num sine = {
        .kind = SIM_NUM_SINE, .base = 90.0, .amplitude = 30.0, .period_s = 40.0, .max = 100.0};
    assert_true(sim_value_at(&sine, 10.0) == 100.0); /* 120 clamped */
    assert_true(fabs(sim_value_at(&sine, 30.0) - 60.0) < 1e-9);
    /* A whole period of a sine integrates to base * period. */
    assert_true(fabs(sim_value_integral(&sine, 40.0) - 3600.0) < 1e-6);
}

static void test_schedule(void **state) {
    (void)state;
    struct sim_num once = schedule(false);
    assert_true(sim_value_at(&once, 0.0) == 0.0);
    assert_true(sim_value_at(&once, 15.0) == 50.0);
    assert_true(sim_value_at(&once, 25.0) == 50.0);
    assert_true(sim_value_at(&once, 99.0) == 0.0);
    struct sim_num again = schedule(true);
    assert_true(sim_value_at(&again, 35.0) == 50.0); /* 35 -> 15 */
    assert_true(sim_value_at(&again, 40.0) == 100.0);
    /* The triangle from 10 to 30 has area 1000; repeating adds 1000 per 20 s, starting with the
     * rising half (500) from 30 to 40. */
    assert_true(fabs(sim_value_integral(&once, 30.0) - 1000.0) < 1e-9);
    assert_true(fabs(sim_value_integral(&once, 50.0) - 1000.0) < 1e-9);
    assert_true(fabs(sim_value_integral(&again, 70.0) - 3000.0) < 1e-9);
    assert_true(fabs(sim_value_integral(&again, 40.0) - 1500.0) < 1e-9);
}

static void test_copy_string(void **state) {
    (void)state;
    char buf[4];
    assert_int_equal(sim_copy_string("abc", buf, 4), NVML_SUCCESS);
    assert_string_equal(buf, "abc");
    assert_int_equal(sim_copy_string("abcd", buf, 4), NVML_ERROR_INSUFFICIENT_SIZE);
    assert_int_equal(sim_copy_string("a", NULL, 4), NVML_ERROR_INVALID_ARGUMENT);
    struct sim_text text = {.error = NVML_ERROR_NO_PERMISSION};
    assert_int_equal(sim_copy_text(&text, buf, 4), NVML_ERROR_NO_PERMISSION);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_constant_and_clamp),
        cmocka_unit_test(test_schedule),
        cmocka_unit_test(test_copy_string),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
