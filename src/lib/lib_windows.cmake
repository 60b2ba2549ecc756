# libnvitop for the Windows cross-build (cmake/NvtWindows.cmake): nvitop.dll with its import
# library libnvitop.dll.a, from the sources of lib.cmake with the Windows variants of the few
# platform files.  The exports are what NVT_API marks (__declspec(dllexport), include/nvitop/
# common.h), so no version script is needed; the static archives of Linux are not built.
list(REMOVE_ITEM NVT_LIB_SOURCES ${NVT_LIB_DIR}/nvml/nvml_default_posix.c
     ${NVT_LIB_DIR}/cuda/cuda_child.c)
list(APPEND NVT_LIB_SOURCES ${NVT_LIB_DIR}/nvml/nvml_default_windows.c)
if(EXISTS ${NVT_LIB_DIR}/cuda/cuda_child.c)
    list(APPEND NVT_LIB_SOURCES ${NVT_LIB_DIR}/cuda/cuda_child_windows.c)
endif()

add_library(nvitop_core OBJECT ${NVT_LIB_SOURCES})
target_compile_definitions(nvitop_core PRIVATE NVT_BUILDING_LIBRARY)
target_include_directories(nvitop_core PRIVATE
    ${CMAKE_SOURCE_DIR}/include ${NVT_LIB_DIR} ${CMAKE_SOURCE_DIR}/src)

set(NVT_LIB_OBJECTS $<TARGET_OBJECTS:nvitop_core>)
foreach(part nvitop_host nvitop_format)
    if(TARGET ${part})
        list(APPEND NVT_LIB_OBJECTS $<TARGET_OBJECTS:${part}>)
    endif()
endforeach()

add_library(nvitop SHARED ${NVT_LIB_OBJECTS})
set_target_properties(nvitop PROPERTIES OUTPUT_NAME nvitop PREFIX "")
target_link_libraries(nvitop PRIVATE nvitop_util Threads::Threads)
target_link_options(nvitop PRIVATE -Wl,--no-undefined)
target_include_directories(nvitop PUBLIC ${CMAKE_SOURCE_DIR}/include)

# The internal archive, for the programs' reach into internal functions (as on Linux).
add_library(nvitop_static STATIC ${NVT_LIB_OBJECTS} $<TARGET_OBJECTS:nvitop_util>)
set_target_properties(nvitop_static PROPERTIES OUTPUT_NAME nvitop_internal)
target_link_libraries(nvitop_static INTERFACE Threads::Threads)
target_include_directories(nvitop_static PUBLIC ${CMAKE_SOURCE_DIR}/include)

# The headers beside the import library, for `make windows` and the zip.
install(TARGETS nvitop RUNTIME DESTINATION bin ARCHIVE DESTINATION lib)
install(DIRECTORY ${CMAKE_SOURCE_DIR}/include/nvitop DESTINATION include)
