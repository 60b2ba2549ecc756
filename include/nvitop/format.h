/*
 * Formatting with nvitop's exact rules (docs/nvitop-behaviour.md §5.12), including Python's
 * round-half-to-even. Every formatter writes at most size bytes including the terminating NUL and
 * returns the length the full text needs, like snprintf; N/A inputs give "N/A".  All are
 * thread-safe, and pure but nvt_command_join(), which looks at the file system.
 *
 * Manual: nvt_format(3); overview libnvitop(3).
 */
#ifndef NVITOP_FORMAT_H
#define NVITOP_FORMAT_H

#include <nvitop/common.h>
#include <nvitop/status.h>

#ifdef __cplusplus
extern "C" {
#endif

#define NVT_KiB (UINT64_C(1) << 10)
#define NVT_MiB (UINT64_C(1) << 20)
#define NVT_GiB (UINT64_C(1) << 30)
#define NVT_TiB (UINT64_C(1) << 40)
#define NVT_PiB (UINT64_C(1) << 50)

/* bytes2human: "0B", "2KiB", "20480MiB", "24.00GiB", "0.98TiB".  min_unit is 1, NVT_KiB, NVT_MiB
 * or NVT_GiB.
 * Pure; thread-safe. */
NVT_API size_t nvt_format_bytes(char *buf, size_t size, uint64_t bytes, uint64_t min_unit);

/*
 * human2bytes: "500B", "10k", "10ki", "1MiB", "1.5GiB", " + 7 g " (case-insensitive; K/M/G/T/P
 * are powers of 1000, Ki/Mi/... powers of 1024; a bare number is bytes).  NVT_ERR_PARSE for
 * anything else ("1e3", "-1", "10XB"); NVT_ERR_OUT_OF_RANGE when the value exceeds 64 bits.
 * (nvitop maps "PB" to 10^12 by mistake; this maps it to 10^15.)
 * Pure; thread-safe. */
NVT_API nvt_status nvt_parse_bytes(const char *text, uint64_t *out);

/* timedelta2human: "0:00", "1:01", "1:00:00", "46:13:33", "4.0 days" ("1.9 days" from one day on
 * when round is true).  NaN or negative gives "N/A".
 * Pure; thread-safe. */
NVT_API size_t nvt_format_duration(char *buf, size_t size, double seconds, bool round);

/* printf's "%.*f" of value in the C locale (the exact binary value rounded to digits decimals,
 * ties to even), whatever the program's locale; much cheaper than printf for ordinary figures.
 * Returns the length of the whole text; writes at most size bytes with a NUL, like snprintf.
 * Pure; thread-safe. */
NVT_API size_t nvt_format_fixed(char *buf, size_t size, double value, int digits);

/* Python's round(): half to even on the exact binary value.
 * Pure; thread-safe. */
NVT_API double nvt_round_half_even(double value);

/* Python's round(value, digits) for digits >= 0.
 * Pure; thread-safe. */
NVT_API double nvt_round_half_even_digits(double value, int digits);

/*
 * command_join (docs/nvitop-behaviour.md §5.7): quote each argument as a POSIX shell would need and
 * join with spaces.  A single argument is returned as is unless it is an absolute path of an
 * existing file. Not pure: it asks the file system whether a lone argument is a file (stat).
 * Thread-safe. */
NVT_API size_t nvt_command_join(char *buf, size_t size, const char *const *argv, size_t argc);

/*
 * nvitop's memory_usage(): "<used> / <total>" with bytes2human (min_unit 1) for each part, e.g.
 * "20110MiB / 24576MiB", "1.23GiB / 79.65GiB" … "N/A / N/A".  The *_human forms of nvitop
 * (memory_total_human(), gpu_memory_human(), host_memory_human()) are nvt_format_bytes(…, 1).
 * Pure; thread-safe. */
NVT_API size_t nvt_format_memory_usage(char *buf, size_t size, uint64_t used_bytes,
                                       uint64_t total_bytes);

/* nvitop's power_status(): "<usage>W / <limit>W" in whole watts rounded half to even, "N/A" for an
 * N/A part, e.g. "255W / 700W", "N/A / 350W".
 * Pure; thread-safe. */
NVT_API size_t nvt_format_power_status(char *buf, size_t size, uint32_t usage_mw,
                                       uint32_t limit_mw);

/* utilization2string for an integer percentage: "87%", "N/A".
 * Pure; thread-safe. */
NVT_API size_t nvt_format_utilization(char *buf, size_t size, uint32_t percent);

/* nvitop's memory_percent() and gpu_memory_percent(): round(100 * part / total, 1), NaN when either
 * is N/A or total is 0.
 * Pure; thread-safe. */
NVT_API double nvt_percent(uint64_t part, uint64_t total);

/* Terminal cell width of a UTF-8 string: East-Asian wide and fullwidth characters count 2,
 * combining marks 0, invalid bytes 1 each.
 * Pure; thread-safe. */
NVT_API size_t nvt_text_width(const char *text);

/* An integer field in decimal, or "N/A" for its sentinel (NVT_NA_U32, NVT_NA_U64, NVT_NA_I32), so
 * that N/A never prints as 4294967295.  Like snprintf: writes at most size bytes with a NUL and
 * returns the length of the whole text.
 * Pure; thread-safe. */
NVT_API size_t nvt_format_u32(char *buf, size_t size, uint32_t value);

/* As nvt_format_u32() for a 64-bit field (NVT_NA_U64 gives "N/A").
 * Pure; thread-safe. */
NVT_API size_t nvt_format_u64(char *buf, size_t size, uint64_t value);

/* As nvt_format_u32() for a signed field (NVT_NA_I32 gives "N/A").
 * Pure; thread-safe. */
NVT_API size_t nvt_format_i32(char *buf, size_t size, int32_t value);

/* A PCIe throughput (struct nvt_device_state.pcie_tx_kibps, pcie_rx_kibps: KiB/s) as nvitop's
 * Device.pcie_tx_throughput_human(): bytes2human(kibps * 1024) followed by "/s" ("96.00MiB/s",
 * "0B/s"), or "N/A" for NVT_NA_U32.  Like snprintf: writes at most size bytes with a NUL and
 * returns the length of the whole text.
 * Pure; thread-safe. */
NVT_API size_t nvt_format_pcie_throughput(char *buf, size_t size, uint32_t kibps);

/* An NVLink throughput (struct nvt_device_state.nvlink_tx_kibps[i], nvlink_rx_kibps[i], or their
 * mean: KiB/s) as nvitop's Device.nvlink_tx_throughput_human(): the bytes rounded half to even,
 * bytes2human, "/s"; "N/A" for NaN (and for a negative or infinite value).  Like snprintf.
 * Pure; thread-safe. */
NVT_API size_t nvt_format_nvlink_throughput(char *buf, size_t size, double kibps);

/* A GPU process's type as nvitop's GpuProcess.type: "C" (compute), "G" (graphics), "C+G" (both),
 * "N/A" (0, unknown).  type: enum nvt_process_type bits.  Static string; pure and thread-safe. */
NVT_API const char *nvt_process_type_name(unsigned type);

/* A host process's state letter (struct nvt_host_process.state) as psutil's status() word:
 * 'R' "running", 'S' "sleeping", 'D' "disk-sleep", 'T' "stopped", 't' "tracing-stop", 'Z' "zombie",
 * 'X'/'x' "dead", 'K' "wake-kill", 'W' "waking", 'I' "idle", 'P' "parked"; "N/A" for anything
 * else (0 included).  Static string; pure and thread-safe. */
NVT_API const char *nvt_process_status_name(char state);

#ifdef __cplusplus
}
#endif

#endif /* NVITOP_FORMAT_H */
