/*
 * The terminal-size ioctl for the Windows build (see ../compat.h): TIOCGWINSZ on a descriptor
 * whose handle is a console answers the console window's size; anything else fails with ENOTTY.
 */
#ifndef NVITOP_SRC_UTIL_SYS_WIN_SYS_IOCTL_H
#define NVITOP_SRC_UTIL_SYS_WIN_SYS_IOCTL_H

struct winsize {
    unsigned short ws_row;
    unsigned short ws_col;
    unsigned short ws_xpixel;
    unsigned short ws_ypixel;
};

#define TIOCGWINSZ 0x5413

int ioctl(int fd, unsigned long request, ...);

#endif /* NVITOP_SRC_UTIL_SYS_WIN_SYS_IOCTL_H */
