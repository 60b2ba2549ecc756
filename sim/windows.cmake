# The simulated driver for the Windows cross-build (cmake/NvtWindows.cmake): nvml.dll in
# <build>/sim-driver, exporting the NVML entry points of src/lib/nvml/nvml_abi.h (a module
# definition file generated from the same X-macro list as the Linux version scripts) and reading
# scenarios with jansson-lite/, since Debian has no mingw-w64 build of Jansson.  Only the current
# driver generation is built: the per-generation variants exist for the Linux tests of the
# library's symbol probing, which does not differ on Windows.
list(REMOVE_ITEM NVT_SIM_DRIVER_SOURCES driver/sim_file_id.c)
add_library(nvt_sim_objects OBJECT ${NVT_SIM_CORE_SOURCES} ${NVT_SIM_DRIVER_SOURCES}
                                   driver/sim_file_id_windows.c driver/sim_branch.c
                                   jansson-lite/json_lite.c)
target_include_directories(nvt_sim_objects PUBLIC ${CMAKE_SOURCE_DIR}/src/lib
                                                  ${CMAKE_CURRENT_SOURCE_DIR}
                                                  ${CMAKE_CURRENT_SOURCE_DIR}/jansson-lite)

file(READ ${CMAKE_SOURCE_DIR}/src/lib/nvml/nvml_abi.h nvt_abi_text)
string(REGEX MATCHALL "X\\((nvml[A-Za-z0-9_]+)" nvt_abi_matches "${nvt_abi_text}")
set(nvt_sim_def "LIBRARY nvml\nEXPORTS\n    nvmlErrorString\n")
foreach(match ${nvt_abi_matches})
    string(REPLACE "X(" "" name "${match}")
    string(APPEND nvt_sim_def "    ${name}\n")
endforeach()
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS
             ${CMAKE_SOURCE_DIR}/src/lib/nvml/nvml_abi.h)
file(WRITE ${CMAKE_CURRENT_BINARY_DIR}/nvml.def "${nvt_sim_def}")

add_library(nvml_sim SHARED $<TARGET_OBJECTS:nvt_sim_objects> ${CMAKE_CURRENT_BINARY_DIR}/nvml.def)
target_link_libraries(nvml_sim PRIVATE Threads::Threads)
set_target_properties(nvml_sim PROPERTIES
    OUTPUT_NAME nvml
    PREFIX ""
    RUNTIME_OUTPUT_DIRECTORY ${NVT_SIM_LIBRARY_DIR}
    ARCHIVE_OUTPUT_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR})
