/*
 * The output's character set on Windows (console.h): nvitop.exe always writes UTF-8.  A console
 * gets the UTF-8 output code page and virtual-terminal processing (for the colours of -1); a pipe
 * or file simply receives the UTF-8 bytes.  The C locale stays "C" for the rest: the C runtime's
 * multibyte functions are not used for output.
 */
#include <windows.h>

#include "cmd/nvitop/output/console.h"

bool console_setup_utf8(void) {
    HANDLE out = GetStdHandle(STD_OUTPUT_HANDLE);
    DWORD mode = 0;
    if (out != INVALID_HANDLE_VALUE && GetConsoleMode(out, &mode)) {
        SetConsoleOutputCP(CP_UTF8);
        SetConsoleMode(out, mode | ENABLE_VIRTUAL_TERMINAL_PROCESSING);
    }
    return true;
}
