# libnvitop: the shared library (libnvitop.so, SONAME libnvitop.so.0) and the static one
# (libnvitop.a), built from one set of objects.  The host back-end (src/lib/host) and the
# formatting code (src/lib/format) are object libraries of their own, linked in when present.
find_package(Threads REQUIRED)

set(NVT_LIB_DIR ${CMAKE_CURRENT_LIST_DIR})
set(NVT_LIB_SOURCES
    context.c
    device.c
    device_lookup.c
    device_processes.c
    snapshot.c
    snapshot_pack.c
    status.c
    version.c
    nvml/nvml_backend.c
    nvml/nvml_info.c
    nvml/nvml_loader.c
    nvml/nvml_proc_util.c
    nvml/nvml_process.c
    nvml/nvml_state.c)
foreach(optional select.c cuda/cuda_api.c cuda/cuda_child.c cuda/cuda_visible.c)
    if(EXISTS ${NVT_LIB_DIR}/${optional})
        list(APPEND NVT_LIB_SOURCES ${optional})
    endif()
endforeach()
list(TRANSFORM NVT_LIB_SOURCES PREPEND ${NVT_LIB_DIR}/)

add_library(nvitop_core OBJECT ${NVT_LIB_SOURCES})
set_target_properties(nvitop_core PROPERTIES
    POSITION_INDEPENDENT_CODE ON
    C_VISIBILITY_PRESET hidden)
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
set_target_properties(nvitop PROPERTIES
    OUTPUT_NAME nvitop
    VERSION ${PROJECT_VERSION}
    SOVERSION ${PROJECT_VERSION_MAJOR}
    C_VISIBILITY_PRESET hidden)
target_link_libraries(nvitop PRIVATE nvitop_util ${CMAKE_DL_LIBS} Threads::Threads m)
target_link_options(nvitop PRIVATE -Wl,--no-undefined)

# The archive carries the util objects too, so that users of libnvitop.a need nothing else; an
# archive member is only linked when referenced, so the program-only allocators stay out.
add_library(nvitop_static STATIC ${NVT_LIB_OBJECTS} $<TARGET_OBJECTS:nvitop_util>)
set_target_properties(nvitop_static PROPERTIES OUTPUT_NAME nvitop)
target_link_libraries(nvitop_static INTERFACE ${CMAKE_DL_LIBS} Threads::Threads m)

foreach(lib nvitop nvitop_static)
    target_include_directories(${lib} PUBLIC
        $<BUILD_INTERFACE:${CMAKE_SOURCE_DIR}/include>
        $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
endforeach()

# pkg-config file and install rules.  The file finds its prefix relative to its own location
# (${pcfiledir}), so `cmake --install --prefix` anywhere gives a working file.
if(IS_ABSOLUTE "${CMAKE_INSTALL_LIBDIR}")
    set(NVT_PC_PREFIX "${CMAKE_INSTALL_PREFIX}")
    file(RELATIVE_PATH NVT_PC_LIBDIR "${CMAKE_INSTALL_PREFIX}" "${CMAKE_INSTALL_LIBDIR}")
else()
    file(RELATIVE_PATH NVT_PC_UP "/${CMAKE_INSTALL_LIBDIR}/pkgconfig" "/")
    set(NVT_PC_PREFIX "\${pcfiledir}/${NVT_PC_UP}")
    set(NVT_PC_LIBDIR "${CMAKE_INSTALL_LIBDIR}")
endif()
configure_file(${NVT_LIB_DIR}/nvitop.pc.in ${CMAKE_BINARY_DIR}/nvitop.pc @ONLY)
install(TARGETS nvitop nvitop_static
    LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
    ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(DIRECTORY ${CMAKE_SOURCE_DIR}/include/nvitop DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(FILES ${CMAKE_BINARY_DIR}/nvitop.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

# Unit tests beside their modules (they link the static library to reach internal functions).
foreach(module select cuda/cuda_visible nvml/nvml_process)
    if(EXISTS ${NVT_LIB_DIR}/${module}_test.c)
        get_filename_component(test_name ${module} NAME)
        nvt_add_test(lib_${test_name}_test
            SOURCES ${NVT_LIB_DIR}/${module}_test.c
            LIBS nvitop_static
            LABELS unit)
        if(TARGET lib_${test_name}_test) # not built when NVT_BUILD_TESTS is OFF
            target_include_directories(lib_${test_name}_test PRIVATE
                ${NVT_LIB_DIR} ${CMAKE_SOURCE_DIR}/src)
        endif()
    endif()
endforeach()

if(NVT_FUZZ AND EXISTS ${NVT_LIB_DIR}/cuda/fuzz_cuda_visible.c)
    # The parser is compiled again here so that the fuzzer's coverage instrumentation sees it.
    add_executable(fuzz_cuda_visible ${NVT_LIB_DIR}/cuda/fuzz_cuda_visible.c
                   ${NVT_LIB_DIR}/cuda/cuda_visible.c)
    target_include_directories(fuzz_cuda_visible PRIVATE
        ${CMAKE_SOURCE_DIR}/include ${NVT_LIB_DIR} ${CMAKE_SOURCE_DIR}/src)
    target_compile_options(fuzz_cuda_visible PRIVATE -fsanitize=fuzzer,address,undefined)
    target_link_options(fuzz_cuda_visible PRIVATE -fsanitize=fuzzer,address,undefined)
    target_link_libraries(fuzz_cuda_visible PRIVATE nvitop_util)
    set_target_properties(fuzz_cuda_visible PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/bin)
endif()
