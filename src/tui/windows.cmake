# The monitor in the Windows cross-build (cmake/NvtWindows.cmake): the same screens, widgets,
# sampler and event loop as on Linux, with the Windows console back-end (term_windows.c) in place
# of the curses session (term.c, term_screen.c).  Replay and the cluster screen are left out with
# the recorder and the cluster view (docs/windows.md).
find_package(Threads REQUIRED)
add_library(nvitop_tui STATIC
    app.c
    app_sampling.c
    app_settings.c
    app_source.c
    canvas.c
    history.c
    selection.c
    term_windows.c
    tui.c
    cluster/cluster_help.c
    cluster/cluster_node.c
    cluster/cluster_order.c
    live/sampler.c
    live/source_live.c
    live/watch.c
    replay/replay_frames.c
    replay/replay_keys.c
    screens/environ_screen.c
    screens/help_screen.c
    screens/main_screen.c
    screens/metrics_draw.c
    screens/metrics_screen.c
    screens/metrics_state.c
    screens/screen.c
    screens/tree_screen.c
    widgets/device_widget.c
    widgets/graph.c
    widgets/host_history.c
    widgets/host_widget.c
    widgets/message_box.c
    widgets/process_widget.c
    ${CMAKE_SOURCE_DIR}/src/record/related.c)
target_include_directories(nvitop_tui PUBLIC ${CMAKE_SOURCE_DIR}/src ${CMAKE_SOURCE_DIR}/include)
target_link_libraries(nvitop_tui PUBLIC nvitop_view nvitop_settings nvitop nvitop_util Threads::Threads)
