/*
 * Status names and messages, expanded from the private list in status_list.h, which is checked
 * here against the public enum so that the two cannot drift.
 */
#include <assert.h>

#include <nvitop/status.h>

#include "status_list.h"

#define NVT_STATUS_CHECK(name, value, message)                                                     \
    static_assert(NVT_##name == (value), "status list and <nvitop/status.h> disagree on " #name);
NVT_STATUS_LIST(NVT_STATUS_CHECK)
#undef NVT_STATUS_CHECK

const char *nvt_strerror(nvt_status status) {
    switch (status) {
#define NVT_STATUS_MESSAGE(name, value, message)                                                   \
    case NVT_##name:                                                                               \
        return message;
        NVT_STATUS_LIST(NVT_STATUS_MESSAGE)
#undef NVT_STATUS_MESSAGE
    }
    return "Unknown status";
}

const char *nvt_status_name(nvt_status status) {
    switch (status) {
#define NVT_STATUS_NAME(name, value, message)                                                      \
    case NVT_##name:                                                                               \
        return #name;
        NVT_STATUS_LIST(NVT_STATUS_NAME)
#undef NVT_STATUS_NAME
    }
    return "UNKNOWN";
}
