# The version macros of <nvitop/version.h> are the project's version: a release changes both.
file(STRINGS ${CMAKE_SOURCE_DIR}/include/nvitop/version.h NVT_VERSION_LINES
    REGEX "^#define NVT_VERSION_(MAJOR|MINOR|PATCH) ")
string(REGEX REPLACE "[^0-9;]" "" NVT_HEADER_VERSION "${NVT_VERSION_LINES}")
string(REPLACE ";" "." NVT_HEADER_VERSION "${NVT_HEADER_VERSION}")
if(NOT NVT_HEADER_VERSION STREQUAL PROJECT_VERSION)
    message(FATAL_ERROR "include/nvitop/version.h says ${NVT_HEADER_VERSION}, "
                        "CMakeLists.txt says ${PROJECT_VERSION}")
endif()

# The C library on Linux: glibc 2.34 or later, for posix_spawn_file_actions_addclosefrom_np() (the
# CUDA probe's spawn closes every other descriptor) and close_range().  Checked here so that an
# older one stops the build with this message rather than with a compiler error (docs/api.md,
# "Building against libnvitop").  The Windows cross-build has neither and needs neither.
include(CheckSymbolExists)
if(NOT WIN32)
    set(CMAKE_REQUIRED_DEFINITIONS -D_GNU_SOURCE)
    check_symbol_exists(posix_spawn_file_actions_addclosefrom_np spawn.h NVT_HAVE_ADDCLOSEFROM)
    check_symbol_exists(close_range unistd.h NVT_HAVE_CLOSE_RANGE)
    unset(CMAKE_REQUIRED_DEFINITIONS)
    if(NOT NVT_HAVE_ADDCLOSEFROM OR NOT NVT_HAVE_CLOSE_RANGE)
        execute_process(COMMAND ldd --version OUTPUT_VARIABLE NVT_LIBC_VERSION ERROR_QUIET)
        string(REGEX MATCH "[^\n]*" NVT_LIBC_VERSION "${NVT_LIBC_VERSION}")
        message(FATAL_ERROR "libnvitop needs glibc 2.34 or later (Debian 12, Ubuntu 22.04, RHEL 9): "
            "this C library (${NVT_LIBC_VERSION}) lacks posix_spawn_file_actions_addclosefrom_np() "
            "or close_range().  musl and older glibc are not supported.")
    endif()
endif()

# libnvitop: the shared library (libnvitop.so, SONAME libnvitop.so.<major>) and the static one
# (libnvitop.a), built from one set of objects.  The host back-end (src/lib/host) and the
# formatting code (src/lib/format) are object libraries of their own, linked in when present.
find_package(Threads REQUIRED)

set(NVT_LIB_DIR ${CMAKE_CURRENT_LIST_DIR})
set(NVT_LIB_SOURCES
    context.c
    device.c
    device_lookup.c
    free.c
    snapshot.c
    snapshot_focus.c
    snapshot_pack.c
    snapshot_subset.c
    status.c
    version.c
    nvml/nvml_backend.c
    nvml/nvml_default_posix.c
    nvml/nvml_info.c
    nvml/nvml_loader.c
    nvml/nvml_nvlink.c
    nvml/nvml_pcie.c
    nvml/nvml_proc_util.c
    nvml/nvml_process.c
    nvml/nvml_state.c
    collector/collector.c
    collector/collector_daemon.c
    collector/lineage.c
    collector/metric_buffer.c
    collector/collector_sample.c
    select.c
    cuda/cuda_api.c
    cuda/cuda_child.c
    cuda/cuda_runtime.c
    cuda/cuda_visible.c)
list(TRANSFORM NVT_LIB_SOURCES PREPEND ${NVT_LIB_DIR}/)

# The Windows cross-build links nvitop.dll from the same sources (lib_windows.cmake).
if(WIN32)
    include(${NVT_LIB_DIR}/lib_windows.cmake)
    return()
endif()

add_library(nvitop_core OBJECT ${NVT_LIB_SOURCES})
# The CUDA helper program (cuda/cuda_probe.c), found by the library at its installed path unless
# $NVITOP_CUDA_PROBE names another one (the tests point it at the build tree's copy).
set(NVT_CUDA_PROBE_PATH ${CMAKE_INSTALL_FULL_LIBEXECDIR}/nvitop/nvitop-cuda-probe)
target_compile_definitions(nvitop_core PRIVATE NVT_CUDA_PROBE_PATH="${NVT_CUDA_PROBE_PATH}")
add_executable(nvitop-cuda-probe ${NVT_LIB_DIR}/cuda/cuda_probe.c)
target_include_directories(nvitop-cuda-probe PRIVATE
    ${CMAKE_SOURCE_DIR}/include ${NVT_LIB_DIR} ${CMAKE_SOURCE_DIR}/src)
target_link_libraries(nvitop-cuda-probe PRIVATE nvitop_util ${CMAKE_DL_LIBS})
install(TARGETS nvitop-cuda-probe RUNTIME DESTINATION ${CMAKE_INSTALL_LIBEXECDIR}/nvitop)
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

# The shared library exports only what the public headers declare: the objects are compiled with
# hidden visibility, NVT_API marks the API, and the version script gives every nvt_* symbol the
# version node of this major version (a later incompatible change gets a new node and SONAME).
set(NVT_LIB_VERSION_SCRIPT ${CMAKE_CURRENT_BINARY_DIR}/libnvitop.map)
configure_file(${NVT_LIB_DIR}/libnvitop.map.in ${NVT_LIB_VERSION_SCRIPT} @ONLY)
target_link_options(nvitop PRIVATE -Wl,--version-script=${NVT_LIB_VERSION_SCRIPT})
set_property(TARGET nvitop APPEND PROPERTY LINK_DEPENDS ${NVT_LIB_VERSION_SCRIPT})

# The raw archive of every object, internal names included: unit tests and benchmarks that reach
# internal functions link it.  It is never installed.
add_library(nvitop_internal STATIC ${NVT_LIB_OBJECTS} $<TARGET_OBJECTS:nvitop_util>)
target_link_libraries(nvitop_internal INTERFACE ${CMAKE_DL_LIBS} Threads::Threads m)

# The installed libnvitop.a: the library objects and the util objects they use (not the
# program-only allocators) partially linked into one object whose hidden symbols are then made
# local, so that it defines no global name but the nvt_* API (internal helpers such as parse_u32
# or str_copy would collide with a program's own).  tests/abi checks the result with nm.
find_program(NVT_OBJCOPY NAMES ${CMAKE_OBJCOPY} objcopy REQUIRED)
set(NVT_ARCHIVE_OBJECT ${CMAKE_CURRENT_BINARY_DIR}/nvitop_archive.o)
set(NVT_ARCHIVE_INPUTS ${NVT_LIB_OBJECTS}
    $<FILTER:$<TARGET_OBJECTS:nvitop_util>,EXCLUDE,xalloc>)
add_custom_command(OUTPUT ${NVT_ARCHIVE_OBJECT}
    COMMAND ${CMAKE_LINKER} -r -o ${NVT_ARCHIVE_OBJECT} ${NVT_ARCHIVE_INPUTS}
    COMMAND ${NVT_OBJCOPY} --localize-hidden ${NVT_ARCHIVE_OBJECT}
    DEPENDS ${NVT_ARCHIVE_INPUTS}
    COMMAND_EXPAND_LISTS
    COMMENT "Partially linking libnvitop.a with internal symbols made local")
set_source_files_properties(${NVT_ARCHIVE_OBJECT} PROPERTIES EXTERNAL_OBJECT TRUE GENERATED TRUE)
add_library(nvitop_archive STATIC ${NVT_ARCHIVE_OBJECT})
set_target_properties(nvitop_archive PROPERTIES OUTPUT_NAME nvitop LINKER_LANGUAGE C)
# The object files above only order the rebuild; the targets that compile them must come first.
foreach(part nvitop_core nvitop_host nvitop_format nvitop_util)
    if(TARGET ${part})
        add_dependencies(nvitop_archive ${part})
    endif()
endforeach()
target_link_libraries(nvitop_archive INTERFACE ${CMAKE_DL_LIBS} Threads::Threads m)

foreach(lib nvitop nvitop_internal nvitop_archive)
    target_include_directories(${lib} PUBLIC
        $<BUILD_INTERFACE:${CMAKE_SOURCE_DIR}/include>
        $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
endforeach()

# pkg-config file, CMake package config and install rules.  nvitop.pc is written when installing,
# with the prefix actually installed to (`cmake --install --prefix P` writes P; a DESTDIR staging
# install keeps the configured prefix, as a package wants): no ${pcfiledir}-relative paths, which
# some tools print as `-I/usr/lib/pkgconfig/../../include`.
foreach(dir LIBDIR INCLUDEDIR)
    set(NVT_PC_${dir} ${CMAKE_INSTALL_${dir}})
    if(IS_ABSOLUTE "${NVT_PC_${dir}}")
        file(RELATIVE_PATH NVT_PC_${dir} "${CMAKE_INSTALL_PREFIX}" "${NVT_PC_${dir}}")
    endif()
endforeach()
set(NVT_PC_PREFIX "@NVT_PC_PREFIX@") # filled in when installing
configure_file(${NVT_LIB_DIR}/nvitop.pc.in ${CMAKE_BINARY_DIR}/install/nvitop.pc.in @ONLY)
install(CODE "set(NVT_PC_PREFIX \"\${CMAKE_INSTALL_PREFIX}\")
    configure_file(\"${CMAKE_BINARY_DIR}/install/nvitop.pc.in\"
                   \"${CMAKE_BINARY_DIR}/install/nvitop.pc\" @ONLY)")
install(FILES ${CMAKE_BINARY_DIR}/install/nvitop.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

# find_package(nvitop) gives nvitop::nvitop (the shared library) and nvitop::nvitop_static
# (libnvitop.a); cmake/nvitopConfig.cmake.in.  A program built with 1.x needs 1.y with y >= x.
set_target_properties(nvitop PROPERTIES EXPORT_NAME nvitop)
set_target_properties(nvitop_archive PROPERTIES EXPORT_NAME nvitop_static)
install(TARGETS nvitop nvitop_archive EXPORT nvitopTargets
    LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
    ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(DIRECTORY ${CMAKE_SOURCE_DIR}/include/nvitop DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
set(NVT_CMAKE_PACKAGE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/nvitop)
install(EXPORT nvitopTargets NAMESPACE nvitop:: DESTINATION ${NVT_CMAKE_PACKAGE_DIR})
include(CMakePackageConfigHelpers)
configure_package_config_file(${CMAKE_SOURCE_DIR}/cmake/nvitopConfig.cmake.in
    ${CMAKE_BINARY_DIR}/install/nvitopConfig.cmake
    INSTALL_DESTINATION ${NVT_CMAKE_PACKAGE_DIR})
write_basic_package_version_file(${CMAKE_BINARY_DIR}/install/nvitopConfigVersion.cmake
    VERSION ${PROJECT_VERSION} COMPATIBILITY SameMajorVersion)
install(FILES ${CMAKE_BINARY_DIR}/install/nvitopConfig.cmake
              ${CMAKE_BINARY_DIR}/install/nvitopConfigVersion.cmake
        DESTINATION ${NVT_CMAKE_PACKAGE_DIR})

# Unit tests beside their modules (they link the raw archive to reach internal functions).
foreach(module select cuda/cuda_visible nvml/nvml_process collector/metric_buffer)
    get_filename_component(test_name ${module} NAME)
    nvt_add_test(lib_${test_name}_test
        SOURCES ${NVT_LIB_DIR}/${module}_test.c
        LIBS nvitop_internal
        LABELS unit)
    if(TARGET lib_${test_name}_test) # not built when NVT_BUILD_TESTS is OFF
        target_include_directories(lib_${test_name}_test PRIVATE
            ${NVT_LIB_DIR} ${CMAKE_SOURCE_DIR}/src)
    endif()
endforeach()

nvt_add_fuzzer(fuzz_cuda_visible
    SOURCES ${NVT_LIB_DIR}/cuda/fuzz_cuda_visible.c ${NVT_LIB_DIR}/cuda/cuda_visible.c
    INCLUDES ${CMAKE_SOURCE_DIR}/include ${NVT_LIB_DIR} ${CMAKE_SOURCE_DIR}/src
    LIBS nvitop_util)
