#include "driver/sim_reload.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "driver/sim_branch.h"
#include "scenario/scenario.h"

static bool same_file(const struct sim_file_id *a, const struct sim_file_id *b) {
    return a->device == b->device && a->inode == b->inode && a->size == b->size &&
           a->modified.tv_sec == b->modified.tv_sec && a->modified.tv_nsec == b->modified.tv_nsec &&
           a->changed.tv_sec == b->changed.tv_sec && a->changed.tv_nsec == b->changed.tv_nsec;
}

static long long coarse_now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC_COARSE, &ts);
    return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* Parses the changed file; the caller holds the watch's busy flag. */
static struct sim_model *reload(struct sim_watch *watch, const struct sim_file_id *id) {
    struct sim_model *model = NULL;
    char *message = NULL;
    nvmlReturn_t ret = sim_branch_load(watch->path, &model, &message);
    if (ret == NVML_SUCCESS) {
        watch->loaded = *id;
        watch->has_rejected = false;
        return model;
    }
    /* A half-written file is rejected too; the final write changes the identity again, so it
     * is picked up on a later poll.  Each rejected version is reported once. */
    if (!watch->has_rejected || !same_file(&watch->rejected, id)) {
        fprintf(stderr, "%s\n", message != NULL ? message : "nvml-sim: out of memory");
        fflush(stderr);
    }
    watch->rejected = *id;
    watch->has_rejected = true;
    free(message);
    return NULL;
}

struct sim_model *sim_watch_poll(struct sim_watch *watch) {
    long long now = coarse_now_ns();
    long long due = atomic_load_explicit(&watch->next_check_ns, memory_order_relaxed);
    if (now < due || watch->path == NULL) {
        return NULL;
    }
    if (atomic_flag_test_and_set_explicit(&watch->busy, memory_order_acquire)) {
        return NULL;
    }
    atomic_store_explicit(&watch->next_check_ns, now + SIM_WATCH_INTERVAL_MS * 1000000LL,
                          memory_order_relaxed);
    struct sim_model *model = NULL;
    struct sim_file_id id;
    if (sim_file_identity(watch->path, &id) && !same_file(&id, &watch->loaded) &&
        !(watch->has_rejected && same_file(&id, &watch->rejected))) {
        model = reload(watch, &id);
    }
    atomic_flag_clear_explicit(&watch->busy, memory_order_release);
    return model;
}
