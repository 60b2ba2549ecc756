/*
 * nvitop's help and usage texts, laid out as argparse lays them out (usage wrapped to the
 * terminal width, option groups "options", "coloring", "device filtering", "process
 * filtering").
 */
#ifndef NVITOP_SRC_CMD_NVITOP_CLI_OPTIONS_HELP_H
#define NVITOP_SRC_CMD_NVITOP_CLI_OPTIONS_HELP_H

/* Print the usage and the help to stdout (the colouring rules in colour on a terminal). */
void nvitop_help_print(void);

/* Print the usage and "nvitop: error: <message>" to stderr. */
void nvitop_usage_error(const char *message);

#endif /* NVITOP_SRC_CMD_NVITOP_CLI_OPTIONS_HELP_H */
