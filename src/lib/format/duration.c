/* timedelta2human with nvitop's rules. */
#include <math.h>
#include <stdio.h>

#include <nvitop/format.h>

#include "format_internal.h"
#include "util/text/str.h"

#define SECONDS_PER_DAY 86400.0

/* ":%02u" of value (below 60) at text[len]; returns the new length (text has room). */
static size_t put_colon_two(char *text, size_t len, uint64_t value) {
    text[len] = ':';
    text[len + 1] = (char)('0' + value / 10);
    text[len + 2] = (char)('0' + value % 10);
    text[len + 3] = '\0';
    return len + 3;
}

size_t nvt_format_duration(char *buf, size_t size, double seconds, bool round) {
    struct format_out out;
    format_out_init(&out, buf, size);
    if (isnan(seconds) || seconds < 0.0 || isinf(seconds)) {
        format_out_puts(&out, "N/A");
        return out.len;
    }
    /*
     * Python's timedelta keeps whole days and whole seconds within the day (the microseconds are
     * ignored by nvitop's arithmetic).  Rounding to the microsecond first, half to even, matches
     * timedelta(seconds=x), so 59.9999999 counts as 60 seconds.
     */
    double whole = floor(seconds);
    double micros = nvt_round_half_even((seconds - whole) * 1e6);
    if (micros >= 1e6) {
        whole += 1.0;
    }
    double days = floor(whole / SECONDS_PER_DAY);
    double within_day = whole - days * SECONDS_PER_DAY;
    char text[400];
    if (days >= 4.0 || (round && days >= 1.0)) {
        format_c_snprintf(text, sizeof(text), "%.1f days", days + within_day / SECONDS_PER_DAY);
        format_out_puts(&out, text);
        return out.len;
    }
    /* Fewer than four days: the counts fit comfortably in integers. */
    uint64_t total = (uint64_t)whole;
    uint64_t hours = total / 3600;
    uint64_t minutes = total % 3600 / 60;
    uint64_t secs = total % 60;
    /* "H:MM:SS" or "M:SS" by hand: the monitor formats every process's TIME each second. */
    size_t len = 0;
    if (hours > 0) {
        len = str_u64(text, sizeof(text), hours);
        len = put_colon_two(text, len, minutes);
    } else {
        len = str_u64(text, sizeof(text), minutes);
    }
    len = put_colon_two(text, len, secs);
    format_out_put(&out, text, len);
    return out.len;
}
