/* The number of elements of an array (not of a pointer: the compiler refuses a pointer through
 * the division's operand types only by warning, so name arrays only). */
#ifndef NVITOP_SRC_UTIL_ARRAY_H
#define NVITOP_SRC_UTIL_ARRAY_H

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#endif /* NVITOP_SRC_UTIL_ARRAY_H */
