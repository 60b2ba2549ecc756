/* Python's round(): half to even on the exact binary value of a double. */
#include <float.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>

#include <nvitop/format.h>

#include "format_internal.h"

double nvt_round_half_even(double value) {
    if (!isfinite(value)) {
        return value;
    }
    /* Work on the magnitude: for a non-negative double, value - floor(value) is exact. */
    double magnitude = fabs(value);
    double lower = floor(magnitude);
    double fraction = magnitude - lower;
    double rounded;
    if (fraction > 0.5) {
        rounded = lower + 1.0;
    } else if (fraction < 0.5) {
        rounded = lower;
    } else {
        rounded = fmod(lower, 2.0) == 0.0 ? lower : lower + 1.0;
    }
    return copysign(rounded, value);
}

/* Beyond this many decimals every double is already its own rounding (Python uses the same
 * shortcut), and the printed form would not fit the buffer below. */
#define MAX_DIGITS 330

/*
 * The common case without printing: |value| * 10^digits computed in double is within an ulp or
 * so of the exact product, so when its fraction is clearly away from one half the nearest integer
 * n is certain (near an integer the error cannot change which one is nearest).  Near a tie, or
 * for magnitudes where fractions are not represented, false.
 */
#define FAST_MAX_DIGITS 8

static const double powers[FAST_MAX_DIGITS + 1] = {1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8};

bool format_scaled_integer(double value, int digits, uint64_t *n) {
    if (!isfinite(value) || digits < 0 || digits > FAST_MAX_DIGITS) {
        return false;
    }
    double scaled = fabs(value) * powers[digits];
    if (!(scaled < 0x1p50)) {
        return false;
    }
    double lower = floor(scaled);
    double fraction = scaled - lower; /* exact */
    /* The product's error is at most half an ulp of scaled; leave a wide margin. */
    double margin = scaled * 0x1p-48 + 0x1p-60;
    if (fabs(fraction - 0.5) <= margin) {
        return false;
    }
    *n = (uint64_t)lower + (fraction > 0.5 ? 1 : 0);
    return true;
}

/* n / 10^digits (both exact doubles, one correctly rounded division) is the double nearest to
 * the decimal result, which is what Python's round(value, digits) returns. */
static bool round_fast(double value, int digits, double *out) {
    uint64_t n = 0;
    if (!format_scaled_integer(value, digits, &n)) {
        return false;
    }
    double rounded = (double)n / powers[digits];
    /* Keep the sign of a result that rounds to zero, as Python does (round(-0.001, 2) == -0.0). */
    *out = copysign(rounded, value);
    return true;
}

double nvt_round_half_even_digits(double value, int digits) {
    if (!isfinite(value) || digits > MAX_DIGITS) {
        return value;
    }
    if (digits <= 0) {
        return nvt_round_half_even(value);
    }
    double fast;
    if (round_fast(value, digits, &fast)) {
        return fast;
    }
    /*
     * printf rounds the exact binary value to the requested decimals, ties to even, which is what
     * Python's round(x, n) does through its correctly rounded dtoa; reading the text back gives
     * the nearest double.  DBL_MAX has 309 integer digits.
     */
    char text[DBL_MAX_10_EXP + MAX_DIGITS + 8];
    format_c_snprintf(text, sizeof(text), "%.*f", digits, value);
    double rounded = format_c_strtod(text, NULL);
    /* Keep the sign of a result that rounds to zero, as Python does (round(-0.001, 2) == -0.0). */
    return rounded == 0.0 ? copysign(0.0, value) : rounded;
}
