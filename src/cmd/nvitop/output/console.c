/*
 * The output's character set on Linux (console.h).
 */
#include "cmd/nvitop/output/console.h"

#include <locale.h>
#include <stddef.h>
#include <string.h>

#include "util/array.h"

/* setlocale_utf8(): the first locale that can be set decides; it must be a UTF-8 one. */
bool console_setup_utf8(void) {
    static const char *const codes[] = {"C.UTF-8", "en_US.UTF-8", "", "C"};
    for (size_t i = 0; i < ARRAY_SIZE(codes); i++) {
        const char *name = setlocale(LC_ALL, codes[i]);
        if (name == NULL) {
            continue;
        }
        return strcasestr(name, "utf8") != NULL || strcasestr(name, "utf-8") != NULL;
    }
    return false;
}
