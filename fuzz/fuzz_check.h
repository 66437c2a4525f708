// The fuzzers' oracle failures: print what broke and abort, so libFuzzer keeps the input.
#pragma once

#include <cstdio>
#include <cstdlib>

#define FUZZ_CHECK(cond, ...)                                                  \
  do {                                                                         \
    if (!(cond)) {                                                             \
      std::fprintf(stderr, "oracle failed at %s:%d: %s\n", __FILE__, __LINE__, \
                   #cond);                                                     \
      std::fprintf(stderr, "" __VA_ARGS__);                                    \
      std::fprintf(stderr, "\n");                                              \
      std::abort();                                                            \
    }                                                                          \
  } while (0)
