#include "record/codec/patch.h"

#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zstd.h>

#include "nvt_cmocka.h"
#include "record/codec/frame.h"
#include "record/file/crc32.h"
#include "record/file/file_format.h"
#include "record/file/reader.h"
#include "record/file/writer.h"
#include "record/record_dir.h"

/* Two GPUs, two processes on GPU 1, four CPUs: values the tests change between frames. */
struct scene {
    struct nvt_device_snapshot devices[2];
    struct nvt_gpu_process processes[2];
    struct nvt_host_process parent;
    double per_cpu[4];
    const char *argv[2];
    struct nvt_snapshot snap;
};

static void scene_init(struct scene *s, double t) {
    memset(s, 0, sizeof(*s));
    for (size_t i = 0; i < 2; i++) {
        struct nvt_device_snapshot *d = &s->devices[i];
        nvt_device_state_init(&d->state);
        d->info.index = (uint32_t)i;
        snprintf(d->info.name, sizeof(d->info.name), "NVIDIA H100");
        d->parent = d->first_child = NVT_NA_SIZE;
        d->state.memory_used_bytes = 73568097700ULL + i;
        d->state.temperature_c = 64;
        d->state.power_usage_mw = 612001;
    }
    s->argv[0] = "python3";
    s->argv[1] = "train.py";
    for (size_t i = 0; i < 2; i++) {
        struct nvt_gpu_process *p = &s->processes[i];
        p->pid = 4000 + (uint32_t)i;
        p->device = 1;
        p->gpu_memory_bytes = 1ULL << 30;
        p->host.pid = p->pid;
        p->host.ppid = 3999;
        p->host.user = "alice";
        p->host.name = "python3";
        p->host.command = "python3 train.py";
        p->host.cmdline = s->argv;
        p->host.cmdline_count = 2;
        p->host.cpu_percent = 99.9;
        p->host.memory_percent = 1.0 / 3.0; /* no short decimal: stored whole */
        p->host.create_time = 1795440000.25 + (double)i;
        /* As the library computes it: the wall-clock time of the read minus the start time. */
        p->host.running_time_s = (t + 1e-5 * (double)(i + 1)) - p->host.create_time;
    }
    s->parent = s->processes[0].host;
    s->parent.pid = 3999;
    s->parent.ppid = 1;
    s->parent.name = "bash";
    s->parent.command = "-bash";
    s->parent.cmdline = NULL;
    s->parent.cmdline_count = 0;
    for (size_t i = 0; i < 4; i++) {
        s->per_cpu[i] = 12.5 * (double)i;
    }
    s->snap.timestamp = t;
    s->snap.flags = NVT_SAMPLE_DEFAULT;
    s->snap.device_count = 2;
    s->snap.devices = s->devices;
    s->snap.device_stride = sizeof(s->devices[0]);
    s->snap.process_count = 2;
    s->snap.processes = s->processes;
    s->snap.process_stride = sizeof(s->processes[0]);
    s->snap.host.cpu_count = 4;
    s->snap.host.cpu_percent_per_cpu = s->per_cpu;
    s->snap.host.cpu_percent = 59.0;
    s->snap.host.uptime_s = 10393.26;
    s->snap.host.load_1m = NAN;
    snprintf(s->snap.host.hostname, sizeof(s->snap.host.hostname), "node7");
}

/* Every recorded field of the frame and the snapshot, compared through their encodings. */
static void assert_same(const struct frame *fr, const struct nvt_snapshot *snap,
                        const struct nvt_host_process *related, size_t related_count) {
    struct strbuf a = STRBUF_INIT;
    struct strbuf b = STRBUF_INIT;
    assert_true(frame_encode(&a, &fr->snap, fr->related, fr->related_count));
    assert_true(frame_encode(&b, snap, related, related_count));
    assert_int_equal(a.len, b.len);
    assert_memory_equal(a.data, b.data, a.len);
    strbuf_fini(&a);
    strbuf_fini(&b);
}

/* A patch gives back every value bit for bit, whatever its kind (and costs little). */
static void test_patch_roundtrip(void **state) {
    (void)state;
    struct scene s;
    double t = 1795456754.5162113;
    scene_init(&s, t);
    struct frame *prev = frame_copy(&s.snap, &s.parent, 1);
    struct frame *replayed = frame_copy(&s.snap, &s.parent, 1);
    char error[256];
    for (int step = 1; step <= 6; step++) {
        scene_init(&s, t + step);
        s.devices[1].state.memory_used_bytes += (uint64_t)step << 20;
        s.devices[0].state.temperature_c = step == 3 ? NVT_NA_U32 : 64 + (uint32_t)step;
        s.processes[1].gpu_memory_bytes = step == 2 ? NVT_NA_U64 : (1ULL << 30) - (uint64_t)step;
        s.processes[0].host.cpu_percent = 99.9 - 0.1 * step;
        s.processes[1].host.memory_percent = step == 4 ? -0.0 : 2.0 / 3.0;
        s.per_cpu[2] = step == 5 ? NAN : 33.3;
        s.snap.host.uptime_s = 10393.26 + step;
        s.snap.host.load_1m = 0.01 * step;
        s.parent.cpu_percent = 0.1 * step;
        if (step == 6) {
            snprintf(s.devices[1].info.name, sizeof(s.devices[1].info.name), "NVIDIA H200");
        }
        struct strbuf patch = STRBUF_INIT;
        assert_true(patch_encode(&patch, prev, &s.snap, &s.parent, 1));
        assert_true(patch.len < 200);
        assert_true(
            patch_apply(replayed, patch.data, patch.len, s.snap.timestamp, error, sizeof(error)));
        assert_same(replayed, &s.snap, &s.parent, 1);
        assert_same(prev, &s.snap, &s.parent, 1);
        strbuf_fini(&patch);
    }
    /* Nothing changed but the time and the running times: a few bytes. */
    scene_init(&s, t + 7);
    s.devices[1].state.memory_used_bytes += 6ULL << 20;
    s.processes[1].gpu_memory_bytes = (1ULL << 30) - 6;
    s.processes[0].host.cpu_percent = 99.9 - 0.1 * 6;
    s.processes[1].host.memory_percent = 2.0 / 3.0;
    s.per_cpu[2] = 33.3;
    s.snap.host.uptime_s = 10393.26 + 6;
    s.snap.host.load_1m = 0.01 * 6;
    s.parent.cpu_percent = 0.1 * 6;
    s.devices[0].state.temperature_c = 70;
    snprintf(s.devices[1].info.name, sizeof(s.devices[1].info.name), "NVIDIA H200");
    struct strbuf patch = STRBUF_INIT;
    assert_true(patch_encode(&patch, prev, &s.snap, &s.parent, 1));
    assert_true(patch.len <= 16);
    assert_true(
        patch_apply(replayed, patch.data, patch.len, s.snap.timestamp, error, sizeof(error)));
    assert_same(replayed, &s.snap, &s.parent, 1);
    /* Every prefix and every flipped byte is applied or refused cleanly (ASan checks). */
    for (size_t cut = 0; cut < patch.len; cut++) {
        struct frame *copy = frame_copy(&replayed->snap, replayed->related, 1);
        (void)patch_apply(copy, patch.data, cut, t, error, sizeof(error));
        frame_free(copy);
    }
    strbuf_fini(&patch);
    frame_free(prev);
    frame_free(replayed);
}

/* What a patch cannot say (a process more, another command line) makes it refuse. */
static void test_patch_structure(void **state) {
    (void)state;
    struct scene s;
    scene_init(&s, 1.7e9);
    struct frame *prev = frame_copy(&s.snap, &s.parent, 1);
    struct strbuf patch = STRBUF_INIT;
    s.snap.process_count = 1;
    assert_false(patch_encode(&patch, prev, &s.snap, &s.parent, 1));
    scene_init(&s, 1.7e9 + 1);
    s.processes[1].host.command = "python3 eval.py";
    assert_false(patch_encode(&patch, prev, &s.snap, &s.parent, 1));
    scene_init(&s, 1.7e9 + 1);
    assert_false(patch_encode(&patch, prev, &s.snap, NULL, 0));
    assert_int_equal(patch.len, 0);
    assert_true(patch_encode(&patch, prev, &s.snap, &s.parent, 1));
    strbuf_fini(&patch);
    frame_free(prev);
}

static char *temp_path(char *dir_out, size_t size) {
    char tmpl[] = "/tmp/nvt-patch-test-XXXXXX";
    assert_non_null(mkdtemp(tmpl));
    snprintf(dir_out, size, "%s", tmpl);
    char *path = malloc(strlen(tmpl) + 16);
    sprintf(path, "%s/a.nvtrec", tmpl);
    return path;
}

static long long size_of(const char *path) {
    struct stat st;
    return stat(path, &st) == 0 ? (long long)st.st_size : -1;
}

/* Written frames read back the same, a frame that changes little costs a few bytes in the file,
 * and a writer killed with SIGKILL leaves a file that reads to its last frame without a warning
 * (the room it reserved is zeros), which the next writer cuts before appending. */
static void test_writer_patches_and_kill(void **state) {
    (void)state;
    char dir[64];
    char *path = temp_path(dir, sizeof(dir));
    char error[256];
    struct rec_writer_options o = {.interval_s = 1.0, .keyframe_every = 0, .level = 0};
    pid_t child = fork();
    assert_true(child >= 0);
    if (child == 0) {
        struct rec_writer *w = rec_writer_open(path, &o, error, sizeof(error));
        for (int i = 0; w != NULL && i < 10; i++) {
            struct scene s;
            scene_init(&s, 1.7e9 + i);
            s.devices[0].state.temperature_c = 60 + (uint32_t)i;
            if (!rec_writer_append(w, &s.snap, &s.parent, 1, error, sizeof(error))) {
                _exit(1);
            }
        }
        raise(SIGKILL);
        _exit(2);
    }
    int status = 0;
    assert_int_equal(waitpid(child, &status, 0), child);
    assert_true(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
    struct rec_reader *r = rec_reader_open(path, error, sizeof(error));
    assert_non_null(r);
    assert_int_equal(rec_reader_count(r), 10);
    assert_string_equal(rec_reader_warning(r), "");
    for (size_t i = 0; i < 10; i++) {
        struct frame *fr = NULL;
        assert_true(rec_reader_frame(r, i, &fr, error, sizeof(error)));
        struct scene s;
        scene_init(&s, 1.7e9 + (double)i);
        s.devices[0].state.temperature_c = 60 + (uint32_t)i;
        assert_same(fr, &s.snap, &s.parent, 1);
        frame_free(fr);
    }
    rec_reader_close(r);
    /* The next writer cuts the reserved room and appends; closed, the file ends at its records. */
    struct rec_writer *w = rec_writer_open(path, &o, error, sizeof(error));
    assert_non_null(w);
    unsigned long long before = rec_writer_size(w);
    for (int i = 0; i < 11; i++) {
        struct scene s;
        scene_init(&s, 1.7e9 + 100 + i);
        s.devices[0].state.temperature_c = 60 + (uint32_t)i;
        assert_true(rec_writer_append(w, &s.snap, &s.parent, 1, error, sizeof(error)));
    }
    unsigned long long after = rec_writer_size(w);
    rec_writer_close(w);
    assert_int_equal(size_of(path), (long long)after);
    /* A keyframe, then ten frames whose changes are a temperature and the running times. */
    struct scene s;
    scene_init(&s, 1.7e9);
    struct strbuf key = STRBUF_INIT;
    assert_true(frame_encode(&key, &s.snap, &s.parent, 1));
    assert_true(after - before < 2 * 60 + key.len + 10 * (28 + 40));
    strbuf_fini(&key);
    r = rec_reader_open(path, error, sizeof(error));
    assert_non_null(r);
    assert_int_equal(rec_reader_count(r), 21);
    rec_reader_close(r);
    unlink(path);
    rmdir(dir);
    free(path);
}

/* Make path's header say format 1 (CRC included), as a file recorded before format 2. */
static void make_format_1(const char *path) {
    FILE *f = fopen(path, "r+b");
    assert_non_null(f);
    unsigned char head[REC_FILE_HEADER];
    assert_int_equal(fread(head, 1, sizeof(head), f), sizeof(head));
    rec_put_u16(head + 8, 1);
    rec_put_u32(head + 28, crc32_update(0, head, 28));
    assert_int_equal(fseek(f, 0, SEEK_SET), 0);
    assert_int_equal(fwrite(head, 1, sizeof(head), f), sizeof(head));
    fclose(f);
}

/* A format-1 file is not appended to (format-1 readers would skip the patches); a recorder's
 * directory continues in the next part of the day instead. */
static void test_older_format_not_appended(void **state) {
    (void)state;
    char dir[64];
    char *path = temp_path(dir, sizeof(dir));
    char error[512];
    struct rec_writer_options o = {.interval_s = 1.0, .keyframe_every = 0, .level = 0};
    struct scene s;
    scene_init(&s, 1.7e9);
    struct rec_writer *w = rec_writer_open(path, &o, error, sizeof(error));
    assert_non_null(w);
    assert_true(rec_writer_append(w, &s.snap, &s.parent, 1, error, sizeof(error)));
    rec_writer_close(w);
    make_format_1(path);
    assert_true(rec_writer_is_older(path));
    assert_null(rec_writer_open(path, &o, error, sizeof(error)));
    assert_non_null(strstr(error, "recorded by an older nvitop (format 1.0); not appending"));
    /* 1.7e9 is 2023-11-14 (UTC): the directory's file of that day, part 000, is format 1. */
    char old_name[128];
    snprintf(old_name, sizeof(old_name), "%s/nvitop-2023-11-14-000.nvtrec", dir);
    assert_int_equal(rename(path, old_name), 0);
    struct rec_dir_limits limits = {0, 0};
    struct rec_dir *d = rec_dir_open(dir, &o, &limits, error, sizeof(error));
    assert_non_null(d);
    scene_init(&s, 1.7e9 + 1);
    assert_true(rec_dir_append(d, &s.snap, &s.parent, 1, error, sizeof(error)));
    rec_dir_close(d);
    char new_name[128];
    snprintf(new_name, sizeof(new_name), "%s/nvitop-2023-11-14-001.nvtrec", dir);
    assert_false(rec_writer_is_older(new_name));
    struct rec_reader *r = rec_reader_open(dir, error, sizeof(error));
    assert_non_null(r);
    assert_int_equal(rec_reader_count(r), 2);
    rec_reader_close(r);
    unlink(old_name);
    unlink(new_name);
    rmdir(dir);
    free(path);
}

/* Patches compressed with zstd (flag bit 0, the previous patch as prefix), which this writer does
 * not write but a later one may: readers decode them.  The file's patches are rewritten so. */
static void test_compressed_patches_read(void **state) {
    (void)state;
    char dir[64];
    char *path = temp_path(dir, sizeof(dir));
    char error[256];
    struct rec_writer_options o = {.interval_s = 1.0, .keyframe_every = 0, .level = 0};
    struct rec_writer *w = rec_writer_open(path, &o, error, sizeof(error));
    assert_non_null(w);
    for (int i = 0; i < 4; i++) {
        struct scene s;
        scene_init(&s, 1.7e9 + i);
        s.devices[0].state.temperature_c = 60 + (uint32_t)i;
        assert_true(rec_writer_append(w, &s.snap, &s.parent, 1, error, sizeof(error)));
    }
    rec_writer_close(w);
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    unsigned char in[1 << 16];
    size_t size = fread(in, 1, sizeof(in), f);
    fclose(f);
    unsigned char out[1 << 16];
    memcpy(out, in, REC_FILE_HEADER);
    size_t at = REC_FILE_HEADER;
    size_t put = REC_FILE_HEADER;
    const unsigned char *prefix = NULL;
    size_t prefix_size = 0;
    ZSTD_CCtx *cctx = ZSTD_createCCtx();
    while (at + REC_RECORD_HEADER <= size) {
        struct rec_record_header h;
        assert_true(rec_record_header_get(in + at, &h));
        const unsigned char *payload = in + at + REC_RECORD_HEADER;
        size_t in_size = h.payload_size;
        if (h.type == REC_PATCH) {
            ZSTD_CCtx_reset(cctx, ZSTD_reset_session_only);
            if (prefix != NULL) {
                ZSTD_CCtx_refPrefix(cctx, prefix, prefix_size);
            }
            unsigned char *packed = out + put + REC_RECORD_HEADER;
            size_t n = ZSTD_compress2(cctx, packed, sizeof(out) - put - REC_RECORD_HEADER, payload,
                                      h.payload_size);
            assert_false(ZSTD_isError(n));
            prefix = payload;
            prefix_size = h.payload_size;
            h.flags = REC_FLAG_ZSTD;
            h.payload_size = (uint32_t)n;
            rec_record_header_put(out + put, &h, packed);
        } else {
            if (h.type == REC_KEYFRAME) {
                prefix = NULL; /* a keyframe group's first patch has no prefix */
            }
            memcpy(out + put, in + at, REC_RECORD_HEADER + h.payload_size);
        }
        at += REC_RECORD_HEADER + in_size;
        put += REC_RECORD_HEADER + h.payload_size;
    }
    ZSTD_freeCCtx(cctx);
    f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(out, 1, put, f), put);
    fclose(f);
    struct rec_reader *r = rec_reader_open(path, error, sizeof(error));
    assert_non_null(r);
    assert_int_equal(rec_reader_count(r), 4);
    for (size_t i = 0; i < 4; i++) {
        struct frame *fr = NULL;
        assert_true(rec_reader_frame(r, i, &fr, error, sizeof(error)));
        struct scene s;
        scene_init(&s, 1.7e9 + (double)i);
        s.devices[0].state.temperature_c = 60 + (uint32_t)i;
        assert_same(fr, &s.snap, &s.parent, 1);
        frame_free(fr);
    }
    rec_reader_close(r);
    unlink(path);
    rmdir(dir);
    free(path);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_patch_roundtrip),
        cmocka_unit_test(test_patch_structure),
        cmocka_unit_test(test_writer_patches_and_kill),
        cmocka_unit_test(test_older_format_not_appended),
        cmocka_unit_test(test_compressed_patches_read),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
