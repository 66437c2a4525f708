// The fuzzers' oracle failures: print what broke and abort, so libFuzzer keeps the input.
#pragma once

#include <cstdarg>
#include <cstdio>
#include <cstdlib>

namespace exactvq::fuzz {

[[noreturn]] __attribute__((format(printf, 4, 5))) inline void fail(const char* file, int line,
                                                                    const char* condition,
                                                                    const char* format = nullptr,
                                                                    ...) {
  std::fprintf(stderr, "oracle failed at %s:%d: %s\n", file, line, condition);
  if (format != nullptr) {
    va_list args;
    va_start(args, format);
    std::vfprintf(stderr, format, args);
    va_end(args);
    std::fprintf(stderr, "\n");
  }
  std::abort();
}

}  // namespace exactvq::fuzz

// FUZZ_CHECK(condition) or FUZZ_CHECK(condition, "printf format", args...).
#define FUZZ_CHECK(condition, ...)                                                      \
  do {                                                                                  \
    if (!(condition))                                                                   \
      ::exactvq::fuzz::fail(__FILE__, __LINE__, #condition __VA_OPT__(, ) __VA_ARGS__); \
  } while (0)
