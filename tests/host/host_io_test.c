/* Host I/O lists and the container of a process (include/nvitop/host.h) against the "io" fixture
 * tree: psutil's figures for the same files are the expected values. */
#include <stdlib.h>
#include <string.h>
#include <sys/statvfs.h>

#include "host.h"
#include "host_fixture.h"
#include "nvt_cmocka.h"
#include "proc_parse_io.h"

/* The host tests' stand-in context is the host_ctx itself (fake_context.c). */
static nvt_context *open_io(struct host_ctx **host) {
    char root[1024];
    fixture_path(root, sizeof(root), "io");
    assert_int_equal(host_open(root, host), NVT_OK);
    return (nvt_context *)*host;
}

static void test_net_io(void **state) {
    (void)state;
    struct host_ctx *host = NULL;
    nvt_context *ctx = open_io(&host);
    struct nvt_net_io *net = NULL;
    size_t count = 0;
    assert_int_equal(nvt_host_net_io(ctx, &net, &count), NVT_OK);
    /* The header lines and the two malformed lines are skipped; the alias keeps its name. */
    assert_int_equal(count, 3);
    assert_string_equal(net[0].interface, "lo");
    assert_int_equal(net[0].bytes_recv, 1048576);
    assert_int_equal(net[0].packets_sent, 2048);
    assert_string_equal(net[1].interface, "eth0");
    assert_int_equal(net[1].bytes_recv, 5242880000);
    assert_int_equal(net[1].packets_recv, 4000000);
    assert_int_equal(net[1].bytes_sent, 2097152000);
    assert_int_equal(net[1].packets_sent, 3000000);
    assert_string_equal(net[2].interface, "eth0:1");
    assert_int_equal(net[2].bytes_sent, 20);
    nvt_free(net);
    host_close(host);
}

static void test_disk_io(void **state) {
    (void)state;
    struct host_ctx *host = NULL;
    nvt_context *ctx = open_io(&host);
    struct nvt_disk_io *disk = NULL;
    size_t count = 0;
    assert_int_equal(nvt_host_disk_io(ctx, &disk, &count), NVT_OK);
    /* psutil's layouts: 14 or >= 18 fields, or 7; the 15-field (Linux 2.4) line and garbage are
     * skipped. */
    const char *names[] = {"loop0", "sda", "sda1", "nvme0n1", "sdb2", "sdc", "sdd"};
    assert_int_equal(count, 7);
    for (size_t i = 0; i < count; i++) {
        assert_string_equal(disk[i].device, names[i]);
    }
    assert_int_equal(disk[1].read_count, 1000);
    assert_int_equal(disk[1].read_bytes, 204800ULL * 512);
    assert_int_equal(disk[1].write_count, 500);
    assert_int_equal(disk[1].write_bytes, 409600ULL * 512);
    assert_int_equal(disk[4].read_count, 4);
    assert_int_equal(disk[4].read_bytes, 2048ULL * 512);
    assert_int_equal(disk[4].write_count, 6);
    assert_int_equal(disk[4].write_bytes, 4096ULL * 512);
    assert_int_equal(disk[6].read_bytes, 3 * 512);
    assert_int_equal(disk[6].write_bytes, 7 * 512);
    nvt_free(disk);
    host_close(host);
}

static void test_disk_usage(void **state) {
    (void)state;
    struct host_ctx *host = NULL;
    nvt_context *ctx = open_io(&host);
    struct nvt_disk_usage *usage = NULL;
    size_t count = 0;
    assert_int_equal(nvt_host_disk_usage(ctx, &usage, &count), NVT_OK);
    /* Kept: /dev/sda1 on / (ext4) and the zfs pool (a nodev type psutil keeps).  Skipped: proc,
     * tmpfs (nodev), device "none", a mount point statvfs() cannot reach, xfs (not listed). */
    assert_int_equal(count, 2);
    assert_string_equal(usage[0].device, "/dev/sda1");
    assert_string_equal(usage[0].mountpoint, "/");
    assert_string_equal(usage[0].fstype, "ext4");
    assert_string_equal(usage[1].device, "pool/data");
    assert_string_equal(usage[1].fstype, "zfs");
    struct statvfs st;
    assert_int_equal(statvfs("/", &st), 0);
    assert_int_equal(usage[0].total_bytes, (uint64_t)st.f_blocks * st.f_frsize);
    assert_true(usage[0].used_bytes + usage[0].free_bytes <= usage[0].total_bytes);
    assert_true(usage[0].percent >= 0.0 && usage[0].percent <= 100.0);
    nvt_free(usage);
    host_close(host);
}

/* The only disk entry of a fixture whose mount table lists no visible disk: "/" as given. */
static void expect_root_only(const char *fixture, const char *device, const char *fstype) {
    char root[1024];
    fixture_path(root, sizeof(root), fixture);
    struct host_ctx *host = NULL;
    assert_int_equal(host_open(root, &host), NVT_OK);
    struct nvt_disk_usage *usage = NULL;
    size_t count = 0;
    assert_int_equal(nvt_host_disk_usage((nvt_context *)host, &usage, &count), NVT_OK);
    assert_int_equal(count, 1);
    assert_string_equal(usage[0].device, device);
    assert_string_equal(usage[0].mountpoint, "/");
    assert_string_equal(usage[0].fstype, fstype);
    struct statvfs st;
    assert_int_equal(statvfs("/", &st), 0);
    assert_int_equal(usage[0].total_bytes, (uint64_t)st.f_blocks * st.f_frsize);
    nvt_free(usage);
    host_close(host);
}

/* A chroot: the table lists proc, a tmpfs and a disk outside the root (statvfs() fails). */
static void test_disk_usage_chroot(void **state) {
    (void)state;
    expect_root_only("chroot", "rootfs", "rootfs");
}

/* A container: "/" is an overlay (nodev, which psutil leaves out). */
static void test_disk_usage_container(void **state) {
    (void)state;
    expect_root_only("container", "overlay", "overlay");
}

/* No mount table at all: "/" still. */
static void test_disk_usage_no_table(void **state) {
    (void)state;
    expect_root_only("empty", "rootfs", "rootfs");
}

static void test_mount_line(void **state) {
    (void)state;
    char line[] = "/dev/sdb1 /mnt/my\\040disk\\011tab\\134 ext4 rw 0 0";
    struct proc_mount mount;
    assert_true(proc_parse_mount_line(line, &mount));
    assert_string_equal(mount.device, "/dev/sdb1");
    assert_string_equal(mount.mountpoint, "/mnt/my disk\ttab\\");
    assert_string_equal(mount.fstype, "ext4");
    char short_line[] = "/dev/sdb1 /mnt";
    assert_false(proc_parse_mount_line(short_line, &mount));
}

static void expect_container(nvt_context *ctx, uint32_t pid, const char *expected) {
    char buf[128];
    assert_int_equal(nvt_host_process_container(ctx, pid, buf, sizeof(buf)), NVT_OK);
    assert_string_equal(buf, expected);
}

static void test_container(void **state) {
    (void)state;
    struct host_ctx *host = NULL;
    nvt_context *ctx = open_io(&host);
    expect_container(ctx, 300, "4f1c9a7b2e3d");
    expect_container(ctx, 301, "1b2c3d4e-5f60-4718-9a0b-1c2d3e4f5a6b/9f8e7d6c5b4a");
    expect_container(ctx, 302, "0a1b2c3d-4e5f-6071-8293-a4b5c6d7e8f9/aaaabbbbcccc");
    expect_container(ctx, 303, "");
    expect_container(ctx, 304, "lxc/builder");
    char buf[16];
    assert_int_equal(nvt_host_process_container(ctx, 999, buf, sizeof(buf)),
                     NVT_ERR_NO_SUCH_PROCESS);
    assert_string_equal(buf, "");
    host_close(host);
}

static void test_cgroup_parser(void **state) {
    (void)state;
    char buf[64];
    proc_parse_cgroup_container("0::/docker/0123456789abcdef0123456789abcdef0123456789abcdef0123456"
                                "789abcdef\n",
                                buf, sizeof(buf));
    assert_string_equal(buf, "0123456789ab");
    /* 63 or 65 hex digits are no container id. */
    proc_parse_cgroup_container("0::/x/0123456789abcdef0123456789abcdef0123456789abcdef0123456789a"
                                "bcde\n",
                                buf, sizeof(buf));
    assert_string_equal(buf, "");
    proc_parse_cgroup_container("garbage", buf, sizeof(buf));
    assert_string_equal(buf, "");
    /* A small buffer cuts, never overflows. */
    char tiny[5];
    proc_parse_cgroup_container("0::/docker/0123456789abcdef0123456789abcdef0123456789abcdef0123456"
                                "789abcdef\n",
                                tiny, sizeof(tiny));
    assert_string_equal(tiny, "0123");
}

static void test_missing_files(void **state) {
    (void)state;
    char root[1024];
    fixture_path(root, sizeof(root), "empty");
    struct host_ctx *host = NULL;
    assert_int_equal(host_open(root, &host), NVT_OK);
    nvt_context *ctx = (nvt_context *)host;
    struct nvt_net_io *net = (struct nvt_net_io *)1;
    size_t count = 1;
    assert_int_equal(nvt_host_net_io(ctx, &net, &count), NVT_OK);
    assert_null(net);
    assert_int_equal(count, 0);
    /* nvt_host_disk_usage() still lists "/": test_disk_usage_no_table. */
    host_close(host);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_net_io),
        cmocka_unit_test(test_disk_io),
        cmocka_unit_test(test_disk_usage),
        cmocka_unit_test(test_disk_usage_chroot),
        cmocka_unit_test(test_disk_usage_container),
        cmocka_unit_test(test_disk_usage_no_table),
        cmocka_unit_test(test_mount_line),
        cmocka_unit_test(test_container),
        cmocka_unit_test(test_cgroup_parser),
        cmocka_unit_test(test_missing_files),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
