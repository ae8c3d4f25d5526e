/* The C tests' check: counts every check and prints each failure with its place; main returns
 * failures ? 1 : 0. One translation unit a program (the counters are its own). */
#ifndef GROVE_CAPI_CHECK_H
#define GROVE_CAPI_CHECK_H

#include <stdio.h>

/* counted from the test's threads too */
static _Atomic int failures = 0;
static _Atomic int checks = 0;

#define CHECK(cond, ...)                                                                                                \
    do {                                                                                                                \
        ++checks;                                                                                                       \
        if (!(cond)) {                                                                                                  \
            ++failures;                                                                                                 \
            fprintf(stderr, "FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond);                                             \
            fprintf(stderr, __VA_ARGS__);                                                                               \
            fputc('\n', stderr);                                                                                        \
        }                                                                                                               \
    } while (0)

#endif
