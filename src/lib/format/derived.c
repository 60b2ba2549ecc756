/*
 * The derived strings nvitop's device and process objects print (docs/nvitop-behaviour.md §5.3.4,
 * §5.12.4): memory usage "<used> / <total>", power status "<usage>W / <limit>W", utilisation "87%",
 * and the one-decimal percentages behind them.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>

#include <nvitop/format.h>

#include "format_internal.h"

size_t nvt_format_memory_usage(char *buf, size_t size, uint64_t used_bytes, uint64_t total_bytes) {
    char used[32];
    char total[32];
    nvt_format_bytes(used, sizeof(used), used_bytes, 1);
    nvt_format_bytes(total, sizeof(total), total_bytes, 1);
    struct format_out out;
    format_out_init(&out, buf, size);
    format_out_puts(&out, used);
    format_out_puts(&out, " / ");
    format_out_puts(&out, total);
    return out.len;
}

/* Whole watts from milliwatts with Python's round() (half to even), or "N/A". */
static void put_watts(struct format_out *out, uint32_t milliwatts) {
    if (nvt_is_na_u32(milliwatts)) {
        format_out_puts(out, "N/A");
        return;
    }
    char text[32];
    snprintf(text, sizeof(text), "%.0fW", nvt_round_half_even(milliwatts / 1000.0));
    format_out_puts(out, text);
}

size_t nvt_format_power_status(char *buf, size_t size, uint32_t usage_mw, uint32_t limit_mw) {
    struct format_out out;
    format_out_init(&out, buf, size);
    put_watts(&out, usage_mw);
    format_out_puts(&out, " / ");
    put_watts(&out, limit_mw);
    return out.len;
}

size_t nvt_format_utilization(char *buf, size_t size, uint32_t percent) {
    struct format_out out;
    format_out_init(&out, buf, size);
    if (nvt_is_na_u32(percent)) {
        format_out_puts(&out, "N/A");
    } else {
        char text[16];
        snprintf(text, sizeof(text), "%" PRIu32 "%%", percent);
        format_out_puts(&out, text);
    }
    return out.len;
}

double nvt_percent(uint64_t part, uint64_t total) {
    if (nvt_is_na_u64(part) || nvt_is_na_u64(total) || total == 0) {
        return NAN;
    }
    return nvt_round_half_even_digits(100.0 * (double)part / (double)total, 1);
}
