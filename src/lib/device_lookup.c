/*
 * Finding a device by UUID (full, abbreviated, or a MIG device by its GPU's UUID and instance ids)
 * and by PCI bus id.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <nvitop/device.h>

#include "internal.h"
#include "nvml/nvml_backend.h"

/* Hex digits of a UUID after its "GPU-"/"MIG-" prefix, without dashes, lower-cased. */
static size_t uuid_digits(const char *text, char *digits, size_t size) {
    size_t n = 0;
    for (; *text != '\0'; text++) {
        if (*text == '-') {
            continue;
        }
        if (!isxdigit((unsigned char)*text) || n + 1 >= size) {
            return 0;
        }
        digits[n++] = (char)tolower((unsigned char)*text);
    }
    digits[n] = '\0';
    return n;
}

/* Does the query (full or abbreviated, same prefix) name this device's UUID? */
static bool uuid_matches(const char *uuid, const char *query) {
    if (uuid[0] == '\0' || strncmp(uuid, query, 4) != 0) {
        return false;
    }
    if (strcasecmp(uuid, query) == 0) {
        return true;
    }
    char want[64];
    char have[64];
    size_t n = uuid_digits(query + 4, want, sizeof(want));
    if (n < 8 || uuid_digits(uuid + 4, have, sizeof(have)) == 0) {
        return false;
    }
    return strncmp(have, want, n) == 0;
}

/* "MIG-GPU-<uuid>/<gi>/<ci>": the MIG device of that GPU with those instance ids. */
static nvt_status by_mig_path(nvt_context *ctx, const char *query, nvt_device **out) {
    char gpu[NVT_UUID_LEN];
    const char *slash = strchr(query, '/');
    size_t length = (size_t)(slash - (query + 4));
    if (length >= sizeof(gpu)) {
        return NVT_ERR_NOT_FOUND;
    }
    memcpy(gpu, query + 4, length);
    gpu[length] = '\0';
    char *end = NULL;
    unsigned long gi = strtoul(slash + 1, &end, 10);
    if (end == slash + 1 || *end != '/') {
        return NVT_ERR_NOT_FOUND;
    }
    const char *ci_text = end + 1;
    unsigned long ci = strtoul(ci_text, &end, 10);
    if (end == ci_text || *end != '\0') {
        return NVT_ERR_NOT_FOUND;
    }
    nvt_device *parent = NULL;
    if (nvt_device_by_uuid(ctx, gpu, &parent) != NVT_OK) {
        return NVT_ERR_NOT_FOUND;
    }
    uint32_t count = nvt_device_mig_count(parent);
    for (uint32_t k = 0; k < count; k++) {
        nvt_device *child = parent->children[k];
        device_ensure_facts(child, NVML_FACTS_MIG, NULL);
        if (child->info.gpu_instance_id == gi && child->info.compute_instance_id == ci) {
            *out = child;
            return NVT_OK;
        }
    }
    return NVT_ERR_NOT_FOUND;
}

nvt_status nvt_device_by_uuid(nvt_context *ctx, const char *uuid, nvt_device **out) {
    if (ctx == NULL || uuid == NULL || out == NULL) {
        return NVT_ERR_INVALID_ARGUMENT;
    }
    if (strncmp(uuid, "MIG-GPU-", 8) == 0 && strchr(uuid, '/') != NULL) {
        return by_mig_path(ctx, uuid, out);
    }
    bool mig = strncmp(uuid, "MIG-", 4) == 0;
    if (!mig && strncmp(uuid, "GPU-", 4) != 0) {
        return NVT_ERR_NOT_FOUND;
    }
    nvt_device *found = NULL;
    size_t matches = 0;
    for (uint32_t i = 0; i < ctx->system.device_count; i++) {
        nvt_device *device = ctx->devices[i];
        if (!mig) {
            device_ensure_facts(device, NVML_FACTS_UUID, NULL);
            if (uuid_matches(device->info.uuid, uuid)) {
                found = device;
                matches++;
            }
            continue;
        }
        uint32_t count = nvt_device_mig_count(device);
        for (uint32_t k = 0; k < count; k++) {
            nvt_device *child = device->children[k];
            device_ensure_facts(child, NVML_FACTS_UUID, NULL);
            if (uuid_matches(child->info.uuid, uuid)) {
                found = child;
                matches++;
            }
        }
    }
    if (matches != 1) {
        return NVT_ERR_NOT_FOUND;
    }
    *out = found;
    return NVT_OK;
}

/* A PCI bus id "[domain:]bus:device.function" in hex, as numbers; false when malformed. */
struct bus_address {
    bool has_domain;
    unsigned long domain, bus, device, function;
};

static bool parse_bus_id(const char *text, struct bus_address *out) {
    unsigned long parts[4];
    size_t n = 0;
    const char *cursor = text;
    while (n < 4) {
        char *end = NULL;
        parts[n] = strtoul(cursor, &end, 16);
        if (end == cursor || parts[n] > 0xFFFFFFFFUL) {
            return false;
        }
        n++;
        if (*end == '\0') {
            break;
        }
        if (*end != ':' && *end != '.') {
            return false;
        }
        cursor = end + 1;
    }
    if (n < 3) {
        return false;
    }
    out->has_domain = n == 4;
    out->domain = n == 4 ? parts[0] : 0;
    out->bus = parts[n - 3];
    out->device = parts[n - 2];
    out->function = parts[n - 1];
    return true;
}

/* Same address; a query without a domain ("1A:00.0") matches any domain. */
static bool bus_id_matches(const char *bus_id, const struct bus_address *query) {
    struct bus_address have;
    if (!parse_bus_id(bus_id, &have)) {
        return false;
    }
    return have.bus == query->bus && have.device == query->device &&
           have.function == query->function && (!query->has_domain || have.domain == query->domain);
}

nvt_status nvt_device_by_bus_id(nvt_context *ctx, const char *bus_id, nvt_device **out) {
    if (ctx == NULL || bus_id == NULL || out == NULL) {
        return NVT_ERR_INVALID_ARGUMENT;
    }
    struct bus_address query;
    if (!parse_bus_id(bus_id, &query)) {
        return NVT_ERR_NOT_FOUND;
    }
    for (uint32_t i = 0; i < ctx->system.device_count; i++) {
        nvt_device *device = ctx->devices[i];
        device_ensure_facts(device, NVML_FACTS_CORE, NULL);
        if (bus_id_matches(device->info.bus_id, &query)) {
            *out = device;
            return NVT_OK;
        }
    }
    return NVT_ERR_NOT_FOUND;
}
