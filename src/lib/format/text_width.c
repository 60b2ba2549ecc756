/* Terminal cell width of UTF-8 text (nvitop's WideString, plus zero-width combining marks). */
#include <string.h>

#include <nvitop/format.h>

#include "util/text/utf8.h"

size_t nvt_text_width(const char *text) {
    if (text == NULL) {
        return 0;
    }
    return utf8_width(text, strlen(text));
}
