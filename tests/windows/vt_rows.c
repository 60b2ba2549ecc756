/*
 * The smallest program that draws as the monitor's console back-end does (src/tui/term_windows.c):
 * virtual-terminal processing and the UTF-8 output code page on, the alternate screen, then every
 * row of the window but the last behind a cursor address, "NN" and '=' up to the given width, in
 * one WriteFile; the last row tells the window's size.  scripts/wine-vt-repro.sh runs it in tmux
 * under wine to show wine's console damage (docs/windows.md, "The monitor").
 *
 * usage: vt_rows.exe [WIDTH [SECONDS]]   (WIDTH 0: the window's; SECONDS shown before exiting)
 */
#include <stdio.h>
#include <stdlib.h>
#include <windows.h>

int main(int argc, char **argv) {
    int width = argc > 1 ? atoi(argv[1]) : 0;
    int seconds = argc > 2 ? atoi(argv[2]) : 30;
    HANDLE out = GetStdHandle(STD_OUTPUT_HANDLE);
    DWORD mode = 0;
    CONSOLE_SCREEN_BUFFER_INFO info;
    if (!GetConsoleMode(out, &mode) || !GetConsoleScreenBufferInfo(out, &info)) {
        fprintf(stderr, "vt_rows: not a console\n");
        return 1;
    }
    SetConsoleMode(out, mode | ENABLE_VIRTUAL_TERMINAL_PROCESSING | DISABLE_NEWLINE_AUTO_RETURN);
    SetConsoleOutputCP(CP_UTF8);
    int cols = info.srWindow.Right - info.srWindow.Left + 1;
    int rows = info.srWindow.Bottom - info.srWindow.Top + 1;
    width = width <= 0 || width > cols ? cols : width;
    size_t size = (size_t)rows * ((size_t)width + 16) + 128;
    char *frame = malloc(size);
    if (frame == NULL || width < 3 || rows < 2 || rows > 99) {
        fprintf(stderr, "vt_rows: cannot draw %dx%d\n", cols, rows);
        return 1;
    }
    int len = snprintf(frame, size, "\033[?1049h\033[?25l\033[2J");
    for (int row = 1; row < rows; row++) {
        len += snprintf(frame + len, size - (size_t)len, "\033[%d;1H%02d", row, row);
        for (int col = 2; col < width; col++) {
            frame[len++] = '=';
        }
    }
    len += snprintf(frame + len, size - (size_t)len, "\033[%d;1Hwindow %dx%d", rows, cols, rows);
    DWORD written = 0;
    WriteFile(out, frame, (DWORD)len, &written, NULL);
    Sleep((DWORD)seconds * 1000);
    static const char leave[] = "\033[?25h\033[?1049l";
    WriteFile(out, leave, (DWORD)(sizeof(leave) - 1), &written, NULL);
    SetConsoleMode(out, mode);
    free(frame);
    return 0;
}
