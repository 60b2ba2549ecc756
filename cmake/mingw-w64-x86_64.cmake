# Cross-building for 64-bit Windows with Debian's mingw-w64 (gcc-mingw-w64-x86-64):
#   cmake -S . -B build-windows -DCMAKE_TOOLCHAIN_FILE=cmake/mingw-w64-x86_64.cmake
# `make windows` does this.  The POSIX-threads flavour of the compiler is used because the library
# and the monitor use <pthread.h> (winpthreads, linked statically so no extra DLL ships).
set(CMAKE_SYSTEM_NAME Windows)
set(CMAKE_SYSTEM_PROCESSOR x86_64)

set(NVT_MINGW_PREFIX x86_64-w64-mingw32)
find_program(CMAKE_C_COMPILER NAMES ${NVT_MINGW_PREFIX}-gcc-posix ${NVT_MINGW_PREFIX}-gcc REQUIRED)
find_program(CMAKE_RC_COMPILER NAMES ${NVT_MINGW_PREFIX}-windres)
find_program(CMAKE_AR NAMES ${NVT_MINGW_PREFIX}-ar)
find_program(CMAKE_RANLIB NAMES ${NVT_MINGW_PREFIX}-ranlib)
find_program(CMAKE_OBJCOPY NAMES ${NVT_MINGW_PREFIX}-objcopy)

set(CMAKE_FIND_ROOT_PATH /usr/${NVT_MINGW_PREFIX})
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)

# pkg-config must not hand the host's Linux libraries to the cross-compiler.
set(ENV{PKG_CONFIG_LIBDIR} /usr/${NVT_MINGW_PREFIX}/lib/pkgconfig)
set(ENV{PKG_CONFIG_PATH} "")
