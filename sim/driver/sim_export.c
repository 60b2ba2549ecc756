#include "driver/sim_export.h"

#include "model/sim_value.h"

static const void *device_field(const struct sim_query *q, size_t offset) {
    return (const char *)q->device + offset;
}

nvmlReturn_t sim_export_uint(enum sim_call_id id, nvmlDevice_t device, size_t offset,
                             unsigned int *out) {
    struct sim_query q;
    nvmlReturn_t ret = sim_begin_gpu(&q, id, device, out != NULL);
    if (ret == NVML_SUCCESS) {
        ret = sim_value_uint(device_field(&q, offset), q.t_s, out);
    }
    return sim_end(&q, ret);
}

nvmlReturn_t sim_export_flag(enum sim_call_id id, nvmlDevice_t device, size_t offset,
                             nvmlEnableState_t *out) {
    struct sim_query q;
    nvmlReturn_t ret = sim_begin_gpu(&q, id, device, out != NULL);
    unsigned int v = 0;
    if (ret == NVML_SUCCESS) {
        ret = sim_value_uint(device_field(&q, offset), q.t_s, &v);
    }
    if (ret == NVML_SUCCESS) {
        *out = v != 0 ? NVML_FEATURE_ENABLED : NVML_FEATURE_DISABLED;
    }
    return sim_end(&q, ret);
}

nvmlReturn_t sim_export_text(enum sim_call_id id, nvmlDevice_t device, size_t offset, char *buf,
                             unsigned int length) {
    struct sim_query q;
    nvmlReturn_t ret = sim_begin_gpu(&q, id, device, buf != NULL);
    if (ret == NVML_SUCCESS) {
        ret = sim_copy_text(device_field(&q, offset), buf, length);
    }
    return sim_end(&q, ret);
}
