/*
 * The output's character set, per operating system: console.c on Linux (a UTF-8 locale, as
 * nvitop's setlocale_utf8), console_windows.c on Windows (the console's UTF-8 code page and
 * virtual-terminal processing for colours).
 */
#ifndef NVITOP_SRC_CMD_NVITOP_OUTPUT_CONSOLE_H
#define NVITOP_SRC_CMD_NVITOP_OUTPUT_CONSOLE_H

#include <stdbool.h>

/* Prepare the output for UTF-8 text; false when only ASCII can be shown (nvitop then draws with
 * ASCII characters, as --ascii). */
bool console_setup_utf8(void);

#endif /* NVITOP_SRC_CMD_NVITOP_OUTPUT_CONSOLE_H */
