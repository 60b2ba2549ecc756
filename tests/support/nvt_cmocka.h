/* cmocka for every test: its header needs these four first, in this order, so tests include this
 * one instead (tests/support is on every test's include path, cmake/NvtTesting.cmake). */
#ifndef NVITOP_TESTS_SUPPORT_NVT_CMOCKA_H
#define NVITOP_TESTS_SUPPORT_NVT_CMOCKA_H

/* clang-format off */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
/* clang-format on */

#endif /* NVITOP_TESTS_SUPPORT_NVT_CMOCKA_H */
