/*
 * N/A-aware integers ("N/A" for the sentinels of <nvitop/common.h>), the process type letters of
 * nvitop's GpuProcess.type and psutil's status() words for /proc state letters.
 */
#include <inttypes.h>
#include <stdio.h>

#include <nvitop/format.h>
#include <nvitop/process.h>

#include "util/array.h"

size_t nvt_format_u32(char *buf, size_t size, uint32_t value) {
    return nvt_format_u64(buf, size, nvt_is_na_u32(value) ? NVT_NA_U64 : value);
}

size_t nvt_format_u64(char *buf, size_t size, uint64_t value) {
    int len =
        nvt_is_na_u64(value) ? snprintf(buf, size, "N/A") : snprintf(buf, size, "%" PRIu64, value);
    return len > 0 ? (size_t)len : 0;
}

size_t nvt_format_i32(char *buf, size_t size, int32_t value) {
    int len =
        nvt_is_na_i32(value) ? snprintf(buf, size, "N/A") : snprintf(buf, size, "%" PRId32, value);
    return len > 0 ? (size_t)len : 0;
}

const char *nvt_process_type_name(unsigned type) {
    const unsigned both = NVT_PROCESS_COMPUTE | NVT_PROCESS_GRAPHICS;
    if ((type & both) == both) {
        return "C+G";
    }
    if ((type & NVT_PROCESS_COMPUTE) != 0) {
        return "C";
    }
    return (type & NVT_PROCESS_GRAPHICS) != 0 ? "G" : "N/A";
}

const char *nvt_process_status_name(char state) {
    static const struct {
        char letter;
        const char *word;
    } words[] = {
        {'R', "running"},      {'S', "sleeping"}, {'D', "disk-sleep"}, {'T', "stopped"},
        {'t', "tracing-stop"}, {'Z', "zombie"},   {'X', "dead"},       {'x', "dead"},
        {'K', "wake-kill"},    {'W', "waking"},   {'I', "idle"},       {'P', "parked"},
    };
    for (size_t i = 0; i < ARRAY_SIZE(words); i++) {
        if (words[i].letter == state && state != 0) {
            return words[i].word;
        }
    }
    return "N/A";
}
