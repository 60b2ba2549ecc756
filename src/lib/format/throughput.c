/* PCIe and NVLink throughput in human units, as nvitop's Device.pcie_tx_throughput_human() and
 * nvlink_tx_throughput_human(): bytes2human(KiB/s * 1024) + "/s", or "N/A". */
#include <math.h>

#include <nvitop/format.h>

#include "format_internal.h"

static size_t put_rate(char *buf, size_t size, uint64_t bytes) {
    char text[64];
    size_t len = nvt_format_bytes(text, sizeof(text), bytes, 1);
    if (len >= sizeof(text)) {
        len = sizeof(text) - 1;
    }
    struct format_out out;
    format_out_init(&out, buf, size);
    format_out_put(&out, text, len);
    format_out_puts(&out, "/s");
    return out.len;
}

size_t nvt_format_pcie_throughput(char *buf, size_t size, uint32_t kibps) {
    if (nvt_is_na_u32(kibps)) {
        struct format_out out;
        format_out_init(&out, buf, size);
        format_out_puts(&out, "N/A");
        return out.len;
    }
    return put_rate(buf, size, (uint64_t)kibps * NVT_KiB);
}

size_t nvt_format_nvlink_throughput(char *buf, size_t size, double kibps) {
    /* bytes2human rounds a float to an integer number of bytes (half to even, as Python). */
    double bytes = nvt_round_half_even(kibps * (double)NVT_KiB);
    if (!isfinite(bytes) || bytes < 0.0 || bytes >= 18446744073709549568.0) {
        struct format_out out;
        format_out_init(&out, buf, size);
        format_out_puts(&out, "N/A");
        return out.len;
    }
    return put_rate(buf, size, (uint64_t)bytes);
}
