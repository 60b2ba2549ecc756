/* nvt_host_disk_usage() on the real /proc: the mount table is read again only when the kernel
 * says it changed (poll(2) on the kept self/mounts), so a mount made or removed between two calls
 * must show at the next one.  Runs in a mount namespace of its own; skipped where the test may not
 * make one (no CAP_SYS_ADMIN). */
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <unistd.h>

#include "host.h"
#include "nvt_cmocka.h"

/* Is mountpoint among the file systems ctx lists now? */
static bool listed(nvt_context *ctx, const char *mountpoint) {
    struct nvt_disk_usage *usage = NULL;
    size_t count = 0;
    assert_int_equal(nvt_host_disk_usage(ctx, &usage, &count), NVT_OK);
    bool found = false;
    for (size_t i = 0; i < count; i++) {
        found = found || strcmp(usage[i].mountpoint, mountpoint) == 0;
    }
    nvt_free(usage);
    return found;
}

/* Is mountpoint listed by a context that has read nothing before (no kept mount table)? */
static bool listed_fresh(const char *mountpoint) {
    struct host_ctx *host = NULL;
    assert_int_equal(host_open("/proc", &host), NVT_OK);
    bool found = listed((nvt_context *)host, mountpoint);
    host_close(host);
    return found;
}

static void test_mount_seen(void **state) {
    (void)state;
    if (unshare(CLONE_NEWNS) != 0 || mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0) {
        skip();
    }
    /* In the build tree: a disk file system where /tmp may be a tmpfs, which psutil leaves out. */
    char dir[] = "nvt-mounts-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char path[4096];
    assert_non_null(getcwd(path, sizeof(path) - sizeof(dir) - 1));
    strcat(path, "/");
    strcat(path, dir);

    struct host_ctx *host = NULL;
    assert_int_equal(host_open("/proc", &host), NVT_OK);
    nvt_context *ctx = (nvt_context *)host;
    assert_false(listed(ctx, path));
    assert_false(listed(ctx, path)); /* the kept table, unchanged */
    assert_int_equal(mount(path, path, NULL, MS_BIND, NULL), 0);
    bool physical = listed_fresh(path);
    if (physical) {
        assert_true(listed(ctx, path));
        assert_true(listed(ctx, path));
    }
    assert_int_equal(umount(path), 0);
    assert_false(listed(ctx, path));
    host_close(host);
    rmdir(dir);
    if (!physical) {
        skip(); /* the build tree is on a file system psutil leaves out */
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mount_seen),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
