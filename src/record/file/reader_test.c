#include "nvt_cmocka.h"

/* The reader's block index (reader_index.h) on recordings longer than a block: keyframes several
 * blocks back, a segment starting inside a block, directories of more files than it keeps open,
 * and files removed or cut after open. */
#include <dirent.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "record/file/reader.h"
#include "record/file/reader_index.h"
#include "record/file/writer.h"
#include "test_dir.h"
#include "util/array.h"

#define T0 1.7e9

/* One GPU whose used memory tells the frame: frame number n has 1000 * (n + 1) bytes used. */
static void append(struct rec_writer *w, size_t n) {
    struct nvt_device_snapshot device;
    memset(&device, 0, sizeof(device));
    nvt_device_state_init(&device.state);
    snprintf(device.info.name, sizeof(device.info.name), "NVIDIA H100");
    device.parent = device.first_child = NVT_NA_SIZE;
    device.state.memory_used_bytes = 1000ULL * (n + 1);
    double per_cpu[2] = {1.0, 2.0};
    struct nvt_snapshot snap;
    memset(&snap, 0, sizeof(snap));
    snap.timestamp = T0 + (double)n;
    snap.flags = NVT_SAMPLE_DEFAULT;
    snap.system.device_count = 1;
    snap.device_count = 1;
    snap.devices = &device;
    snap.device_stride = sizeof(device);
    snap.host.cpu_count = 2;
    snap.host.cpu_percent_per_cpu = per_cpu;
    snap.host.load_1m = NAN;
    char error[256];
    assert_true(rec_writer_append(w, &snap, NULL, 0, error, sizeof(error)));
}

/* Append frames [from, to) to path in a new segment, a keyframe every keyframe_every frames. */
static void write_segment(const char *path, size_t from, size_t to, unsigned keyframe_every) {
    struct rec_writer_options o = {.interval_s = 1.0, .keyframe_every = keyframe_every, .level = 0};
    char error[256];
    struct rec_writer *w = rec_writer_open(path, &o, error, sizeof(error));
    assert_non_null(w);
    for (size_t n = from; n < to; n++) {
        append(w, n);
    }
    rec_writer_close(w);
}

static void check_frame(struct rec_reader *r, size_t i) {
    struct frame *fr = NULL;
    char error[256];
    assert_true(rec_reader_frame(r, i, &fr, error, sizeof(error)));
    assert_true(fr->snap.timestamp == T0 + (double)i);
    assert_int_equal(fr->snap.devices[0].state.memory_used_bytes, 1000ULL * (i + 1));
    frame_free(fr);
}

/* Open descriptors of this process (fcntl, so that no /proc is named). */
static size_t open_fds(void) {
    size_t n = 0;
    for (int fd = 0; fd < 1024; fd++) {
        n += fcntl(fd, F_GETFD) != -1;
    }
    return n;
}

/* Frames 0..1499 with a keyframe every 2000 (only frame 0), then a second segment 1500..3499 with
 * a keyframe every 2000 (1500 and 3500): frame 2600 in the third block of 1024 depends on
 * keyframe 1500 in the second, frame 1400 on keyframe 0 in the first. */
static void test_keyframes_blocks_back(void **state) {
    (void)state;
    char *dir = test_dir_make("reader-test");
    char *path = test_dir_path(dir, "long.nvtrec");
    write_segment(path, 0, 1500, 2000);
    write_segment(path, 1500, 3500, 2000);
    char error[256];
    struct rec_reader *r = rec_reader_open(path, error, sizeof(error));
    assert_non_null(r);
    assert_int_equal(rec_reader_count(r), 3500);
    assert_true(3500 > 3 * REC_BLOCK_FRAMES);
    size_t order[] = {2600, 1400, 0, 3499, 1023, 1024, 2047, 2048, 1499, 1500, 3071, 3072, 2};
    for (size_t k = 0; k < ARRAY_SIZE(order); k++) {
        check_frame(r, order[k]);
        assert_true(rec_reader_time(r, order[k]) == T0 + (double)order[k]);
        assert_int_equal(rec_reader_find(r, T0 + (double)order[k] + 0.5), order[k]);
        assert_int_equal(rec_reader_find(r, T0 + (double)order[k]), order[k]);
    }
    /* Stepping forward over block boundaries reuses the frame before. */
    for (size_t i = 1000; i < 1100; i++) {
        check_frame(r, i);
    }
    assert_int_equal(rec_reader_find(r, T0 - 0.5), (size_t)-1);
    assert_int_equal(rec_reader_find(r, T0 + 1e6), 3499);
    rec_reader_close(r);
    free(path);
    test_dir_remove(dir);
}

/* Six daily files: at most four stay open, every frame still reads; a file removed or cut after
 * open gives a clear message for its frames, not a crash. */
static void test_directory_bounded(void **state) {
    (void)state;
    char *dir = test_dir_make("reader-test");
    size_t per_file = 300;
    for (size_t f = 0; f < 6; f++) {
        char name[64];
        snprintf(name, sizeof(name), "nvitop-2026-11-%02zu-000.nvtrec", f + 1);
        char *path = test_dir_path(dir, name);
        write_segment(path, f * per_file, (f + 1) * per_file, 100);
        free(path);
    }
    size_t before = open_fds();
    char error[256];
    struct rec_reader *r = rec_reader_open(dir, error, sizeof(error));
    assert_non_null(r);
    assert_int_equal(rec_reader_count(r), 6 * per_file);
    assert_true(open_fds() <= before + 4);
    for (size_t i = 0; i < 6 * per_file; i += 7) {
        check_frame(r, i);
    }
    check_frame(r, 0);
    check_frame(r, 6 * per_file - 1);
    assert_true(open_fds() <= before + 4);

    /* Read files 3..6 last, so that neither file 1's blocks nor its descriptor are cached. */
    for (size_t f = 2; f < 6; f++) {
        check_frame(r, f * per_file + 5);
    }
    char *first = test_dir_path(dir, "nvitop-2026-11-01-000.nvtrec");
    unlink(first);
    struct frame *fr = NULL;
    assert_false(rec_reader_frame(r, 10, &fr, error, sizeof(error)));
    assert_non_null(strstr(error, "cannot open "));
    assert_non_null(strstr(error, "nvitop-2026-11-01-000.nvtrec: No such file"));
    assert_true(rec_reader_time(r, 10) == T0); /* its block's first time */
    char *second = test_dir_path(dir, "nvitop-2026-11-02-000.nvtrec");
    assert_int_equal(truncate(second, 64), 0);
    assert_false(rec_reader_frame(r, per_file + 10, &fr, error, sizeof(error)));
    assert_non_null(strstr(error, "nvitop-2026-11-02-000.nvtrec changed since it was opened"));
    check_frame(r, 5 * per_file + 10); /* the others still read */
    rec_reader_close(r);
    assert_int_equal(open_fds(), before);
    free(first);
    free(second);
    test_dir_remove(dir);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_keyframes_blocks_back),
        cmocka_unit_test(test_directory_bounded),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
