/*
 * The in-memory model of one scenario file: what the simulated driver reports.
 *
 * A model is built by scenario_load() (scenario_*.c), is immutable afterwards, and is replaced
 * as a whole when the file changes (sim_state.c).  Queries read it under a shared lock and
 * evaluate its numbers at the current simulated time (sim_value.c), so no query allocates,
 * parses or makes a system call.
 */
#ifndef NVITOP_SIM_MODEL_SIM_MODEL_H
#define NVITOP_SIM_MODEL_SIM_MODEL_H

#include <stdbool.h>
#include <stddef.h>

#include "model/sim_calls.h"
#include "nvml/nvml_abi.h"

/* The fixed handle table (sim_handle.c) bounds these; scenarios beyond them are rejected. */
#define SIM_MAX_DEVICES   64
#define SIM_MAX_MIG_SLOTS 7
/* "resets": how many times a GPU may have been reset (each reset gives it new handles). */
#define SIM_MAX_RESETS 15

/* How a number changes with time; see docs/scenarios.md. */
enum sim_num_kind {
    SIM_NUM_CONSTANT,
    SIM_NUM_SINE,
    SIM_NUM_SCHEDULE
};

struct sim_point {
    double time_s;
    double value;
};

/*
 * One numeric field.  `error` is NVML_SUCCESS when the field has a value, otherwise the code
 * every query of the field returns (NOT_SUPPORTED when the scenario leaves it out or gives null).
 * Values are clamped to [min, max] of the field, so a sine never leaves the field's range.
 */
struct sim_num {
    nvmlReturn_t error;
    enum sim_num_kind kind;
    double base; /* the constant, or the sine's centre */
    double amplitude;
    double period_s;
    double phase_s;
    double min;
    double max;
    bool repeat; /* a schedule restarts after its last point */
    size_t point_count;
    struct sim_point *points;
};

/* One text field; `value` is owned by the model. */
struct sim_text {
    nvmlReturn_t error;
    char *value;
};

/* Process types, as a bit set: a compute+graphics process is in both lists. */
enum sim_process_type {
    SIM_PROCESS_COMPUTE = 1U << 0,
    SIM_PROCESS_GRAPHICS = 1U << 1,
    SIM_PROCESS_MPS = 1U << 2
};

struct sim_process {
    unsigned int pid;
    unsigned int types;               /* enum sim_process_type bits */
    unsigned int gpu_instance_id;     /* 0xFFFFFFFF outside MIG */
    unsigned int compute_instance_id; /* 0xFFFFFFFF outside MIG */
    struct sim_num used_mib;          /* error set: the driver reports "not available" */
    struct sim_num sm;                /* per-process utilisation samples, percent */
    struct sim_num mem;
    struct sim_num enc;
    struct sim_num dec;
};

struct sim_process_list {
    nvmlReturn_t error;             /* returned by every process-list query */
    nvmlReturn_t utilization_error; /* returned by nvmlDeviceGetProcessUtilization */
    size_t count;
    struct sim_process *items;
    /* "process_race": this many of the list's processes start between a client's size call
     * (count 0) and its fill call, which then answers INSUFFICIENT_SIZE again. */
    size_t race;
};

struct sim_memory {
    nvmlReturn_t error;
    struct sim_num total_mib;
    struct sim_num used_mib;
    struct sim_num reserved_mib;
};

struct sim_bar1 {
    nvmlReturn_t error;
    struct sim_num total_mib;
    struct sim_num used_mib;
};

/* A MIG device (one GPU instance + compute instance) in one slot of its parent. */
struct sim_mig {
    bool present;
    struct sim_text name;
    struct sim_text uuid;
    unsigned int gpu_instance_id;
    unsigned int compute_instance_id;
    struct sim_memory memory;
    struct sim_bar1 bar1;
    struct sim_process_list processes;
};

struct sim_pci {
    char bus_id[NVML_DEVICE_PCI_BUS_ID_BUFFER_SIZE]; /* "00000000:1A:00.0", upper case */
    unsigned int domain;
    unsigned int bus;
    unsigned int device;
    struct sim_num device_id;    /* e.g. 0x220410DE */
    struct sim_num subsystem_id; /* e.g. 0x147D10DE */
    struct sim_num link_gen;
    struct sim_num link_gen_max;
    struct sim_num link_width;
    struct sim_num link_width_max;
    struct sim_num tx_kibps;
    struct sim_num rx_kibps;
    struct sim_num max_speed;      /* NVML_PCIE_LINK_MAX_SPEED_* code */
    struct sim_num replay_counter; /* nvmlDeviceGetPcieReplayCounter */
};

/* Clock domains, indexed by nvmlClockType_t. */
#define SIM_CLOCK_COUNT      4
#define SIM_MAX_FANS         8
#define SIM_MAX_FIELD_ERRORS 16

struct sim_device {
    bool lost;
    bool has_call_faults; /* "call_errors" or "call_latency" given: check those tables */
    struct sim_text name;
    struct sim_text uuid;
    struct sim_text serial;
    struct sim_text vbios;
    struct sim_pci pci;
    struct sim_memory memory;
    struct sim_bar1 bar1;
    struct sim_num util_gpu;
    struct sim_num util_memory;
    struct sim_num util_encoder;
    struct sim_num util_decoder;
    struct sim_num clock[SIM_CLOCK_COUNT];
    struct sim_num clock_max[SIM_CLOCK_COUNT];
    struct sim_num fan;
    struct sim_num temperature;
    struct sim_num temperature_threshold[NVML_TEMPERATURE_THRESHOLD_COUNT]; /* by threshold type */
    struct sim_num power_usage_w;
    struct sim_num power_limit_w;
    struct sim_num power_min_w;
    struct sim_num power_max_w;
    struct sim_num power_management;
    struct sim_num pstate;
    struct sim_num persistence_mode;
    struct sim_num display_active;
    struct sim_num display_mode;
    struct sim_num compute_mode;
    struct sim_num ecc_volatile_corrected;
    struct sim_num ecc_volatile_uncorrected;
    struct sim_num ecc_aggregate_corrected;
    struct sim_num ecc_aggregate_uncorrected;
    struct sim_num cuda_major;
    struct sim_num cuda_minor;
    struct sim_num nvlink_links;
    struct sim_num nvlink_tx_kibps; /* per link */
    struct sim_num nvlink_rx_kibps;
    struct sim_num cc_protected_mib;
    struct sim_num cc_unprotected_mib;
    struct sim_num mig_mode;
    struct sim_num mig_pending;
    struct sim_num mig_max_count;
    /* The monitoring queries (export_board.c, export_monitor.c); NOT_SUPPORTED unless given. */
    size_t fan_count; /* "fans"; 0: one fan, `fan`, unless that is NOT_SUPPORTED */
    struct sim_num fans[SIM_MAX_FANS];
    struct sim_num ecc_mode;
    struct sim_num ecc_mode_pending;
    struct sim_num nvlink_version;
    /* "remote_bus_ids": the PCI bus id at the other end of each link, NVML's 8-digit form. */
    size_t nvlink_remote_count;
    char nvlink_remote[NVML_NVLINK_MAX_LINKS][NVML_DEVICE_PCI_BUS_ID_BUFFER_SIZE];
    struct sim_num power_default_limit_w;
    struct sim_num energy_j; /* the energy counter at t = 0; it grows with power x time */
    struct sim_num throttle_reasons;
    struct sim_num clock_app[SIM_CLOCK_COUNT];
    struct sim_num clock_app_default[SIM_CLOCK_COUNT];
    struct sim_num clock_boost[SIM_CLOCK_COUNT];
    struct sim_num architecture; /* NVML_DEVICE_ARCH_* minus NVML_DEVICE_ARCH_KEPLER */
    struct sim_num brand;        /* nvmlBrandType_t */
    struct sim_num board_id;
    struct sim_text board_part_number;
    struct sim_num bus_type; /* nvmlBusType_t */
    struct sim_num memory_bus_width;
    struct sim_num cores;
    struct sim_num power_source; /* nvmlPowerSource_t */
    struct sim_num minor_number;
    struct sim_num multi_gpu_board;
    struct sim_num irq;
    struct sim_text inforom_image;
    struct sim_text inforom[NVML_INFOROM_COUNT]; /* by nvmlInforomObject_t */
    struct sim_num gom;
    struct sim_num gom_pending;
    struct sim_num auto_boost;
    struct sim_num auto_boost_default;
    struct sim_num retired_pages_pending;
    struct sim_num accounting_mode;
    /* "lost_after_queries": the GPU answers this many queries, then is lost (0: never). */
    unsigned int lost_after_queries;
    /* "resets": how many times the GPU has been reset (0..SIM_MAX_RESETS).  Its handles carry
     * this generation; handles of another generation answer GPU_IS_LOST. */
    unsigned int resets;
    /* Faults of this GPU only: "call_errors", "call_latency" and "field_errors". */
    nvmlReturn_t call_error[SIM_CALL_COUNT];
    double call_latency_s[SIM_CALL_COUNT];
    size_t field_error_count;
    struct sim_field_error {
        unsigned int field_id;
        nvmlReturn_t error;
    } field_errors[SIM_MAX_FIELD_ERRORS];
    struct sim_mig mig[SIM_MAX_MIG_SLOTS];
    struct sim_process_list processes;
};

/*
 * Driver generations decide which process-list entry points exist and which element layout
 * `_v3` fills (docs/nvitop-behaviour.md §9.1, docs/scenarios.md).
 */
enum sim_generation {
    SIM_GEN_PRE_R535, /* no _v3, no ConfCompute, no ProcessDetailList */
    SIM_GEN_R510,     /* R510..R530: _v3 with the 24-byte layout, no ConfCompute */
    SIM_GEN_R535,     /* 535.104.05: _v3 with the 32-byte layout, ConfCompute, no DetailList */
    SIM_GEN_R550      /* current: _v3 with the 24-byte layout, ConfCompute and DetailList */
};

struct sim_model {
    struct sim_text driver_version;
    struct sim_text nvml_version;
    struct sim_num cuda_version;
    enum sim_generation generation;
    /* NVML_FI_DEV_PCIE_COUNT_{TX,RX}_BYTES answer: drivers from R555 on (the version's major). */
    bool pcie_byte_counters;
    nvmlReturn_t init_error;
    bool clock_frozen;
    double frozen_at_s;
    size_t device_count;
    struct sim_device *devices;
    /* Seconds each entry point sleeps before it answers ("call_latency"), by call id. */
    double call_latency_s[SIM_CALL_COUNT];
    /* What each entry point fails with on every call ("call_errors"); NVML_SUCCESS: nothing. */
    nvmlReturn_t call_error[SIM_CALL_COUNT];
    /* Every block the loader allocated for this model (strings, arrays, schedules): the model
     * is freed in one sweep, so no field needs its own destructor. */
    size_t block_count;
    size_t block_capacity;
    void **blocks;
};

/* Frees a model and everything it owns; accepts NULL. */
void sim_model_free(struct sim_model *model);

#endif /* NVITOP_SIM_MODEL_SIM_MODEL_H */
