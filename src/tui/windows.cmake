# The monitor's part of the Windows cross-build (cmake/NvtWindows.cmake): the settings file,
# which the command line reads on every system, and the console monitor's entry point.
add_library(nvitop_tui STATIC
    settings/settings.c
    settings/settings_file.c
    settings/settings_format.c
    tui_windows.c)
target_include_directories(nvitop_tui PUBLIC ${CMAKE_SOURCE_DIR}/src ${CMAKE_SOURCE_DIR}/include)
target_link_libraries(nvitop_tui PUBLIC nvitop_view nvitop_util)
