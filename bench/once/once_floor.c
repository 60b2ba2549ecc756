/*
 * The floor of bench-once: a program that loads NVML, makes the NVML calls and proc reads of one
 * nvitop report (bench/lib's floor pass) and prints a report-sized text, with nothing else.
 */
#include <stdio.h>
#include <string.h>

#include "bench_floor.h"

int main(void) {
    struct bench_floor *floor = NULL;
    if (bench_floor_open(&floor) != 0) {
        fputs("bench-once-floor: cannot open NVML\n", stderr);
        return 1;
    }
    bench_floor_pass(floor);
    bench_floor_close(floor);
    char line[121];
    memset(line, '=', sizeof(line) - 1);
    line[sizeof(line) - 1] = '\0';
    for (int i = 0; i < 50; i++) {
        puts(line);
    }
    return 0;
}
