/*
 * A scenario file's identity from stat(2) (see sim_reload.h); sim_file_id_windows.c is the
 * Windows build's.
 */
#include <string.h>
#include <sys/stat.h>

#include "driver/sim_reload.h"

bool sim_file_identity(const char *path, struct sim_file_id *id) {
    struct stat st;
    if (stat(path, &st) != 0) {
        return false;
    }
    memset(id, 0, sizeof(*id));
    id->device = st.st_dev;
    id->inode = st.st_ino;
    id->size = st.st_size;
    id->modified = st.st_mtim;
    id->changed = st.st_ctim;
    return true;
}
