/*
 * The library's own version: what the headers it was built with say.
 */
#include <nvitop/version.h>

const char *nvt_version_string(void) {
    return NVT_VERSION_STRING;
}

unsigned nvt_version_num(void) {
    return NVT_VERSION_NUM;
}
