# The Windows cross-build (cmake/mingw-w64-x86_64.cmake; `make windows`; docs/windows.md): the
# library as nvitop.dll with its import library, nvitop.exe (once report, JSON, queries and the
# monitor on the Windows console), nvisel.exe and the simulated driver as sim-driver/nvml.dll.
# The recorder, exporter, collector and cluster view stay Linux-only: their Debian dependencies
# (zstd, libcurl, libmicrohttpd, GnuTLS) have no mingw-w64 build.  The tests run on Linux under
# wine (tests/windows), so nothing here registers a test.
set(NVT_BUILD_TESTS OFF)
set(NVT_WINDOWS ON)

# Windows 10 1809 is the first with ConPTY and full virtual-terminal input (docs/windows.md).
add_compile_definitions(_WIN32_WINNT=0x0A00 WINVER=0x0A00 WIN32_LEAN_AND_MEAN __USE_MINGW_ANSI_STDIO=1
                        _POSIX_THREAD_SAFE_FUNCTIONS=200112L)
# With mingw-w64, format(printf) means the Microsoft runtime's printf, which lacks %zu and %lld,
# while the programs use the standard one (__USE_MINGW_ANSI_STDIO); the Linux build checks the
# same format strings, so the check is off here rather than wrong.
add_compile_options(-Wno-format)
# The programs carry the C runtime's and winpthreads' code, so that only Windows' own DLLs and
# nvitop.dll are needed beside them.
add_link_options(-static-libgcc -static)
# <dlfcn.h> over the Windows loader, and secure_getenv (src/util/sys/win/).
include_directories(BEFORE ${CMAKE_SOURCE_DIR}/src/util/sys/win)
add_compile_options(-include ${CMAKE_SOURCE_DIR}/src/util/sys/win/compat.h)
# Every target links the compatibility functions (created first, so it does not link itself).
add_library(nvt_wincompat STATIC src/util/sys/win/compat.c src/util/sys/win/dlfcn.c
            src/util/sys/win/poll.c)
target_include_directories(nvt_wincompat PRIVATE ${CMAKE_SOURCE_DIR}/src)
link_libraries(nvt_wincompat)

add_subdirectory(src/util)
add_subdirectory(sim)
add_subdirectory(src/lib)
add_subdirectory(src/view)
add_subdirectory(src/settings)
add_subdirectory(src/tui)
add_subdirectory(src/cmd/nvitop)
add_subdirectory(src/cmd/nvisel)
add_subdirectory(tests/windows)

# The public headers beside the import library (<build>/include/nvitop), for programs built
# against nvitop.dll.
add_custom_target(nvitop_headers ALL
    COMMAND ${CMAKE_COMMAND} -E copy_directory ${CMAKE_SOURCE_DIR}/include/nvitop
            ${CMAKE_BINARY_DIR}/include/nvitop
    COMMENT "Copying the public headers")
