/*
 * libFuzzer target for the settings file's parser: the input is a file's text (any bytes, NULs
 * included).  After parsing, the settings must still format into a file that parses back
 * without a warning.
 */
#include <stdint.h>
#include <stdlib.h>

#include "settings/settings.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    struct tui_settings settings;
    tui_settings_defaults(&settings);
    tui_settings_parse(&settings, (const char *)data, size, "fuzz", NULL, NULL);
    struct strbuf text = STRBUF_INIT;
    if (tui_settings_format(&settings, &text)) {
        struct tui_settings again;
        tui_settings_defaults(&again);
        if (tui_settings_parse(&again, text.data, text.len, "again", NULL, NULL) != 0) {
            abort();
        }
    }
    strbuf_fini(&text);
    return 0;
}
