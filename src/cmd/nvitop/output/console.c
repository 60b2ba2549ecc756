/*
 * The output's character set on Linux (console.h).
 */
#include "cmd/nvitop/output/console.h"

#include <locale.h>
#include <stddef.h>
#include <string.h>

#include "util/array.h"

/* setlocale_utf8(): the first locale that can be set decides; it must be a UTF-8 one.  Only the
 * character type is set, as Python sets only it: numbers, dates and messages stay C's whatever
 * the fallback (a user's "" locale would otherwise name the days in their language), and the
 * files of the other ten categories are never mapped (44 KiB of the monitor's resident memory). */
bool console_setup_utf8(void) {
    static const char *const codes[] = {"C.UTF-8", "en_US.UTF-8", "", "C"};
    for (size_t i = 0; i < ARRAY_SIZE(codes); i++) {
        const char *name = setlocale(LC_CTYPE, codes[i]);
        if (name == NULL) {
            continue;
        }
        return strcasestr(name, "utf8") != NULL || strcasestr(name, "utf-8") != NULL;
    }
    return false;
}
