/*
 * The field tables of fields.h and their generic encoder and decoder.
 */
#include "record/codec/fields.h"

#include <math.h>
#include <string.h>

#include <nvitop/snapshot.h>

#include "util/array.h"

#define F(tag, kind, type, member)                                                                 \
    { tag, kind, sizeof(((type *)0)->member), offsetof(type, member), 0 }

#define TABLE(name, array) const struct field_table name = {array, ARRAY_SIZE(array)}

static const struct field system_fields[] = {
    F(1, FIELD_TEXT, struct nvt_system_info, driver_version),
    F(2, FIELD_TEXT, struct nvt_system_info, nvml_version),
    F(3, FIELD_I32, struct nvt_system_info, cuda_driver_version),
    F(4, FIELD_U32, struct nvt_system_info, device_count),
};
TABLE(fields_system, system_fields);

#define DI(tag, kind, member) F(tag, kind, struct nvt_device_info, member)
static const struct field device_info_fields[] = {
    DI(1, FIELD_U32, index),
    DI(2, FIELD_U32, mig_index),
    DI(3, FIELD_BOOL, is_mig),
    DI(4, FIELD_STATUS, handle_status),
    DI(5, FIELD_TEXT, name),
    DI(6, FIELD_TEXT, uuid),
    DI(7, FIELD_TEXT, bus_id),
    DI(8, FIELD_TEXT, serial),
    DI(9, FIELD_TEXT, vbios_version),
    DI(10, FIELD_U32, pci_domain),
    DI(11, FIELD_U32, pci_bus),
    DI(12, FIELD_U32, pci_device),
    DI(13, FIELD_U32, pci_device_id),
    DI(14, FIELD_U32, pci_subsystem_id),
    DI(15, FIELD_U32, pcie_link_gen_max),
    DI(16, FIELD_U32, pcie_link_width_max),
    DI(17, FIELD_U32, max_clock_graphics_mhz),
    DI(18, FIELD_U32, max_clock_sm_mhz),
    DI(19, FIELD_U32, max_clock_memory_mhz),
    DI(20, FIELD_U32, max_clock_video_mhz),
    DI(21, FIELD_U32, power_limit_min_mw),
    DI(22, FIELD_U32, power_limit_max_mw),
    DI(23, FIELD_I32, cuda_cc_major),
    DI(24, FIELD_I32, cuda_cc_minor),
    DI(25, FIELD_BOOL, mig_supported),
    DI(26, FIELD_U32, mig_max_count),
    DI(27, FIELD_U32, gpu_instance_id),
    DI(28, FIELD_U32, compute_instance_id),
    DI(29, FIELD_U32, nvlink_count),
};
TABLE(fields_device_info, device_info_fields);

#define DS(tag, kind, member) F(tag, kind, struct nvt_device_state, member)
static const struct field device_state_fields[] = {
    DS(1, FIELD_STATUS, status),
    DS(2, FIELD_U64, memory_total_bytes),
    DS(3, FIELD_U64, memory_used_bytes),
    DS(4, FIELD_U64, memory_free_bytes),
    DS(5, FIELD_U64, memory_reserved_bytes),
    DS(6, FIELD_BOOL, memory_is_host),
    DS(7, FIELD_U64, bar1_total_bytes),
    DS(8, FIELD_U64, bar1_used_bytes),
    DS(9, FIELD_U64, bar1_free_bytes),
    DS(10, FIELD_U32, gpu_util_pct),
    DS(11, FIELD_U32, memory_bandwidth_util_pct),
    DS(12, FIELD_U32, encoder_util_pct),
    DS(13, FIELD_U32, decoder_util_pct),
    DS(14, FIELD_U32, clock_graphics_mhz),
    DS(15, FIELD_U32, clock_sm_mhz),
    DS(16, FIELD_U32, clock_memory_mhz),
    DS(17, FIELD_U32, clock_video_mhz),
    DS(18, FIELD_U32, fan_speed_pct),
    DS(19, FIELD_U32, temperature_c),
    DS(20, FIELD_U32, power_usage_mw),
    DS(21, FIELD_U32, power_limit_mw),
    DS(22, FIELD_U32, performance_state),
    DS(23, FIELD_INT, persistence_mode),
    DS(24, FIELD_INT, display_active),
    DS(25, FIELD_INT, display_mode),
    DS(26, FIELD_INT, power_management),
    DS(27, FIELD_INT, compute_mode),
    DS(28, FIELD_INT, mig_mode),
    DS(29, FIELD_U64, ecc_uncorrected_volatile),
    DS(30, FIELD_U32, pcie_link_gen),
    DS(31, FIELD_U32, pcie_link_width),
    DS(32, FIELD_U32, pcie_tx_kibps),
    DS(33, FIELD_U32, pcie_rx_kibps),
    DS(34, FIELD_DOUBLES, nvlink_tx_kibps),
    DS(35, FIELD_DOUBLES, nvlink_rx_kibps),
};
TABLE(fields_device_state, device_state_fields);

#define GP(tag, kind, member) F(tag, kind, struct nvt_gpu_process, member)
static const struct field gpu_process_fields[] = {
    GP(1, FIELD_U32, pid),
    GP(2, FIELD_SIZE, device),
    GP(3, FIELD_U32, type),
    GP(4, FIELD_U64, gpu_memory_bytes),
    GP(5, FIELD_U32, gpu_instance_id),
    GP(6, FIELD_U32, compute_instance_id),
    GP(7, FIELD_U32, sm_util_pct),
    GP(8, FIELD_U32, memory_util_pct),
    GP(9, FIELD_U32, encoder_util_pct),
    GP(10, FIELD_U32, decoder_util_pct),
};
TABLE(fields_gpu_process, gpu_process_fields);

/* Strings and argv of a host process are tags 20-23, handled by the frame codec. */
#define HP(tag, kind, member) F(tag, kind, struct nvt_host_process, member)
static const struct field host_process_fields[] = {
    HP(1, FIELD_U32, pid),
    HP(2, FIELD_STATUS, status),
    HP(3, FIELD_CHAR, state),
    HP(4, FIELD_U32, ppid),
    HP(5, FIELD_U32, uid),
    HP(6, FIELD_U32, uid_effective),
    HP(7, FIELD_U32, uid_saved),
    HP(8, FIELD_U32, num_threads),
    HP(9, FIELD_DOUBLE, cpu_percent),
    HP(10, FIELD_DOUBLE, memory_percent),
    HP(11, FIELD_U64, rss_bytes),
    HP(12, FIELD_DOUBLE, create_time),
    {13, FIELD_ELAPSED, sizeof(double), offsetof(struct nvt_host_process, running_time_s),
     offsetof(struct nvt_host_process, create_time)},
};
TABLE(fields_host_process, host_process_fields);

/* The per-CPU percentages are tag 30, handled by the frame codec. */
#define HS(tag, kind, member) F(tag, kind, struct nvt_host_state, member)
static const struct field host_state_fields[] = {
    HS(1, FIELD_DOUBLE, cpu_percent),
    HS(2, FIELD_U32, cpu_count),
    HS(3, FIELD_DOUBLE, load_1m),
    HS(4, FIELD_DOUBLE, load_5m),
    HS(5, FIELD_DOUBLE, load_15m),
    HS(6, FIELD_U64, memory_total_bytes),
    HS(7, FIELD_U64, memory_available_bytes),
    HS(8, FIELD_U64, memory_used_bytes),
    HS(9, FIELD_U64, memory_free_bytes),
    HS(10, FIELD_DOUBLE, memory_percent),
    HS(11, FIELD_U64, swap_total_bytes),
    HS(12, FIELD_U64, swap_used_bytes),
    HS(13, FIELD_U64, swap_free_bytes),
    HS(14, FIELD_DOUBLE, swap_percent),
    HS(15, FIELD_DOUBLE, uptime_s),
    HS(16, FIELD_DOUBLE, boot_time),
    HS(17, FIELD_TEXT, hostname),
};
TABLE(fields_host_state, host_state_fields);

static int read_int(const unsigned char *at) {
    int value;
    memcpy(&value, at, sizeof(value));
    return value;
}

void fields_encode(struct strbuf *out, const struct field_table *table, const void *base) {
    const unsigned char *bytes = base;
    for (size_t i = 0; i < table->count; i++) {
        const struct field *f = &table->fields[i];
        const unsigned char *at = bytes + f->offset;
        switch ((enum field_kind)f->kind) {
        case FIELD_U32: {
            uint32_t v;
            memcpy(&v, at, sizeof(v));
            wire_put_uint(out, f->tag, v);
            break;
        }
        case FIELD_U64: {
            uint64_t v;
            memcpy(&v, at, sizeof(v));
            wire_put_uint(out, f->tag, v);
            break;
        }
        case FIELD_I32: {
            int32_t v;
            memcpy(&v, at, sizeof(v));
            wire_put_sint(out, f->tag, v);
            break;
        }
        case FIELD_INT:
        case FIELD_STATUS:
            wire_put_sint(out, f->tag, read_int(at));
            break;
        case FIELD_BOOL: {
            bool v;
            memcpy(&v, at, sizeof(v));
            wire_put_uint(out, f->tag, v ? 1 : 0);
            break;
        }
        case FIELD_CHAR:
            wire_put_uint(out, f->tag, (unsigned char)*at);
            break;
        case FIELD_SIZE: {
            size_t v;
            memcpy(&v, at, sizeof(v));
            wire_put_uint(out, f->tag, v == NVT_NA_SIZE ? UINT64_MAX : (uint64_t)v);
            break;
        }
        case FIELD_DOUBLE:
        case FIELD_ELAPSED: {
            double v;
            memcpy(&v, at, sizeof(v));
            wire_put_double(out, f->tag, v);
            break;
        }
        case FIELD_TEXT:
            wire_put_bytes(out, f->tag, at, strnlen((const char *)at, f->size));
            break;
        case FIELD_DOUBLES: {
            /* Packed little-endian doubles (the host's order: recordings move between x86-64 and
             * aarch64 hosts, both little-endian; a big-endian host is refused at open). */
            wire_put_bytes(out, f->tag, at, f->size);
            break;
        }
        }
    }
}

void fields_default(const struct field_table *table, void *base) {
    unsigned char *bytes = base;
    for (size_t i = 0; i < table->count; i++) {
        const struct field *f = &table->fields[i];
        unsigned char *at = bytes + f->offset;
        switch ((enum field_kind)f->kind) {
        case FIELD_U32:
        case FIELD_U64:
        case FIELD_SIZE:
            memset(at, 0xFF, f->size);
            break;
        case FIELD_I32: {
            int32_t v = NVT_NA_I32;
            memcpy(at, &v, sizeof(v));
            break;
        }
        case FIELD_INT: {
            int v = -1;
            memcpy(at, &v, sizeof(v));
            break;
        }
        case FIELD_DOUBLE:
        case FIELD_ELAPSED:
        case FIELD_DOUBLES:
            for (size_t k = 0; k + sizeof(double) <= f->size; k += sizeof(double)) {
                double v = NAN;
                memcpy(at + k, &v, sizeof(v));
            }
            break;
        default:
            memset(at, 0, f->size);
            break;
        }
    }
}

bool fields_decode(const struct field_table *table, void *base, const struct wire_field *field) {
    const struct field *f = NULL;
    for (size_t i = 0; i < table->count; i++) {
        if (table->fields[i].tag == field->tag) {
            f = &table->fields[i];
            break;
        }
    }
    if (f == NULL) {
        return false;
    }
    unsigned char *at = (unsigned char *)base + f->offset;
    enum field_kind kind = (enum field_kind)f->kind;
    bool bytes = kind == FIELD_TEXT || kind == FIELD_DOUBLES;
    bool f64 = kind == FIELD_DOUBLE || kind == FIELD_ELAPSED;
    if ((bytes && field->type != WIRE_BYTES) || (f64 && field->type != WIRE_F64) ||
        (!bytes && !f64 && field->type != WIRE_VARINT)) {
        return false; /* a later version changed the type: keep N/A */
    }
    switch (kind) {
    case FIELD_U32: {
        uint32_t v = (uint32_t)field->value;
        memcpy(at, &v, sizeof(v));
        break;
    }
    case FIELD_U64:
        memcpy(at, &field->value, sizeof(field->value));
        break;
    case FIELD_I32: {
        int32_t v = (int32_t)wire_zigzag_decode(field->value);
        memcpy(at, &v, sizeof(v));
        break;
    }
    case FIELD_INT:
    case FIELD_STATUS: {
        int v = (int)wire_zigzag_decode(field->value);
        memcpy(at, &v, sizeof(v));
        break;
    }
    case FIELD_BOOL: {
        bool v = field->value != 0;
        memcpy(at, &v, sizeof(v));
        break;
    }
    case FIELD_CHAR:
        *at = (unsigned char)field->value;
        break;
    case FIELD_SIZE: {
        size_t v = field->value == UINT64_MAX ? NVT_NA_SIZE : (size_t)field->value;
        memcpy(at, &v, sizeof(v));
        break;
    }
    case FIELD_DOUBLE:
    case FIELD_ELAPSED: {
        double v = wire_as_double(field->value);
        memcpy(at, &v, sizeof(v));
        break;
    }
    case FIELD_TEXT: {
        size_t n = field->size < f->size - 1 ? field->size : f->size - 1;
        memcpy(at, field->bytes, n);
        at[n] = '\0';
        break;
    }
    case FIELD_DOUBLES: {
        size_t n = field->size < f->size ? field->size : f->size;
        n -= n % sizeof(double);
        memcpy(at, field->bytes, n);
        break;
    }
    }
    return true;
}
