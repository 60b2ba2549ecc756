/*
 * Short decimals ("612.5", "-3", "40000"), the most of the values exporters and Prometheus send,
 * converted without strtod().  No I/O; pure.
 */
#ifndef NVITOP_SRC_CLUSTER_PARSE_DECIMAL_H
#define NVITOP_SRC_CLUSTER_PARSE_DECIMAL_H

#include <stdbool.h>

/*
 * text, a NUL-terminated [+-]digits[.digits] of at most 15 digits and no exponent ("1." and ".5"
 * too), as a double: the one strtod() gives (its digits are an integer below 2^53 and 10^k is
 * exact, so the conversion is one correctly rounded division).  False, *out untouched, for any
 * other text: the caller converts it its own way.
 */
bool decimal_short(const char *text, double *out);

#endif /* NVITOP_SRC_CLUSTER_PARSE_DECIMAL_H */
