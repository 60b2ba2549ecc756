# nvt_add_fuzzer(NAME SOURCES files... [INCLUDES dirs...] [LIBS libs...])
#
# Builds one libFuzzer target (clang, -DNVT_FUZZ=ON) into <build>/bin, where
# scripts/run-fuzzers.sh finds it.  The code under test is listed among SOURCES, compiled again
# with the fuzzer's coverage instrumentation (a library linked in would not be instrumented).
# Does nothing in a build without NVT_FUZZ.
function(nvt_add_fuzzer name)
    cmake_parse_arguments(F "" "" "SOURCES;INCLUDES;LIBS" ${ARGN})
    if(NOT NVT_FUZZ)
        return()
    endif()
    add_executable(${name} ${F_SOURCES})
    target_include_directories(${name} PRIVATE ${F_INCLUDES})
    target_compile_options(${name} PRIVATE -fsanitize=fuzzer,address,undefined)
    target_link_options(${name} PRIVATE -fsanitize=fuzzer,address,undefined)
    target_link_libraries(${name} PRIVATE ${F_LIBS})
    set_target_properties(${name} PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/bin)
endfunction()
