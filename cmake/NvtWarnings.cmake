# Warning flags for every target of the project.  NVT_WERROR (on in `make check`) turns them into
# errors.
set(NVT_WARNINGS -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Wformat=2
    -Wpointer-arith -Wcast-qual -Wwrite-strings -Wundef -Wnull-dereference -Wvla)
if(CMAKE_C_COMPILER_ID STREQUAL "GNU")
    list(APPEND NVT_WARNINGS -Wduplicated-cond -Wlogical-op)
endif()
if(NVT_WERROR)
    list(APPEND NVT_WARNINGS -Werror)
endif()
# C sources only: the C++ examples (examples/cxx) set their own flags, as a C++ user of the headers
# would (-Wshadow would flag nvt_device_info(), a function named like its struct, in C++).
add_compile_options("$<$<COMPILE_LANGUAGE:C>:${NVT_WARNINGS}>")
