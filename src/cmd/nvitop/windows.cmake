# nvitop.exe for the Windows cross-build (cmake/NvtWindows.cmake): the sources of CMakeLists.txt
# but the cluster view, replay and recorder, which answer with one message there
# (modes/windows_unavailable.c; docs/windows.md says why).
add_executable(nvitop-bin
    main.c
    cli/options.c
    cli/options_help.c
    cli/settings_resolve.c
    modes/run_config.c
    modes/windows_unavailable.c
    output/console_windows.c
    output/json.c
    output/json_writer.c
    output/messages.c
    output/output.c
    output/query.c
    output/report.c)
set_target_properties(nvitop-bin PROPERTIES OUTPUT_NAME nvitop)
target_link_libraries(nvitop-bin PRIVATE nvt_argparse nvitop_tui nvitop_view nvitop nvitop_util)
install(TARGETS nvitop-bin RUNTIME DESTINATION bin)
