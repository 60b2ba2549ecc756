/*
 * Status names and messages, expanded from the one list in <nvitop/status.h>.
 */
#include <nvitop/status.h>

const char *nvt_strerror(nvt_status status) {
    switch (status) {
#define NVT_STATUS_MESSAGE(name, value, message)                                                   \
    case NVT_##name:                                                                               \
        return message;
        NVT_STATUS_MAP(NVT_STATUS_MESSAGE)
#undef NVT_STATUS_MESSAGE
    }
    return "Unknown status";
}

const char *nvt_status_name(nvt_status status) {
    switch (status) {
#define NVT_STATUS_NAME(name, value, message)                                                      \
    case NVT_##name:                                                                               \
        return #name;
        NVT_STATUS_MAP(NVT_STATUS_NAME)
#undef NVT_STATUS_NAME
    }
    return "UNKNOWN";
}
