/*
 * The floor of bench-lib-snapshot: the NVML calls an NVT_SAMPLE_DEFAULT snapshot makes on every
 * device, through function pointers of the loaded driver, and raw reads of the proc files the
 * host side needs, with no parsing and no allocation per pass.
 */
#ifndef NVITOP_BENCH_LIB_BENCH_FLOOR_H
#define NVITOP_BENCH_LIB_BENCH_FLOOR_H

struct bench_floor;

/* Load and initialise NVML and get every device's handle.  Returns 0 on success. */
int bench_floor_open(struct bench_floor **out);

/* One pass: the device queries, the process lists, process utilisation where there are
 * processes, and the proc files of the host and of each distinct GPU process. */
void bench_floor_pass(struct bench_floor *floor);

void bench_floor_close(struct bench_floor *floor);

#endif /* NVITOP_BENCH_LIB_BENCH_FLOOR_H */
