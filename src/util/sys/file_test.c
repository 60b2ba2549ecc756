#include "util/sys/file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "nvt_cmocka.h"

static void write_file(const char *path, const char *data, size_t len) {
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(data, 1, len, f), len);
    fclose(f);
}

static void test_read_whole(void **state) {
    (void)state;
    char dir[] = "/tmp/nvt_file_XXXXXX";
    assert_non_null(mkdtemp(dir));
    char path[64];
    snprintf(path, sizeof(path), "%s/data", dir);
    write_file(path, "a\0b\nc", 5);
    char *data = NULL;
    size_t len = 0;
    assert_int_equal(file_read_at(AT_FDCWD, path, 100, &data, &len), 0);
    assert_int_equal(len, 5);
    assert_memory_equal(data, "a\0b\nc\0", 6);
    free(data);
    /* Exactly at the cap is fine, one byte more is not. */
    assert_int_equal(file_read_at(AT_FDCWD, path, 5, &data, &len), 0);
    free(data);
    data = NULL;
    assert_int_equal(file_read_at(AT_FDCWD, path, 4, &data, &len), EFBIG);
    assert_null(data);
    /* Bigger than the first chunk. */
    char *big = malloc(100000);
    assert_non_null(big);
    memset(big, 'x', 100000);
    write_file(path, big, 100000);
    free(big);
    assert_int_equal(file_read_at(AT_FDCWD, path, 1 << 20, &data, &len), 0);
    assert_int_equal(len, 100000);
    assert_int_equal(data[99999], 'x');
    assert_int_equal(data[100000], '\0');
    free(data);
    snprintf(path, sizeof(path), "%s/missing", dir);
    assert_int_equal(file_read_at(AT_FDCWD, path, 100, &data, &len), ENOENT);
    assert_int_equal(file_read_at(AT_FDCWD, dir, 100, &data, &len), EISDIR);
    snprintf(path, sizeof(path), "%s/data", dir);
    unlink(path);
    rmdir(dir);
}

static void test_read_into(void **state) {
    (void)state;
    char dir[] = "/tmp/nvt_file_XXXXXX";
    assert_non_null(mkdtemp(dir));
    int dfd = open(dir, O_RDONLY | O_DIRECTORY);
    assert_true(dfd >= 0);
    char path[64];
    snprintf(path, sizeof(path), "%s/small", dir);
    write_file(path, "12345", 5);
    char buf[6];
    size_t len = 0;
    assert_int_equal(file_read_into(dfd, "small", buf, sizeof(buf), &len), 0);
    assert_string_equal(buf, "12345");
    assert_int_equal(len, 5);
    char tiny[4];
    assert_int_equal(file_read_into(dfd, "small", tiny, sizeof(tiny), &len), EFBIG);
    assert_string_equal(tiny, "123");
    assert_int_equal(file_read_into(dfd, "nothing", tiny, sizeof(tiny), NULL), ENOENT);
    assert_string_equal(tiny, "");
    close(dfd);
    unlink(path);
    rmdir(dir);
}

/* A kept descriptor read again: the file as it is now, a buffer that grows past 4 KiB, the cap. */
static void test_reread(void **state) {
    (void)state;
    char dir[] = "/tmp/nvt_file_XXXXXX";
    assert_non_null(mkdtemp(dir));
    char path[64];
    snprintf(path, sizeof(path), "%s/kept", dir);
    write_file(path, "first", 5);
    int fd = -1;
    char small[16];
    size_t len = 0;
    assert_int_equal(file_open_read_into(AT_FDCWD, path, small, sizeof(small), &len, &fd), 0);
    assert_true(fd >= 0);
    assert_string_equal(small, "first");
    write_file(path, "2nd", 3); /* rewritten in place, as /proc regenerates its files */
    assert_int_equal(file_reread_into(fd, small, sizeof(small), &len), 0);
    assert_string_equal(small, "2nd");
    assert_int_equal(len, 3);

    static char big[10000];
    memset(big, 'x', sizeof(big));
    write_file(path, big, sizeof(big));
    char *buf = NULL;
    size_t size = 0;
    assert_int_equal(file_reread_grow(fd, 1u << 20, &buf, &size, &len), 0);
    assert_int_equal(len, sizeof(big));
    assert_true(size > sizeof(big));
    assert_int_equal(buf[len], '\0');
    assert_int_equal(file_reread_grow(fd, 5000, &buf, &size, &len), EFBIG);
    write_file(path, "short", 5);
    assert_int_equal(file_reread_grow(fd, 5000, &buf, &size, &len), 0);
    assert_string_equal(buf, "short");
    free(buf);
    close(fd);
    assert_int_equal(
        file_open_read_into(AT_FDCWD, "/nonexistent/x", small, sizeof(small), NULL, &fd), ENOENT);
    assert_int_equal(fd, -1);
    unlink(path);
    rmdir(dir);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_read_whole),
        cmocka_unit_test(test_read_into),
        cmocka_unit_test(test_reread),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
