/* gzip_text_compress(): what it writes is a gzip member that an independent decoder (libdeflate's)
 * turns back into the text, for an exposition-like text, an empty one, a single byte and
 * incompressible bytes (the output bound's worst case). */
#include "gzip_text.h"

#include <libdeflate.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nvt_cmocka.h"

/* Compress text with gz and check that it decompresses to the same bytes; the compressed size. */
static size_t round_trip(struct gzip_text *gz, const char *text, size_t len) {
    char *packed = NULL;
    size_t packed_len = 0;
    assert_true(gzip_text_compress(gz, text, len, &packed, &packed_len));
    assert_non_null(packed);
    /* The gzip magic, deflate, and the trailer's length of the input (mod 2^32). */
    assert_true(packed_len >= 18);
    assert_int_equal((unsigned char)packed[0], 0x1f);
    assert_int_equal((unsigned char)packed[1], 0x8b);
    assert_int_equal(packed[2], 8);
    const unsigned char *isize = (const unsigned char *)packed + packed_len - 4;
    assert_int_equal(isize[0] | isize[1] << 8 | isize[2] << 16 | (uint32_t)isize[3] << 24,
                     (uint32_t)len);
    struct libdeflate_decompressor *d = libdeflate_alloc_decompressor();
    assert_non_null(d);
    char *back = malloc(len + 1);
    assert_non_null(back);
    size_t back_len = 0;
    assert_int_equal(libdeflate_gzip_decompress(d, packed, packed_len, back, len + 1, &back_len),
                     LIBDEFLATE_SUCCESS);
    assert_int_equal(back_len, len);
    assert_memory_equal(back, text, len);
    free(back);
    libdeflate_free_decompressor(d);
    free(packed);
    return packed_len;
}

/* Some 120 KB of sample lines, as the 8-GPU scenario's exposition. */
static char *exposition(size_t *len) {
    size_t cap = 1 << 18;
    char *text = malloc(cap);
    assert_non_null(text);
    size_t pos = 0;
    for (unsigned i = 0; pos + 256 < cap && i < 900; i++) {
        pos += (size_t)snprintf(text + pos, cap - pos,
                                "gpu_nvlink_tx_throughput_MiBps{hostname=\"node-1\",index=\"%u\","
                                "devicename=\"NVIDIA H100 80GB HBM3\",uuid=\"GPU-3f0c9b1e-7a52-"
                                "4d86-9e21-5b8c40d7a1f%u\",link=\"%u\"} %u.%u\n",
                                i % 8, i % 8, i % 18, i * 7919u, i * 104729u);
    }
    *len = pos;
    return text;
}

static void test_round_trips(void **state) {
    (void)state;
    struct gzip_text *gz = gzip_text_new();
    assert_non_null(gz);
    size_t len = 0;
    char *text = exposition(&len);
    size_t packed = round_trip(gz, text, len);
    assert_true(packed < len / 4); /* it does compress */
    /* The same compressor again (its state is reused), then other sizes. */
    assert_int_equal(round_trip(gz, text, len), packed);
    round_trip(gz, "", 0);
    round_trip(gz, "x", 1);
    free(text);
    /* Incompressible bytes: the output may exceed the input; the bound must hold. */
    size_t noise_len = 300000;
    char *noise = malloc(noise_len);
    assert_non_null(noise);
    uint64_t x = 0x9e3779b97f4a7c15ULL;
    for (size_t i = 0; i < noise_len; i++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        noise[i] = (char)(x >> 56);
    }
    round_trip(gz, noise, noise_len);
    free(noise);
    gzip_text_free(gz);
    gzip_text_free(NULL);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_trips),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
