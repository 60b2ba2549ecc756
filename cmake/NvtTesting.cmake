# nvt_add_test(NAME SOURCES files... [LIBS libs...] [LABELS labels...] [ENV VAR=value...]
#              [ARGS args...])
#
# Builds one cmocka test program (in <build>/tests) and registers it with CTest.  Every test runs with the simulated
# driver on LD_LIBRARY_PATH (so libnvitop reaches it through the real dlopen path) and with
# NVT_SCENARIO_DIR pointing at the bundled scenarios.  Labels: unit (no driver, no program),
# integration (programs or the library on the simulator), and the area (tui, exporter, …).
find_package(PkgConfig REQUIRED)
pkg_check_modules(CMOCKA IMPORTED_TARGET cmocka)

# The tests start python3 hundreds of times a run (each golden case, the tmux and Prometheus
# helpers).  Where python3 on PATH is a launcher, such as pyenv's shim (a shell script that costs
# some 0.6 s of CPU a start), the tests start the interpreter it launches instead:
# <build>/test-tools/python3 execs it (by the path it runs as, so a virtual environment stays
# one), comes first on every test's PATH and is the Python3_EXECUTABLE of the test commands.
# The interpreter, and so its modules, stay the same.  (CMake 3.22 and later: the PATH change
# needs ENVIRONMENT_MODIFICATION.)
set(NVT_TEST_TOOLS_DIR ${CMAKE_BINARY_DIR}/test-tools)
file(REMOVE ${NVT_TEST_TOOLS_DIR}/python3)
if(NVT_BUILD_TESTS AND NOT CMAKE_VERSION VERSION_LESS 3.22)
    find_package(Python3 COMPONENTS Interpreter)
    if(Python3_Interpreter_FOUND)
        execute_process(COMMAND ${Python3_EXECUTABLE} -c "import sys; print(sys.executable)"
                        OUTPUT_VARIABLE nvt_python OUTPUT_STRIP_TRAILING_WHITESPACE
                        RESULT_VARIABLE nvt_python_rc)
        if(nvt_python_rc EQUAL 0 AND IS_ABSOLUTE "${nvt_python}" AND EXISTS "${nvt_python}"
           AND NOT nvt_python MATCHES "'")
            file(WRITE ${NVT_TEST_TOOLS_DIR}/python3 "#!/bin/sh\nexec '${nvt_python}' \"$@\"\n")
            file(CHMOD ${NVT_TEST_TOOLS_DIR}/python3 PERMISSIONS OWNER_READ OWNER_WRITE
                 OWNER_EXECUTE GROUP_READ GROUP_EXECUTE WORLD_READ WORLD_EXECUTE)
            set(Python3_EXECUTABLE ${NVT_TEST_TOOLS_DIR}/python3)
        endif()
    endif()
endif()

# nvt_test_tools(TEST): puts <build>/test-tools first on TEST's PATH.
function(nvt_test_tools name)
    if(EXISTS ${NVT_TEST_TOOLS_DIR}/python3)
        set_property(TEST ${name} APPEND PROPERTY ENVIRONMENT_MODIFICATION
                     "PATH=path_list_prepend:${NVT_TEST_TOOLS_DIR}")
    endif()
endfunction()

# nvt_test_environment(OUT extra...): the environment every test runs with, plus extra entries.
function(nvt_test_environment out)
    set(${out}
        "LD_LIBRARY_PATH=${NVT_SIM_LIBRARY_DIR}"
        "NVT_SCENARIO_DIR=${NVT_SCENARIO_DIR}"
        "NVT_SOURCE_DIR=${CMAKE_SOURCE_DIR}"
        "NVT_BINARY_DIR=${CMAKE_BINARY_DIR}"
        "NVITOP_CUDA_PROBE=${CMAKE_BINARY_DIR}/bin/nvitop-cuda-probe"
        "NVT_STANDIN_LAUNCHER=${CMAKE_BINARY_DIR}/tests/nvt-standins"
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
    nvt_test_tools(${name})
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
    nvt_test_tools(${name})
endfunction()
