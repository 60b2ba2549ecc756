/*
 * Call latencies from the scenario ("call_latency"): a configured call takes at least its
 * latency, "*" sets the default, a rewritten file changes them, a signal handler does not cut a
 * sleep short, and a stalled call holds no lock that reloads, init or shutdown need.  Only lower
 * bounds are asserted: a loaded machine may take any time longer.
 */
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "nvt_cmocka.h"
#include "sim_support.h"
#include "test_clock.h"

static struct sim_api api;

/* A stalled call is still sleeping inside the library: it must stay loaded. */
static bool keep_library_loaded;

static int setup(void **state) {
    (void)state;
    sim_api_load(&api, NULL);
    setenv("NVML_SIM_TIME", "0", 1);
    return 0;
}

static int teardown(void **state) {
    (void)state;
    if (!keep_library_loaded) {
        sim_api_unload(&api);
    }
    return 0;
}

static void pause_ms(long ms) {
    struct timespec pause = {.tv_sec = ms / 1000, .tv_nsec = (ms % 1000) * 1000000L};
    nanosleep(&pause, NULL);
}

/* Writes a one-GPU machine named `name` with the given "call_latency" members to `file` in the
 * test's directory and returns its path (a static buffer). */
static const char *write_machine(const char *file, const char *name, const char *latency) {
    static char path[512];
    snprintf(path, sizeof(path), "%s/%s", sim_temp_dir(), file);
    char text[1024];
    snprintf(text, sizeof(text),
             "{\"driver\": {\"version\": \"550.54.15\", \"cuda_version\": 12040},\n"
             " \"call_latency\": {%s},\n"
             " \"devices\": [{\"name\": \"%s\", \"uuid\": \"GPU-1\",\n"
             "   \"pci\": {\"bus_id\": \"00000000:01:00.0\"},\n"
             "   \"fan\": 40, \"temperature\": 50}]}\n",
             latency, name);
    sim_write_file(path, text);
    return path;
}

/* Seconds one fan-speed query takes. */
static double time_fan(nvmlDevice_t dev) {
    unsigned int fan = 0;
    double start = test_now_s();
    assert_int_equal(api.nvmlDeviceGetFanSpeed(dev, &fan), NVML_SUCCESS);
    double elapsed = test_now_s() - start;
    assert_int_equal(fan, 40);
    return elapsed;
}

static void test_configured_calls_take_their_latency(void **state) {
    (void)state;
    const char *path = write_machine(
        "latency.json", "NVIDIA L4",
        "\"nvmlDeviceGetFanSpeed\": 0.25, \"*\": 0.05, \"nvmlDeviceGetHandleByIndex_v2\": 0.1");
    setenv("NVML_SIM_SCENARIO", path, 1);

    double start = test_now_s();
    assert_int_equal(api.nvmlInit_v2(), NVML_SUCCESS);
    assert_true(test_now_s() - start >= 0.05);

    nvmlDevice_t dev = NULL;
    start = test_now_s();
    assert_int_equal(api.nvmlDeviceGetHandleByIndex_v2(0, &dev), NVML_SUCCESS);
    assert_true(test_now_s() - start >= 0.1);

    assert_true(time_fan(dev) >= 0.25);

    /* "*" is the default for the rest, errors included. */
    unsigned int temperature = 0;
    start = test_now_s();
    assert_int_equal(api.nvmlDeviceGetTemperature(dev, NVML_TEMPERATURE_GPU, &temperature),
                     NVML_SUCCESS);
    assert_true(test_now_s() - start >= 0.05);
    assert_int_equal(temperature, 50);
    start = test_now_s();
    assert_int_equal(api.nvmlDeviceGetFanSpeed(dev, NULL), NVML_ERROR_INVALID_ARGUMENT);
    assert_true(test_now_s() - start >= 0.25);

    start = test_now_s();
    assert_int_equal(api.nvmlShutdown(), NVML_SUCCESS);
    assert_true(test_now_s() - start >= 0.05);

    /* Without an initialised driver there is no scenario, so no latency to take. */
    unsigned int fan = 0;
    assert_int_equal(api.nvmlDeviceGetFanSpeed(dev, &fan), NVML_ERROR_UNINITIALIZED);
}

/* A latency may come from the environment ("${NAME:-default}"), so that one file serves a driver
 * that blocks and one that answers at once (h100-8gpu.json's PCIe query). */
static void test_latency_from_a_placeholder(void **state) {
    (void)state;
    const char *path = write_machine("placeholder.json", "NVIDIA L4",
                                     "\"nvmlDeviceGetFanSpeed\": \"${NVT_TEST_FAN_LATENCY:-0.2}\"");
    setenv("NVML_SIM_SCENARIO", path, 1);
    unsetenv("NVT_TEST_FAN_LATENCY");
    assert_int_equal(api.nvmlInit_v2(), NVML_SUCCESS);
    nvmlDevice_t dev = NULL;
    assert_int_equal(api.nvmlDeviceGetHandleByIndex_v2(0, &dev), NVML_SUCCESS);
    assert_true(time_fan(dev) >= 0.2); /* the default */
    assert_int_equal(api.nvmlShutdown(), NVML_SUCCESS);

    setenv("NVT_TEST_FAN_LATENCY", "0.3", 1);
    assert_int_equal(api.nvmlInit_v2(), NVML_SUCCESS);
    assert_int_equal(api.nvmlDeviceGetHandleByIndex_v2(0, &dev), NVML_SUCCESS);
    assert_true(time_fan(dev) >= 0.3); /* the variable's */
    assert_int_equal(api.nvmlShutdown(), NVML_SUCCESS);

    setenv("NVT_TEST_FAN_LATENCY", "fast", 1); /* not a number: the scenario is refused */
    assert_int_equal(api.nvmlInit_v2(), NVML_ERROR_UNKNOWN);
    unsetenv("NVT_TEST_FAN_LATENCY");
}

static void test_latency_follows_the_file(void **state) {
    (void)state;
    const char *path = write_machine("reload.json", "NVIDIA L4", "");
    setenv("NVML_SIM_SCENARIO", path, 1);
    assert_int_equal(api.nvmlInit_v2(), NVML_SUCCESS);
    nvmlDevice_t dev = NULL;
    assert_int_equal(api.nvmlDeviceGetHandleByIndex_v2(0, &dev), NVML_SUCCESS);
    char name[96] = "";
    assert_int_equal(api.nvmlDeviceGetName(dev, name, sizeof(name)), NVML_SUCCESS);
    assert_string_equal(name, "NVIDIA L4");

    /* The rewrite renames the GPU too, so the test can tell when it has been picked up. */
    write_machine("reload.json", "NVIDIA L40S", "\"nvmlDeviceGetFanSpeed\": 0.3");
    double deadline = test_now_s() + 10.0;
    while (strcmp(name, "NVIDIA L40S") != 0 && test_now_s() < deadline) {
        pause_ms(10);
        assert_int_equal(api.nvmlDeviceGetName(dev, name, sizeof(name)), NVML_SUCCESS);
    }
    assert_string_equal(name, "NVIDIA L40S");
    assert_true(time_fan(dev) >= 0.3);

    /* A malformed latency is reported and the previous scenario, with its latency, stays. */
    write_machine("reload.json", "NVIDIA H100", "\"nvmlDeviceGetFanSpeed\": -1");
    pause_ms(400);
    assert_int_equal(api.nvmlDeviceGetName(dev, name, sizeof(name)), NVML_SUCCESS);
    assert_string_equal(name, "NVIDIA L40S");
    assert_true(time_fan(dev) >= 0.3);
    assert_int_equal(api.nvmlShutdown(), NVML_SUCCESS);
}

static atomic_int signals_caught;

static void on_signal(int signal_number) {
    (void)signal_number;
    atomic_fetch_add(&signals_caught, 1);
}

struct timed_call {
    nvmlDevice_t dev;
    double elapsed_s;
    atomic_bool done;
};

static void *call_fan(void *arg) {
    struct timed_call *call = arg;
    unsigned int fan = 0;
    double start = test_now_s();
    nvmlReturn_t ret = api.nvmlDeviceGetFanSpeed(call->dev, &fan);
    call->elapsed_s = test_now_s() - start;
    atomic_store(&call->done, true);
    return ret == NVML_SUCCESS ? NULL : (void *)1;
}

static void test_signals_do_not_shorten_the_sleep(void **state) {
    (void)state;
    /* No SA_RESTART: every signal interrupts the sleep with EINTR. */
    struct sigaction action;
    memset(&action, 0, sizeof(action));
    action.sa_handler = on_signal;
    sigemptyset(&action.sa_mask);
    struct sigaction previous;
    assert_int_equal(sigaction(SIGUSR1, &action, &previous), 0);
    const char *path = write_machine("signals.json", "NVIDIA L4", "\"nvmlDeviceGetFanSpeed\": 0.5");
    setenv("NVML_SIM_SCENARIO", path, 1);
    assert_int_equal(api.nvmlInit_v2(), NVML_SUCCESS);
    struct timed_call call = {.elapsed_s = 0.0};
    assert_int_equal(api.nvmlDeviceGetHandleByIndex_v2(0, &call.dev), NVML_SUCCESS);
    atomic_store(&signals_caught, 0);
    pthread_t thread;
    assert_int_equal(pthread_create(&thread, NULL, call_fan, &call), 0);
    while (!atomic_load(&call.done)) {
        pthread_kill(thread, SIGUSR1);
        pause_ms(20);
    }
    void *result = NULL;
    assert_int_equal(pthread_join(thread, &result), 0);
    assert_null(result);
    assert_true(atomic_load(&signals_caught) > 0);
    assert_true(call.elapsed_s >= 0.5);
    assert_int_equal(sigaction(SIGUSR1, &previous, NULL), 0);
    assert_int_equal(api.nvmlShutdown(), NVML_SUCCESS);
}

/* Reads the whole file into buf (empty when it does not exist). */
static void read_text(const char *path, char *buf, size_t size) {
    buf[0] = '\0';
    FILE *f = fopen(path, "r");
    if (f != NULL) {
        size_t n = fread(buf, 1, size - 1, f);
        buf[n] = '\0';
        fclose(f);
    }
}

/* Last: the stalled call sleeps on after the test program has ended. */
static void test_a_stall_holds_no_lock(void **state) {
    (void)state;
    char calls[512];
    snprintf(calls, sizeof(calls), "%s/stall-calls.txt", sim_temp_dir());
    remove(calls);
    setenv("NVML_SIM_CALLS_FILE", calls, 1);
    const char *path = write_machine("stall.json", "NVIDIA L4", "\"nvmlDeviceGetFanSpeed\": 600");
    setenv("NVML_SIM_SCENARIO", path, 1);
    assert_int_equal(api.nvmlInit_v2(), NVML_SUCCESS);
    static struct timed_call call;
    assert_int_equal(api.nvmlDeviceGetHandleByIndex_v2(0, &call.dev), NVML_SUCCESS);
    pthread_t thread;
    assert_int_equal(pthread_create(&thread, NULL, call_fan, &call), 0);
    assert_int_equal(pthread_detach(thread), 0);
    keep_library_loaded = true;

    /* A stall announces itself by writing the call counts before it sleeps. */
    char text[8192] = "";
    double deadline = test_now_s() + 10.0;
    while (strstr(text, "nvmlDeviceGetFanSpeed ") == NULL && test_now_s() < deadline) {
        pause_ms(10);
        read_text(calls, text, sizeof(text));
    }
    assert_non_null(strstr(text, "nvmlDeviceGetFanSpeed "));
    unsetenv("NVML_SIM_CALLS_FILE");

    /* Everything that takes the driver's lock exclusively works meanwhile: a reload, an init and
     * a shutdown; other queries too. */
    write_machine("stall.json", "NVIDIA L40S", "\"nvmlDeviceGetFanSpeed\": 600");
    nvmlDevice_t dev = call.dev;
    char name[96] = "";
    deadline = test_now_s() + 10.0;
    while (strcmp(name, "NVIDIA L40S") != 0 && test_now_s() < deadline) {
        pause_ms(10);
        assert_int_equal(api.nvmlDeviceGetName(dev, name, sizeof(name)), NVML_SUCCESS);
    }
    assert_string_equal(name, "NVIDIA L40S");
    assert_int_equal(api.nvmlInit_v2(), NVML_SUCCESS);
    assert_int_equal(api.nvmlShutdown(), NVML_SUCCESS);
    unsigned int temperature = 0;
    assert_int_equal(api.nvmlDeviceGetTemperature(dev, NVML_TEMPERATURE_GPU, &temperature),
                     NVML_SUCCESS);
    assert_false(atomic_load(&call.done));
    assert_int_equal(api.nvmlShutdown(), NVML_SUCCESS);
    assert_false(atomic_load(&call.done));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_configured_calls_take_their_latency),
        cmocka_unit_test(test_latency_from_a_placeholder),
        cmocka_unit_test(test_latency_follows_the_file),
        cmocka_unit_test(test_signals_do_not_shorten_the_sleep),
        cmocka_unit_test(test_a_stall_holds_no_lock),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
