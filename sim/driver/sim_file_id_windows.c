/*
 * A scenario file's identity on Windows (see sim_reload.h): mingw's stat() has whole seconds and
 * no inode, so the size and the last-write time (100 ns ticks) come from
 * GetFileAttributesExW instead.
 */
#include <string.h>
#include <windows.h>

#include "driver/sim_reload.h"

bool sim_file_identity(const char *path, struct sim_file_id *id) {
    wchar_t wide[MAX_PATH];
    if (MultiByteToWideChar(CP_UTF8, 0, path, -1, wide, MAX_PATH) <= 0) {
        return false;
    }
    WIN32_FILE_ATTRIBUTE_DATA data;
    if (!GetFileAttributesExW(wide, GetFileExInfoStandard, &data)) {
        return false;
    }
    memset(id, 0, sizeof(*id));
    unsigned long long ticks = ((unsigned long long)data.ftLastWriteTime.dwHighDateTime << 32) |
                               data.ftLastWriteTime.dwLowDateTime;
    id->size = (off_t)(((unsigned long long)data.nFileSizeHigh << 32) | data.nFileSizeLow);
    id->modified.tv_sec = (time_t)(ticks / 10000000ULL);
    id->modified.tv_nsec = (long)(ticks % 10000000ULL) * 100;
    id->changed = id->modified;
    return true;
}
