#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "nvt_cmocka.h"
#include "record/codec/frame.h"
#include "record/file/crc32.h"
#include "record/file/file_format.h"
#include "record/file/reader.h"
#include "record/file/writer.h"
#include "record/record_dir.h"
#include "record/when.h"
#include "test_dir.h"

/* A snapshot built by hand: GPU 0 with MIG enabled and one MIG device, GPU 1 without MIG, two
 * processes (one on the MIG device), and a host. */
struct fake {
    struct nvt_device_snapshot devices[3];
    struct nvt_gpu_process processes[2];
    double per_cpu[4];
    const char *argv[3];
    struct nvt_snapshot snap;
};

static void fake_init(struct fake *f, double t, uint64_t used) {
    memset(f, 0, sizeof(*f));
    for (size_t i = 0; i < 3; i++) {
        struct nvt_device_snapshot *d = &f->devices[i];
        nvt_device_state_init(&d->state);
        d->info.index = i == 2 ? 1 : 0;
        d->info.mig_index = i == 1 ? 0 : NVT_NA_U32;
        d->info.is_mig = i == 1;
        snprintf(d->info.name, sizeof(d->info.name), "NVIDIA H100 %zu", i);
        d->parent = i == 1 ? 0 : NVT_NA_SIZE;
        d->first_child = i == 0 ? 1 : NVT_NA_SIZE;
        d->child_count = i == 0 ? 1 : 0;
        d->state.memory_used_bytes = used + i;
        d->state.mig_mode = i == 0 ? NVT_FEATURE_ENABLED : NVT_FEATURE_DISABLED;
        d->state.temperature_c = NVT_NA_U32;
        d->state.nvlink_tx_kibps[3] = 42.5;
    }
    f->argv[0] = "python3";
    f->argv[1] = "train.py";
    f->argv[2] = "--lr=0.1";
    for (size_t i = 0; i < 2; i++) {
        struct nvt_gpu_process *p = &f->processes[i];
        p->pid = 100 + (uint32_t)i;
        p->device = i == 0 ? 1 : 2;
        p->gpu_memory_bytes = i == 0 ? NVT_NA_U64 : used / 2;
        p->host.pid = p->pid;
        p->host.ppid = 1;
        p->host.user = "alice";
        p->host.name = "python3";
        p->host.command = "python3 train.py --lr=0.1";
        p->host.cmdline = f->argv;
        p->host.cmdline_count = 3;
        p->host.state = 'R';
        p->host.cpu_percent = 12.5;
    }
    for (size_t i = 0; i < 4; i++) {
        f->per_cpu[i] = 10.0 * (double)i;
    }
    f->snap.timestamp = t;
    f->snap.flags = NVT_SAMPLE_DEFAULT;
    snprintf(f->snap.system.driver_version, sizeof(f->snap.system.driver_version), "550.54.15");
    f->snap.system.cuda_driver_version = 12040;
    f->snap.system.device_count = 2;
    f->snap.device_count = 3;
    f->snap.devices = f->devices;
    f->snap.device_stride = sizeof(f->devices[0]);
    f->snap.process_count = 2;
    f->snap.processes = f->processes;
    f->snap.process_stride = sizeof(f->processes[0]);
    f->snap.host.cpu_count = 4;
    f->snap.host.cpu_percent_per_cpu = f->per_cpu;
    f->snap.host.load_1m = NAN;
    snprintf(f->snap.host.hostname, sizeof(f->snap.host.hostname), "node7");
}

static void test_frame_roundtrip(void **state) {
    (void)state;
    struct fake f;
    fake_init(&f, 1.7e9, 1000);
    struct nvt_host_process init = {.pid = 1,
                                    .ppid = 0,
                                    .user = "root",
                                    .name = "systemd",
                                    .command = "/sbin/init",
                                    .cmdline = NULL};
    struct strbuf buf = STRBUF_INIT;
    assert_true(frame_encode(&buf, &f.snap, &init, 1));
    struct frame *fr = NULL;
    char error[256];
    assert_true(frame_decode(buf.data, buf.len, &fr, error, sizeof(error)));
    const struct nvt_snapshot *s = &fr->snap;
    assert_true(s->timestamp == 1.7e9);
    assert_int_equal(s->device_count, 3);
    assert_int_equal(s->process_count, 2);
    assert_string_equal(s->system.driver_version, "550.54.15");
    assert_int_equal(s->system.cuda_driver_version, 12040);
    assert_int_equal(s->devices[1].parent, 0);
    assert_int_equal(s->devices[2].parent, NVT_NA_SIZE);
    assert_true(s->devices[1].info.is_mig);
    assert_string_equal(s->devices[2].info.name, "NVIDIA H100 2");
    assert_int_equal(s->devices[2].state.memory_used_bytes, 1002);
    assert_int_equal(s->devices[0].state.temperature_c, NVT_NA_U32);
    assert_int_equal(s->devices[0].state.mig_mode, NVT_FEATURE_ENABLED);
    assert_true(s->devices[0].state.nvlink_tx_kibps[3] == 42.5);
    assert_true(isnan(s->devices[0].state.nvlink_tx_kibps[0]) ||
                s->devices[0].state.nvlink_tx_kibps[0] == 0.0);
    assert_int_equal(s->devices[0].state.struct_size, sizeof(struct nvt_device_state));
    assert_int_equal(s->processes[0].gpu_memory_bytes, NVT_NA_U64);
    assert_int_equal(s->processes[1].device, 2);
    assert_string_equal(s->processes[1].host.user, "alice");
    assert_string_equal(s->processes[1].host.command, "python3 train.py --lr=0.1");
    assert_int_equal(s->processes[1].host.cmdline_count, 3);
    assert_string_equal(s->processes[1].host.cmdline[2], "--lr=0.1");
    assert_int_equal(s->processes[1].host.state, 'R');
    assert_int_equal(s->host.cpu_count, 4);
    assert_true(s->host.cpu_percent_per_cpu[3] == 30.0);
    assert_true(isnan(s->host.load_1m));
    assert_string_equal(s->host.hostname, "node7");
    assert_int_equal(fr->related_count, 1);
    assert_string_equal(frame_related(fr, 1)->name, "systemd");
    assert_null(frame_related(fr, 2));
    frame_free(fr);
    /* Every prefix of the message either decodes or fails cleanly (ASan checks the reads). */
    for (size_t cut = 0; cut < buf.len; cut++) {
        fr = NULL;
        if (frame_decode(buf.data, cut, &fr, error, sizeof(error))) {
            frame_free(fr);
        }
    }
    strbuf_fini(&buf);
}

static void write_frames(const char *path, size_t n, double t0, unsigned keyframe_every) {
    struct rec_writer_options o = {.interval_s = 1.0, .keyframe_every = keyframe_every, .level = 0};
    char error[256];
    struct rec_writer *w = rec_writer_open(path, &o, error, sizeof(error));
    assert_non_null(w);
    for (size_t i = 0; i < n; i++) {
        struct fake f;
        fake_init(&f, t0 + (double)i, 1000 * (i + 1));
        assert_true(rec_writer_append(w, &f.snap, NULL, 0, error, sizeof(error)));
    }
    rec_writer_close(w);
}

static void check_frames(const char *path, size_t n, double t0) {
    char error[256];
    struct rec_reader *r = rec_reader_open(path, error, sizeof(error));
    assert_non_null(r);
    assert_int_equal(rec_reader_count(r), n);
    /* Backwards (from keyframes) and forwards (reusing the last frame). */
    for (size_t pass = 0; pass < 2; pass++) {
        for (size_t k = 0; k < n; k++) {
            size_t i = pass == 0 ? n - 1 - k : k;
            struct frame *fr = NULL;
            assert_true(rec_reader_frame(r, i, &fr, error, sizeof(error)));
            assert_true(fr->snap.timestamp == t0 + (double)(i % 10));
            assert_int_equal(fr->snap.devices[0].state.memory_used_bytes, 1000 * (i % 10 + 1));
            frame_free(fr);
        }
    }
    assert_int_equal(rec_reader_find(r, t0 - 1), (size_t)-1);
    rec_reader_close(r);
}

static void test_write_read(void **state) {
    (void)state;
    char *dir = test_dir_make("record-test");
    char *path = test_dir_path(dir, "a.nvtrec");
    write_frames(path, 10, 1.7e9, 4);
    check_frames(path, 10, 1.7e9);
    /* While a writer has the file, a second one is refused. */
    struct rec_writer_options o = {.interval_s = 1.0, .keyframe_every = 0, .level = 0};
    char error[256];
    struct rec_writer *first = rec_writer_open(path, &o, error, sizeof(error));
    assert_non_null(first);
    assert_null(rec_writer_open(path, &o, error, sizeof(error)));
    assert_non_null(strstr(error, "is being recorded by another process"));
    rec_writer_close(first);
    check_frames(path, 10, 1.7e9); /* an empty segment adds no frame */
    /* A second writer appends a segment. */
    write_frames(path, 10, 1.7e9, 4);
    check_frames(path, 20, 1.7e9);
    unlink(path);
    free(path);
    test_dir_remove(dir);
}

static unsigned char *slurp(const char *path, size_t *size) {
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    *size = (size_t)ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *data = malloc(*size);
    assert_int_equal(fread(data, 1, *size, f), *size);
    fclose(f);
    return data;
}

static void spit(const char *path, const unsigned char *data, size_t size) {
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(data, 1, size, f), size);
    fclose(f);
}

/* A file cut at any byte reads up to its last whole frame; a writer then appends after it. */
static void test_truncated(void **state) {
    (void)state;
    char *dir = test_dir_make("record-test");
    char *path = test_dir_path(dir, "a.nvtrec");
    char *cut = test_dir_path(dir, "cut.nvtrec");
    write_frames(path, 6, 1.7e9, 3);
    size_t size = 0;
    unsigned char *data = slurp(path, &size);
    size_t previous = 0;
    for (size_t n = 0; n <= size; n++) {
        spit(cut, data, n);
        char error[256];
        struct rec_reader *r = rec_reader_open(cut, error, sizeof(error));
        size_t frames = r != NULL ? rec_reader_count(r) : 0;
        assert_true(frames >= previous); /* never fewer frames from a longer prefix */
        previous = frames;
        if (r == NULL) {
            assert_true(strstr(error, "recording") != NULL);
            continue;
        }
        assert_true(n == size || rec_reader_warning(r)[0] != '\0' || frames > 0);
        for (size_t i = 0; i < frames; i++) {
            struct frame *fr = NULL;
            assert_true(rec_reader_frame(r, i, &fr, error, sizeof(error)));
            frame_free(fr);
        }
        rec_reader_close(r);
    }
    assert_int_equal(previous, 6);
    /* Cut in the middle of the 5th frame: a new writer cuts the torn record and appends. */
    spit(cut, data, size - 20);
    write_frames(cut, 2, 1.7e9 + 100, 3);
    char error[256];
    struct rec_reader *r = rec_reader_open(cut, error, sizeof(error));
    assert_non_null(r);
    assert_int_equal(rec_reader_count(r), 7);
    assert_string_equal(rec_reader_warning(r), "");
    assert_true(rec_reader_time(r, 6) == 1.7e9 + 101);
    struct frame *fr = NULL;
    assert_true(rec_reader_frame(r, 6, &fr, error, sizeof(error)));
    frame_free(fr);
    rec_reader_close(r);
    free(data);
    unlink(path);
    unlink(cut);
    free(path);
    free(cut);
    test_dir_remove(dir);
}

/* Any flipped byte gives either the frames or a clear message, never a crash. */
static void test_corrupted(void **state) {
    (void)state;
    char *dir = test_dir_make("record-test");
    char *path = test_dir_path(dir, "a.nvtrec");
    char *bad = test_dir_path(dir, "bad.nvtrec");
    write_frames(path, 4, 1.7e9, 2);
    size_t size = 0;
    unsigned char *data = slurp(path, &size);
    size_t damaged = 0;
    for (size_t i = 0; i < size; i++) {
        data[i] ^= 0x5A;
        spit(bad, data, size);
        data[i] ^= 0x5A;
        char error[256];
        struct rec_reader *r = rec_reader_open(bad, error, sizeof(error));
        if (r == NULL) {
            assert_true(strlen(error) > 0);
            continue;
        }
        for (size_t k = 0; k < rec_reader_count(r); k++) {
            struct frame *fr = NULL;
            if (rec_reader_frame(r, k, &fr, error, sizeof(error))) {
                frame_free(fr);
            } else {
                assert_non_null(strstr(error, "bad.nvtrec: "));
                damaged++;
            }
        }
        rec_reader_close(r);
    }
    assert_true(damaged > 0);
    /* A foreign file and a newer format. */
    char error[256];
    spit(bad, (const unsigned char *)"hello, world\n", 13);
    assert_null(rec_reader_open(bad, error, sizeof(error)));
    assert_non_null(strstr(error, "not an nvitop recording"));
    struct rec_writer_options o = {.interval_s = 1.0, .keyframe_every = 0, .level = 0};
    assert_null(rec_writer_open(bad, &o, error, sizeof(error)));
    assert_non_null(strstr(error, "not appending"));
    unsigned char head[REC_FILE_HEADER];
    rec_file_header(head);
    rec_put_u16(head + 8, REC_VERSION_MAJOR + 1);
    rec_put_u32(head + 28, 0);
    /* The CRC must match for the version to be trusted. */
    rec_put_u32(head + 28, crc32_update(0, head, 28));
    spit(bad, head, sizeof(head));
    assert_null(rec_reader_open(bad, error, sizeof(error)));
    assert_non_null(strstr(error, "newer nvitop (format 3.0)"));
    free(data);
    unlink(path);
    unlink(bad);
    free(path);
    free(bad);
    test_dir_remove(dir);
}

static size_t count_files(const char *dir) {
    DIR *d = opendir(dir);
    assert_non_null(d);
    size_t n = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        n += strstr(e->d_name, ".nvtrec") != NULL;
    }
    closedir(d);
    return n;
}

/* Daily files: 5 days of frames with --retain-days 2 keep 2 days; a byte limit keeps the
 * directory under it (plus the current file). */
static void test_directory(void **state) {
    (void)state;
    char *dir = test_dir_make("record-test");
    struct rec_writer_options o = {.interval_s = 1.0, .keyframe_every = 0, .level = 0};
    struct rec_dir_limits days = {2, 0};
    char error[256];
    struct rec_dir *d = rec_dir_open(dir, &o, &days, error, sizeof(error));
    assert_non_null(d);
    double t0 = 1700000000.0; /* 2023-11-14 22:13:20 UTC */
    for (size_t i = 0; i < 50; i++) {
        struct fake f;
        fake_init(&f, t0 + (double)i * 8640.0, 1000);
        assert_true(rec_dir_append(d, &f.snap, NULL, 0, error, sizeof(error)));
    }
    rec_dir_close(d);
    assert_int_equal(count_files(dir), 2);
    struct rec_reader *r = rec_reader_open(dir, error, sizeof(error));
    assert_non_null(r);
    assert_true(rec_reader_time(r, rec_reader_count(r) - 1) == t0 + 49 * 8640.0);
    assert_true(rec_reader_count(r) <= 20);
    rec_reader_close(r);
    test_dir_remove(dir);

    dir = test_dir_make("record-test");
    struct rec_dir_limits bytes = {0, 20000};
    d = rec_dir_open(dir, &o, &bytes, error, sizeof(error));
    assert_non_null(d);
    for (size_t i = 0; i < 400; i++) {
        struct fake f;
        fake_init(&f, t0 + (double)i, 1000 + i * 7919);
        assert_true(rec_dir_append(d, &f.snap, NULL, 0, error, sizeof(error)));
    }
    rec_dir_close(d);
    DIR *dd = opendir(dir);
    struct dirent *e;
    unsigned long long total = 0;
    while ((e = readdir(dd)) != NULL) {
        struct stat st;
        char *p = test_dir_path(dir, e->d_name);
        if (e->d_name[0] != '.' && stat(p, &st) == 0) {
            total += (unsigned long long)st.st_size;
        }
        free(p);
    }
    closedir(dd);
    assert_true(total <= 20000 + 20000 / 4 + 4096);
    assert_true(count_files(dir) >= 2);
    test_dir_remove(dir);
}

static void test_when(void **state) {
    (void)state;
    char error[256];
    double t = 0;
    assert_true(when_parse("@1700000000", 0, 0, &t, error, sizeof(error)));
    assert_true(t == 1700000000.0);
    assert_true(when_parse("2023-11-14T22:13:20Z", 0, 0, &t, error, sizeof(error)));
    assert_true(t == 1700000000.0);
    setenv("TZ", "UTC", 1);
    assert_true(when_parse("2023-11-14 22:13", 0, 0, &t, error, sizeof(error)));
    assert_true(t == 1700000000.0 - 20);
    /* HH:MM: the latest such moment within the recording. */
    assert_true(
        when_parse("22:00", 1700000000.0 - 3 * 86400, 1700000000.0, &t, error, sizeof(error)));
    assert_true(t == 1700000000.0 - 800);
    assert_true(
        when_parse("23:00", 1700000000.0 - 3 * 86400, 1700000000.0, &t, error, sizeof(error)));
    assert_true(t == 1700000000.0 - 800 + 3600 - 86400);
    assert_false(when_parse("25:00", 0, 1700000000.0, &t, error, sizeof(error)));
    assert_non_null(strstr(error, "is not a time"));
    assert_false(when_parse("yesterday", 0, 1700000000.0, &t, error, sizeof(error)));
    assert_false(when_parse("2023-13-01", 0, 1700000000.0, &t, error, sizeof(error)));
    char text[64];
    when_format(1700000000.0, text, sizeof(text));
    assert_string_equal(text, "2023-11-14 22:13:20");
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_frame_roundtrip), cmocka_unit_test(test_write_read),
        cmocka_unit_test(test_truncated),       cmocka_unit_test(test_corrupted),
        cmocka_unit_test(test_directory),       cmocka_unit_test(test_when),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
