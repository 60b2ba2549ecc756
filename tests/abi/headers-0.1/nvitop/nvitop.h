/* libnvitop: devices (physical, MIG, CUDA ordinals), GPU and host processes, host metrics,
 * snapshots, the metric collector, device selection and formatting.  Include this one header.  See
 * docs/api.md. */
#ifndef NVITOP_NVITOP_H
#define NVITOP_NVITOP_H

#include <nvitop/collector.h>
#include <nvitop/common.h>
#include <nvitop/context.h>
#include <nvitop/cuda.h>
#include <nvitop/device.h>
#include <nvitop/format.h>
#include <nvitop/host.h>
#include <nvitop/process.h>
#include <nvitop/select.h>
#include <nvitop/snapshot.h>
#include <nvitop/status.h>
#include <nvitop/version.h>

#endif /* NVITOP_NVITOP_H */
