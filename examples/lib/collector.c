/*
 * The resource metric collector, as in the "Resource Metric Collector" section of nvitop's README:
 * nested tags around a training loop and a collect at the end of every epoch, whose results are
 * the time-weighted mean, min, max and last value of every metric since the tag was activated.
 * Prints the devices' means of each epoch and the maximum over the whole run.
 *
 *   usage: example-collector [EPOCHS]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <nvitop/nvitop.h>

static void train_one_epoch(void) {
    struct timespec pause = {0, 300 * 1000 * 1000}; /* the work the collector watches */
    nanosleep(&pause, NULL);
}

/* Print the metrics of the devices ("<tags>/gpu:<i>/...") whose key ends with suffix. */
static void print_devices(const struct nvt_metric *metrics, size_t count, const char *suffix) {
    for (size_t i = 0; i < count; i++) {
        const char *key = metrics[i].key;
        size_t len = strlen(key);
        size_t suffix_len = strlen(suffix);
        if (strstr(key, "/gpu:") != NULL && len > suffix_len &&
            strcmp(key + len - suffix_len, suffix) == 0) {
            printf("  %s = %.1f\n", key, metrics[i].value);
        }
    }
}

int main(int argc, char **argv) {
    int epochs = argc > 1 ? atoi(argv[1]) : 2;
    nvt_collector *collector = NULL;
    struct nvt_collector_options options;
    nvt_collector_options_init(&options); /* defaults: every GPU, this process's GPU work */
    options.interval_s = 0.25;
    nvt_status status = nvt_collector_create(&options, &collector);
    if (status != NVT_OK) {
        fprintf(stderr, "NVML ERROR: %s\n", nvt_strerror(status));
        return 1;
    }
    nvt_collector_activate(collector, "train");
    for (int epoch = 1; epoch <= epochs; epoch++) {
        nvt_collector_activate(collector, "epoch"); /* keys "train/epoch/..." */
        train_one_epoch();
        struct nvt_metric *metrics = NULL;
        size_t count = 0;
        if (nvt_collector_collect(collector, &metrics, &count) == NVT_OK) {
            printf("epoch %d:\n", epoch);
            print_devices(metrics, count, "/power_usage (W)/mean");
            print_devices(metrics, count, "/memory_used (MiB)/mean");
            nvt_metrics_free(metrics);
        }
        nvt_collector_deactivate(collector, "epoch");
    }
    struct nvt_metric *metrics = NULL;
    size_t count = 0;
    if (nvt_collector_collect(collector, &metrics, &count) == NVT_OK) {
        printf("whole run:\n");
        print_devices(metrics, count, "/temperature (C)/max");
        nvt_metrics_free(metrics);
    }
    nvt_collector_deactivate(collector, NULL);
    nvt_collector_destroy(collector);
    return 0;
}
