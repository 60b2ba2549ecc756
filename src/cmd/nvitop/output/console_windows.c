/*
 * The output's character set on Windows (console.h): nvitop.exe always writes UTF-8.  A console
 * gets the UTF-8 output code page and virtual-terminal processing (for the colours of -1); a pipe
 * or file simply receives the UTF-8 bytes (with Windows line ends).  The C locale stays "C" for the
 * rest: the C runtime's multibyte functions are not used for output.
 */
#include <fcntl.h>
#include <io.h>
#include <stdio.h>
#include <windows.h>

#include "cmd/nvitop/output/console.h"

/* Room for a whole report: the C runtime then writes it with a few WriteFile calls.  Without a
 * buffer of ours, wine's C runtime writes standard output to a pipe or file some 25 bytes at a
 * time, each write two round trips to wineserver (1,453 writes for the 8-GPU report). */
enum {
    OUTPUT_BUFFER = 1 << 16
};

bool console_setup_utf8(void) {
    (void)setvbuf(stdout, NULL, _IOFBF, OUTPUT_BUFFER);
    HANDLE out = GetStdHandle(STD_OUTPUT_HANDLE);
    DWORD mode = 0;
    if (out != INVALID_HANDLE_VALUE && GetConsoleMode(out, &mode)) {
        SetConsoleOutputCP(CP_UTF8);
        SetConsoleMode(out, mode | ENABLE_VIRTUAL_TERMINAL_PROCESSING);
        /* Bytes as they are: in text mode the C runtime would convert them from the locale's
         * code page (the console turns a line feed into a new line by itself). */
        fflush(stdout);
        _setmode(_fileno(stdout), _O_BINARY);
    }
    return true;
}
