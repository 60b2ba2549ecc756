/*
 * What every recorder samples (docs/recording.md, "What a frame holds"), so that `nvitop
 * --record` and `nvitop-record` write the same fields: everything but the PCIe throughput (a
 * blocking query) and the NVLink rates (no screen shows them, and as doubles that change every
 * second on every link they would be most of a recording's size).  Constants only.
 */
#ifndef NVITOP_SRC_RECORD_SAMPLE_FLAGS_H
#define NVITOP_SRC_RECORD_SAMPLE_FLAGS_H

#include <nvitop/device.h>

#define REC_SAMPLE_FLAGS                                                                           \
    (NVT_SAMPLE_ALL & ~(unsigned)(NVT_SAMPLE_PCIE_THROUGHPUT | NVT_SAMPLE_NVLINK))

/* What a recording program adds to the snapshots it samples for itself when it records them: the
 * fields above, leaving NVT_SAMPLE_DEVICES_FAST to the program's own choice. */
#define REC_SAMPLE_EXTRA (REC_SAMPLE_FLAGS & ~(unsigned)NVT_SAMPLE_DEVICES_FAST)

#endif /* NVITOP_SRC_RECORD_SAMPLE_FLAGS_H */
