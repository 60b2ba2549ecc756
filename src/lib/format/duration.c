/* timedelta2human with nvitop's rules. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>

#include <nvitop/format.h>

#include "format_internal.h"

#define SECONDS_PER_DAY 86400.0

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
    if (hours > 0) {
        snprintf(text, sizeof(text), "%" PRIu64 ":%02" PRIu64 ":%02" PRIu64, hours, minutes, secs);
    } else {
        snprintf(text, sizeof(text), "%" PRIu64 ":%02" PRIu64, minutes, secs);
    }
    format_out_puts(&out, text);
    return out.len;
}
