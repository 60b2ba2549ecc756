# The monitor in the Windows cross-build (cmake/NvtWindows.cmake): the same screens, widgets,
# sampler and event loop as on Linux, with the Windows console back-end (term_windows.c) in place
# of the curses session (term.c, term_screen.c).  Replay and the cluster screen are left out with
# the recorder and the cluster view (docs/windows.md).
find_package(Threads REQUIRED)
add_library(nvitop_tui STATIC
    ${NVT_TUI_SHARED_SOURCES}
    term_windows.c
    ${CMAKE_SOURCE_DIR}/src/record/related.c)
target_include_directories(nvitop_tui PUBLIC ${CMAKE_SOURCE_DIR}/src ${CMAKE_SOURCE_DIR}/include)
target_link_libraries(nvitop_tui PUBLIC nvitop_view nvitop_settings nvitop nvitop_util Threads::Threads)
