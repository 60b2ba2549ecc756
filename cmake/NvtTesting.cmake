# nvt_add_test(NAME SOURCES files... [LIBS libs...] [LABELS labels...] [ENV VAR=value...]
#              [ARGS args...])
#
# Builds one cmocka test program (in <build>/tests) and registers it with CTest.  Every test runs with the simulated
# driver on LD_LIBRARY_PATH (so libnvitop reaches it through the real dlopen path) and with
# NVT_SCENARIO_DIR pointing at the bundled scenarios.  Labels: unit (no driver, no program),
# integration (programs or the library on the simulator), and the area (tui, exporter, …).
find_package(PkgConfig REQUIRED)
pkg_check_modules(CMOCKA IMPORTED_TARGET cmocka)

# nvt_test_environment(OUT extra...): the environment every test runs with, plus extra entries.
function(nvt_test_environment out)
    set(${out}
        "LD_LIBRARY_PATH=${NVT_SIM_LIBRARY_DIR}"
        "NVT_SCENARIO_DIR=${NVT_SCENARIO_DIR}"
        "NVT_SOURCE_DIR=${CMAKE_SOURCE_DIR}"
        "NVT_BINARY_DIR=${CMAKE_BINARY_DIR}"
        "NVITOP_CUDA_PROBE=${CMAKE_BINARY_DIR}/bin/nvitop-cuda-probe"
        ${ARGN}
        PARENT_SCOPE)
endfunction()

function(nvt_add_test name)
    cmake_parse_arguments(T "" "" "SOURCES;LIBS;LABELS;ENV;ARGS" ${ARGN})
    if(NOT NVT_BUILD_TESTS)
        return()
    endif()
    add_executable(${name} ${T_SOURCES})
    # Test programs go to <build>/tests, so that <build>/bin holds only the programs.
    set_target_properties(${name} PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/tests)
    target_link_libraries(${name} PRIVATE ${T_LIBS} PkgConfig::CMOCKA)
    # nvt_cmocka.h and the other test helpers.
    target_include_directories(${name} PRIVATE ${CMAKE_SOURCE_DIR}/tests/support)
    add_test(NAME ${name} COMMAND ${name} ${T_ARGS})
    nvt_test_environment(env ${T_ENV})
    if(NOT T_LABELS)
        set(T_LABELS unit)
    endif()
    set_tests_properties(${name} PROPERTIES LABELS "${T_LABELS}" ENVIRONMENT "${env}" TIMEOUT 300)
endfunction()

# nvt_add_script_test(NAME COMMAND cmd... [LABELS labels...] [ENV VAR=value...])
#
# Registers a shell-driven test (golden outputs, tmux) with the same environment as above.
function(nvt_add_script_test name)
    cmake_parse_arguments(T "" "" "COMMAND;LABELS;ENV" ${ARGN})
    if(NOT NVT_BUILD_TESTS)
        return()
    endif()
    add_test(NAME ${name} COMMAND ${T_COMMAND})
    nvt_test_environment(env ${T_ENV})
    if(NOT T_LABELS)
        set(T_LABELS integration)
    endif()
    # A script that cannot run here (not root, a tool missing) says why and exits 77: skipped.
    set_tests_properties(${name} PROPERTIES LABELS "${T_LABELS}" ENVIRONMENT "${env}" TIMEOUT 600
                                            SKIP_RETURN_CODE 77)
endfunction()
