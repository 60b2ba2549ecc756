/*
 * The words of the settings file, shared by its parser (settings.c) and writer
 * (settings_format.c).  Constant tables, indexed by the enums of settings.h and view/.
 */
#ifndef NVITOP_SRC_SETTINGS_SETTINGS_NAMES_H
#define NVITOP_SRC_SETTINGS_SETTINGS_NAMES_H

/* enum view_display_mode: auto, full, compact */
extern const char *const tui_settings_mode_names[];
/* enum view_sort_order: natural, pid, user, ... */
extern const char *const tui_settings_sort_names[];
/* enum tui_collect_format: auto, csv, jsonl */
extern const char *const tui_settings_format_names[];

#endif /* NVITOP_SRC_SETTINGS_SETTINGS_NAMES_H */
