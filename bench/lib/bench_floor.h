/*
 * The floor of bench-lib-snapshot: the NVML calls an NVT_SAMPLE_DEFAULT snapshot makes on every
 * device, through function pointers of the loaded driver, and the cheapest honest reads of the
 * same proc data the library reads, with no parsing and no allocation per pass: the host files
 * and each GPU process's stat file through descriptors kept open between passes (one pread(2)
 * each, as the library does), and a process's status and cmdline when it is first seen and again
 * once they are 10 s old (the library's identity lifetime, HOST_IDENTITY_TTL_S).
 */
#ifndef NVITOP_BENCH_LIB_BENCH_FLOOR_H
#define NVITOP_BENCH_LIB_BENCH_FLOOR_H

struct bench_floor;

/* Load and initialise NVML and get every device's handle.  Returns 0 on success. */
int bench_floor_open(struct bench_floor **out);

/* One pass: the device queries, the process lists, process utilisation where there are
 * processes, and the proc data of the host and of each distinct GPU process. */
void bench_floor_pass(struct bench_floor *floor);

/* Closes every kept descriptor and shuts NVML down.  Accepts NULL. */
void bench_floor_close(struct bench_floor *floor);

#endif /* NVITOP_BENCH_LIB_BENCH_FLOOR_H */
