/*
 * The least a console monitor refreshing every second can do under wine: wait on the console's
 * input for a second at a time and write one changed row (the clock) after each wait, as VT
 * output; nothing else.  scripts/bench-windows.sh measures its CPU beside nvitop.exe's monitor:
 * the floor of the monitor's cost under wine, which wine's price per call sets.
 *
 *   usage: idle_frame.exe   (runs until a key is pressed or its console closes)
 */
#include <stdio.h>
#include <windows.h>

int main(void) {
    HANDLE in = GetStdHandle(STD_INPUT_HANDLE);
    HANDLE out = GetStdHandle(STD_OUTPUT_HANDLE);
    DWORD mode = 0;
    if (GetConsoleMode(out, &mode)) {
        SetConsoleMode(out, mode | ENABLE_VIRTUAL_TERMINAL_PROCESSING);
    }
    for (unsigned long tick = 0;; tick++) {
        DWORD waited = WaitForSingleObject(in, 1000);
        if (waited == WAIT_OBJECT_0) {
            INPUT_RECORD record;
            DWORD got = 0;
            if (!ReadConsoleInputW(in, &record, 1, &got)) {
                return 1;
            }
            if (got == 1 && record.EventType == KEY_EVENT && record.Event.KeyEvent.bKeyDown) {
                return 0;
            }
        } else if (waited != WAIT_TIMEOUT) {
            return 1;
        }
        char row[64];
        int n = snprintf(row, sizeof(row), "\033[1;1Hidle_frame: %lu s", tick);
        DWORD written = 0;
        if (n <= 0 || !WriteFile(out, row, (DWORD)n, &written, NULL)) {
            return 1;
        }
    }
}
