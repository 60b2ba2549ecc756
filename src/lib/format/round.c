/* Python's round(): half to even on the exact binary value of a double. */
#include <float.h>
#include <math.h>

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

double nvt_round_half_even_digits(double value, int digits) {
    if (!isfinite(value) || digits > MAX_DIGITS) {
        return value;
    }
    if (digits <= 0) {
        return nvt_round_half_even(value);
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
