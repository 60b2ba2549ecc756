/* Numbers of the exposition as Python's repr() writes them (render.h), without printf: printf's
 * arbitrary-precision conversion was half of the cost of rendering a pass (callgrind, 8-GPU
 * scenario: 240 of the ~720 values, mostly NVLink rates, need 17 digits). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "render_internal.h"
#include "util/array.h"

/* Exact products of a 53-bit mantissa and a power of ten up to 10^21 need 124 bits. */
__extension__ typedef unsigned __int128 u128;

/* The decimal digits of n, right-aligned in digits[0, count): count digits exactly (leading
 * zeros included, higher digits dropped), two at a time (half the divisions). */
static void write_digits(char *digits, int count, uint64_t n) {
    static const char pairs[201] = "00010203040506070809101112131415161718192021222324252627282930"
                                   "31323334353637383940414243444546474849505152535455565758596061"
                                   "62636465666768697071727374757677787980818283848586878889909192"
                                   "93949596979899";
    int i = count;
    while (i >= 2) {
        const char *pair = &pairs[2 * (n % 100)];
        n /= 100;
        digits[--i] = pair[1];
        digits[--i] = pair[0];
    }
    if (i == 1) {
        digits[0] = (char)('0' + n % 10);
    }
}

size_t render_uint(char *buf, uint64_t n) {
    int count = 1;
    for (uint64_t rest = n / 10; rest != 0; rest /= 10) {
        count++;
    }
    write_digits(buf, count, n);
    buf[count] = '\0';
    return (size_t)count;
}

/* Write n (below 2^53) with a decimal point before its last `decimals` digits, and at least one
 * digit on either side ("1932.119461948691", "0.05", "81559.0"). */
static size_t write_scaled(char *buf, size_t size, bool negative, uint64_t n, int decimals) {
    int count = 1; /* digits of n, at least decimals + 1 */
    for (uint64_t rest = n / 10; rest != 0; rest /= 10) {
        count++;
    }
    int len = count > decimals ? count : decimals + 1;
    char digits[24]; /* most significant first */
    write_digits(digits, len, n);
    char out[48];
    size_t pos = 0;
    if (negative) {
        out[pos++] = '-';
    }
    for (int i = 0; i < len; i++) {
        out[pos++] = digits[i];
        if (len - 1 - i == decimals && decimals > 0) {
            out[pos++] = '.';
        }
    }
    if (decimals == 0) {
        out[pos++] = '.';
        out[pos++] = '0';
    }
    out[pos] = '\0';
    if (pos < size) {
        memcpy(buf, out, pos + 1);
        return pos;
    }
    if (size > 0) {
        buf[0] = '\0';
    }
    return 0;
}

/* The 17 significant digits of m * 2^e (m below 2^53, the value v in [1e-4, 1e17)) rounded half
 * to even as printf rounds, with x the decimal exponent: v ~ digits * 10^(x - 16).  False when
 * the exact product would not fit in 128 bits (not for values in that range). */
static bool digits17(uint64_t m, int e, int x, uint64_t *digits, int *exponent) {
    static const uint64_t low = 10000000000000000ULL; /* 10^16 */
    /* 10^0 to 10^21: a table rather than k multiplications by ten per attempt. */
#define P19 ((u128)10000000000000000000ULL)
    static const u128 pow10[22] = {
        1ULL,
        10ULL,
        100ULL,
        1000ULL,
        10000ULL,
        100000ULL,
        1000000ULL,
        10000000ULL,
        100000000ULL,
        1000000000ULL,
        10000000000ULL,
        100000000000ULL,
        1000000000000ULL,
        10000000000000ULL,
        100000000000000ULL,
        1000000000000000ULL,
        10000000000000000ULL,
        100000000000000000ULL,
        1000000000000000000ULL,
        P19,
        P19 * 10,
        P19 * 100,
    };
#undef P19
    for (int attempt = 0; attempt < 3; attempt++) {
        int k = 16 - x; /* v * 10^k should have 17 digits */
        if (k < 0 || k > 21) {
            return false;
        }
        u128 product = (u128)m * pow10[k];
        u128 q = product;
        if (e >= 0) {
            if (e > 6) {
                return false;
            }
            q = product << e;
        } else if (-e < 127) {
            unsigned shift = (unsigned)-e;
            q = product >> shift;
            u128 rest = product & (((u128)1 << shift) - 1);
            u128 half = (u128)1 << (shift - 1);
            if (rest > half || (rest == half && (q & 1) != 0)) {
                q++;
            }
        } else {
            return false;
        }
        if (q >= (u128)low * 10) {
            x++;
        } else if (q < low) {
            x--;
        } else {
            *digits = (uint64_t)q;
            *exponent = x;
            return true;
        }
    }
    return false;
}

/* printf("%.17g") of a finite value with 1e-4 <= |value| < 1e17 (fixed notation, trailing zeros
 * and a trailing point dropped); false for other values. */
static size_t write_g17(char *buf, size_t size, double value) {
    double magnitude = fabs(value);
    if (!(magnitude >= 1e-4 && magnitude < 1e17) || size < 32) {
        return 0;
    }
    int e2 = 0;
    double fraction = frexp(magnitude, &e2); /* magnitude = fraction * 2^e2, fraction in [.5, 1) */
    uint64_t m = (uint64_t)ldexp(fraction, 53);
    uint64_t n = 0;
    int x = 0;
    /* The decimal exponent floor(log10(magnitude)) from the binary one, without log10(): it lies
     * between (e2 - 1) * log10(2) and e2 * log10(2), and digits17() corrects a guess one off. */
    int guess = (int)floor((double)(e2 - 1) * 0.30102999566398120);
    if (!digits17(m, e2 - 53, guess, &n, &x) || x > 16 || x < -4) {
        return 0;
    }
    char digits[17];
    write_digits(digits, 17, n);
    int last = 16; /* last significant digit kept after dropping trailing zeros */
    while (last > x && last > 0 && digits[last] == '0') {
        last--;
    }
    size_t pos = 0;
    if (signbit(value)) {
        buf[pos++] = '-';
    }
    if (x < 0) {
        buf[pos++] = '0';
        buf[pos++] = '.';
        for (int i = 0; i < -x - 1; i++) {
            buf[pos++] = '0';
        }
        for (int i = 0; i <= last; i++) {
            buf[pos++] = digits[i];
        }
    } else {
        for (int i = 0; i <= x; i++) {
            buf[pos++] = digits[i];
        }
        if (last > x) {
            buf[pos++] = '.';
            for (int i = x + 1; i <= last; i++) {
                buf[pos++] = digits[i];
            }
        }
    }
    buf[pos] = '\0';
    return pos;
}

/* A text the snprintf way, its length (0 when it did not fit). */
static size_t write_text(char *buf, size_t size, const char *text) {
    int n = snprintf(buf, size, "%s", text);
    return n > 0 && (size_t)n < size ? (size_t)n : 0;
}

size_t render_double(char *buf, size_t size, double value) {
    if (isnan(value)) {
        return write_text(buf, size, "NaN");
    }
    if (isinf(value)) {
        return write_text(buf, size, value > 0 ? "+Inf" : "-Inf");
    }
    /* repr() writes the fewest digits that read back as the same double.  The fast path: the
     * fewest decimals d such that value * 10^d is a whole number n below 2^53 and n / 10^d is
     * value again (both exact doubles, so the decimal text reads back as value): whole numbers,
     * MiB of byte counts, percentages and rates with up to 16 digits. */
    static const double pow10[] = {1e0, 1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7, 1e8,
                                   1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16};
    const double limit = 9007199254740992.0; /* 2^53 */
    double magnitude = fabs(value);
    for (int d = 0; d < (int)(ARRAY_SIZE(pow10)); d++) {
        double scaled = magnitude * pow10[d];
        if (scaled >= limit) {
            break;
        }
        /* Below 2^53, so the conversion to an integer is exact when scaled is whole (cheaper than
         * floor(), which does not compile to one instruction on baseline x86-64). */
        if (scaled == (double)(int64_t)scaled && scaled / pow10[d] == magnitude) {
            return write_scaled(buf, size, signbit(value) != 0 && magnitude != 0.0,
                                (uint64_t)scaled, d);
        }
    }
    /* Other values need 17 significant digits (or are huge or tiny): %.17g always reads back.
     * %g switches to scientific notation from an exponent of 17 (repr: 16) and may write a
     * digit more than repr in rare cases: differences in spelling, never in value.  write_g17()
     * writes exactly what %.17g writes, in integer arithmetic, for the usual magnitudes. */
    size_t len = write_g17(buf, size, value);
    if (len == 0) {
        int n = snprintf(buf, size, "%.17g", value);
        len = n > 0 && (size_t)n < size ? (size_t)n : 0;
    }
    if (memchr(buf, '.', len) == NULL && memchr(buf, 'e', len) == NULL && len + 2 < size) {
        memcpy(buf + len, ".0", 3);
        len += 2;
    }
    return len;
}
