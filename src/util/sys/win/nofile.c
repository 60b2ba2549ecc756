/* Windows has no RLIMIT_NOFILE: handles are limited only by memory (see ../nofile.h). */
#include "util/sys/nofile.h"

uint64_t nofile_soft_limit(void) {
    return 0;
}

bool nofile_raise_soft_limit(void) {
    return false;
}
