/*
 * The modes the Windows build leaves out (docs/windows.md): the cluster view (libcurl), replay and
 * --record (the recording format is zstd-compressed).  Debian has no mingw-w64 build of those
 * libraries, so these entry points answer with one message instead, and the command line, its
 * help and every other mode stay the same as on Linux.
 */
#include <stdio.h>

#include "cmd/nvitop/modes/cluster_main.h"
#include "cmd/nvitop/modes/replay.h"
#include "record/file/writer.h"

static int unavailable(const char *what) {
    fprintf(stderr, "nvitop: %s is not available in the Windows build of nvitop\n", what);
    return 2;
}

bool cluster_requested(const struct nvitop_options *options) {
    return options->hosts != NULL || options->prometheus != NULL;
}

int cluster_run(const struct nvitop_options *options) {
    (void)options;
    return unavailable("the cluster view (--hosts, --prometheus)");
}

int replay_print(const struct nvitop_options *options, const struct tui_settings *settings,
                 bool color) {
    (void)options;
    (void)settings;
    (void)color;
    return unavailable("--replay");
}

int replay_monitor(const struct nvitop_options *options, const struct tui_settings *settings,
                   const char *settings_path, bool color) {
    (void)settings_path;
    return replay_print(options, settings, color);
}

struct rec_writer *rec_writer_open(const char *path, const struct rec_writer_options *options,
                                   char *error, size_t error_size) {
    (void)path;
    (void)options;
    snprintf(error, error_size, "not available in the Windows build of nvitop");
    return NULL;
}

bool rec_writer_append(struct rec_writer *w, const struct nvt_snapshot *snap,
                       const struct nvt_host_process *related, size_t related_count, char *error,
                       size_t error_size) {
    (void)w;
    (void)snap;
    (void)related;
    (void)related_count;
    snprintf(error, error_size, "not available in the Windows build of nvitop");
    return false;
}

void rec_writer_close(struct rec_writer *w) {
    (void)w;
}

bool rec_disk_full(int err) {
    (void)err;
    return false;
}
