/* printf's "%.*f" in the C locale, without printf in the common case. */
#include <math.h>
#include <stdint.h>

#include <nvitop/format.h>

#include "format_internal.h"

size_t nvt_format_fixed(char *buf, size_t size, double value, int digits) {
    struct format_out out;
    format_out_init(&out, buf, size);
    uint64_t n = 0;
    if (!format_scaled_integer(value, digits, &n)) {
        /* Near a tie, huge, many decimals, NaN or infinite: printf rounds the exact value. */
        char text[400];
        int len = format_c_snprintf(text, sizeof(text), "%.*f", digits < 0 ? 0 : digits, value);
        format_out_put(&out, text, len > 0 ? (size_t)len : 0);
        return out.len;
    }
    /* Digits from the right: the decimals (zero-padded), the point, the integer part. */
    char text[48];
    char *p = text + sizeof(text);
    for (int i = 0; i < digits; i++) {
        *--p = (char)('0' + n % 10);
        n /= 10;
    }
    if (digits > 0) {
        *--p = '.';
    }
    do {
        *--p = (char)('0' + n % 10);
        n /= 10;
    } while (n > 0);
    if (signbit(value)) {
        *--p = '-'; /* printf writes "-0.0" for -0.04 too */
    }
    format_out_put(&out, p, (size_t)(text + sizeof(text) - p));
    return out.len;
}
