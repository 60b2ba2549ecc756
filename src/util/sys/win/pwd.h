/*
 * getpwuid() for the Windows build (see compat.h): the one user it knows is the caller, whose
 * account name (GetUserNameW, in UTF-8) it returns for any uid; pw_dir is %USERPROFILE%.
 */
#ifndef NVITOP_SRC_UTIL_SYS_WIN_PWD_H
#define NVITOP_SRC_UTIL_SYS_WIN_PWD_H

#include <sys/types.h>

typedef unsigned uid_t;

struct passwd {
    char *pw_name;
    char *pw_dir;
};

/* A per-thread result, as POSIX allows for getpwuid(); NULL when the name cannot be read. */
struct passwd *getpwuid(uid_t uid);

#endif /* NVITOP_SRC_UTIL_SYS_WIN_PWD_H */
