// The oracle for the pinned functions: the host's libm, valid only where it is
// glibc 2.36 on an x86-64 CPU whose FMA and AVX2 make glibc's ifunc pick the
// FMA variants (the build libvmaf's references come from).
#pragma once

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>

#include <gtest/gtest.h>

#if __has_include(<gnu/libc-version.h>)
#include <gnu/libc-version.h>
#define EXACTVQ_HOST_HAS_GLIBC 1
#endif

namespace exactvq::libm::testing {

// Empty where the host's libm is the reference, else why it is not.
inline std::string host_is_not_reference() {
#ifndef EXACTVQ_HOST_HAS_GLIBC
  return "host C library is not glibc";
#else
  const std::string version = gnu_get_libc_version();
  if (version != "2.36") return "host glibc is " + version + ", not 2.36";
#if defined(__x86_64__)
  if (!__builtin_cpu_supports("fma") || !__builtin_cpu_supports("avx2"))
    return "CPU lacks FMA or AVX2: glibc picks its non-FMA variants";
  return {};
#else
  return "not x86-64";
#endif
#endif
}

#define EXACTVQ_REQUIRE_HOST_REFERENCE()                                       \
  do {                                                                         \
    const std::string why = ::exactvq::libm::testing::host_is_not_reference(); \
    if (!why.empty()) GTEST_SKIP() << why << ": host libm is not the oracle";  \
  } while (0)

// The host's functions, called through pointers the compiler cannot see
// through: it would otherwise replace a call by its own arithmetic where an
// operand is known (powf(x, 2) by x * x) or merge sin(x) and cos(x) into
// glibc's sincos, and the oracle would no longer be glibc's function.
inline double (*volatile host_log)(double) = static_cast<double (*)(double)>(::log);
inline double (*volatile host_log2)(double) = static_cast<double (*)(double)>(::log2);
inline double (*volatile host_log10)(double) = static_cast<double (*)(double)>(::log10);
inline double (*volatile host_exp)(double) = static_cast<double (*)(double)>(::exp);
inline double (*volatile host_sin)(double) = static_cast<double (*)(double)>(::sin);
inline double (*volatile host_cos)(double) = static_cast<double (*)(double)>(::cos);
inline double (*volatile host_pow)(double, double) = static_cast<double (*)(double, double)>(::pow);
inline double (*volatile host_atan2)(double,
                                     double) = static_cast<double (*)(double, double)>(::atan2);
inline float (*volatile host_powf)(float, float) = ::powf;

inline uint64_t bits(double x) { return std::bit_cast<uint64_t>(x); }
inline uint32_t bits(float x) { return std::bit_cast<uint32_t>(x); }

// Counts operands where two functions' results differ in any bit, printing
// the first few.
class MismatchCounter {
 public:
  explicit MismatchCounter(const char* what) : what_(what) {}
  ~MismatchCounter() {
    std::printf("[libm] %s: %llu operands compared, %llu mismatches\n", what_,
                static_cast<unsigned long long>(compared_),
                static_cast<unsigned long long>(mismatches_));
  }
  template <class T>
  void check(T pinned, T host, double x, double y = 0) {
    ++compared_;
    if (bits(pinned) == bits(host)) return;
    if (++mismatches_ <= 8)
      ADD_FAILURE() << what_ << std::hexfloat << " at operands (" << x << ", " << y << "): pinned "
                    << pinned << " host " << host;
  }
  uint64_t mismatches() const { return mismatches_; }
  uint64_t compared() const { return compared_; }

 private:
  const char* what_;
  uint64_t compared_ = 0;
  uint64_t mismatches_ = 0;
};

// Doubles whose bit patterns are uniform over [lo_bits, hi_bits].
inline double double_in_bits(std::mt19937_64& rng, uint64_t lo_bits, uint64_t hi_bits) {
  return std::bit_cast<double>(lo_bits + rng() % (hi_bits - lo_bits + 1));
}

// Operands every function meets: signed zeros, the smallest and largest
// subnormals and normals, infinities, NaNs (quiet, signalling, negative).
inline const double kSpecialOperands[] = {
    0.0,
    -0.0,
    std::bit_cast<double>(uint64_t{1}),
    std::bit_cast<double>(uint64_t{0x000fffffffffffff}),
    -std::bit_cast<double>(uint64_t{1}),
    0x1p-1022,
    -0x1p-1022,
    0x1.fffffffffffffp1023,
    -0x1.fffffffffffffp1023,
    HUGE_VAL,
    -HUGE_VAL,
    std::bit_cast<double>(uint64_t{0x7ff8000000000000}),
    std::bit_cast<double>(uint64_t{0xfff8000000000000}),
    std::bit_cast<double>(uint64_t{0x7ff4000000000001}),
    std::bit_cast<double>(uint64_t{0x7ff8000000abcdef}),
    1.0,
    -1.0,
    0.5,
    2.0,
};

// The operand classes of the table-driven logarithms (log, log2, log10): the
// special operands, every power of two and its neighbours, the `entries` + 1
// edges of the table's subintervals (spaced 2^shift apart in the bits above
// 0x1.6p-1) at a few scales, every 16-bit sample value and its reciprocal,
// the ends of the near-1 interval (`near_low`, `near_high`) and the first
// million doubles on each side of 1, and negative operands.
template <typename Check>
void for_each_log_operand(int entries, int shift, double near_low, double near_high, Check check) {
  for (double x : kSpecialOperands) check(x);
  for (int e = -1074; e <= 1023; ++e) {
    const double p = std::ldexp(1.0, e);
    check(p);
    check(std::nextafter(p, 0.0));
    check(std::nextafter(p, HUGE_VAL));
  }
  const uint64_t origin = bits(0x1.6p-1);
  for (int i = 0; i <= entries; ++i)
    for (int e : {-1074, -1040, -1022, -300, -1, 0, 1, 2, 50, 1000}) {
      const double z =
          std::bit_cast<double>(origin + (uint64_t{static_cast<unsigned>(i)} << shift));
      const double x = std::ldexp(z, e);
      check(x);
      check(std::nextafter(x, 0.0));
      check(std::nextafter(x, HUGE_VAL));
    }
  for (int n = 1; n <= 65535; ++n) {
    check(n);
    check(1.0 / n);
  }
  for (double edge : {near_low, near_high})
    for (int d = -4; d <= 4; ++d) check(std::bit_cast<double>(bits(edge) + d));
  for (uint64_t d = 1; d <= 1000000; ++d) {
    check(std::bit_cast<double>(bits(1.0) + d));
    check(std::bit_cast<double>(bits(1.0) - d));
  }
  for (double x : {-1e-300, -0.5, -1.0, -3.0, -1e300}) check(x);
}

// The log family's seeded random operands: 2,000,000 rounds from `seed`, each a positive
// double (every one equally likely), one in [0.5, 2], one within 2^-4 of 1 and a subnormal.
template <typename Check>
void for_each_random_log_operand(uint64_t seed, Check check) {
  std::mt19937_64 rng(seed);
  for (int n = 0; n < 2000000; ++n) {
    check(double_in_bits(rng, 0, bits(HUGE_VAL)));
    check(double_in_bits(rng, bits(0.5), bits(2.0)));
    check(double_in_bits(rng, bits(1.0 - 0x1p-4), bits(1.0 + 0x1p-4)));
    check(double_in_bits(rng, 1, bits(0x1p-1022)));
  }
}

}  // namespace exactvq::libm::testing
