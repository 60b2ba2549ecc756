/*
 * Watching the scenario file for changes.  A client that keeps running sees a rewritten file
 * within a quarter of a second: the file's identity is checked with stat(2) at most every
 * SIM_WATCH_INTERVAL_MS, timed with the coarse monotonic clock (no system call through the vDSO),
 * and the file is parsed once per change, never per query.
 */
#ifndef NVITOP_SIM_DRIVER_SIM_RELOAD_H
#define NVITOP_SIM_DRIVER_SIM_RELOAD_H

#include <stdatomic.h>
#include <stdbool.h>
#include <sys/types.h>
#include <time.h>

#include "model/sim_model.h"

#define SIM_WATCH_INTERVAL_MS 150

/* What tells two versions of a file apart without reading them. */
struct sim_file_id {
    dev_t device;
    ino_t inode;
    off_t size;
    struct timespec modified;
    struct timespec changed;
};

struct sim_watch {
    char *path;                /* owned */
    struct sim_file_id loaded; /* the version the current model came from */
    struct sim_file_id rejected;
    bool has_rejected;
    atomic_llong next_check_ns;
    atomic_flag busy;
};

/* Reads a file's identity; returns false when the file cannot be stat'ed. */
bool sim_file_identity(const char *path, struct sim_file_id *id);

/*
 * Called on every query.  When the interval has passed and the file's identity changed, parses
 * it and returns the new model (the caller installs it); a malformed version is reported once on
 * stderr and NULL is returned, keeping the current model.  Only one thread checks at a time;
 * the others return NULL at once.  Thread-safe; the watch must stay alive meanwhile.
 */
struct sim_model *sim_watch_poll(struct sim_watch *watch);

#endif /* NVITOP_SIM_DRIVER_SIM_RELOAD_H */
