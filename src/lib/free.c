/*
 * nvt_free: every block the library hands out comes from this library's malloc.
 */
#include <stdlib.h>

#include <nvitop/common.h>

void nvt_free(void *block) {
    free(block);
}
