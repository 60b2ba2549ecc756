/*
 * The version of the library that is actually loaded, which may differ from the header a program
 * was built with.
 */
#include <nvitop/version.h>

const char *nvt_version_string(void) {
    return NVT_VERSION_STRING;
}
