/* Short decimals without strtod() (decimal.h). */
#include "cluster/parse/decimal.h"

#define DECIMAL_DIGITS 15 /* 10^15 < 2^53: every such integer is a double */

bool decimal_short(const char *text, double *out) {
    static const double powers[DECIMAL_DIGITS + 1] = {
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
    };
    const char *p = text;
    bool negative = *p == '-';
    p += *p == '-' || *p == '+';
    unsigned long long m = 0;
    unsigned digits = 0, fraction = 0;
    bool point = false;
    for (;; p++) {
        if (*p >= '0' && *p <= '9') {
            if (++digits > DECIMAL_DIGITS) {
                return false;
            }
            m = m * 10 + (unsigned long long)(*p - '0');
            fraction += point;
        } else if (*p == '.' && !point) {
            point = true;
        } else {
            break;
        }
    }
    if (*p != '\0' || digits == 0) {
        return false;
    }
    double v = (double)m / powers[fraction];
    *out = negative ? -v : v;
    return true;
}
