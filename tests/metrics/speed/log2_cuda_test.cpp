// The pinned log2 on the CUDA device, the TestFloat way: both forms SpEED's
// kernels call (native binary64 with __fma_rn, and softfp for fp64=emulate)
// against libm::log2 (equal to glibc 2.36, tests/libm/) bit for bit, over
// millions of operands: every positive double at random, around 1, subnormals,
// SpEED's binary32 operands widened, and the special operands (native: glibc's
// -inf, inf and NaN bits; softfp: invalid). Skips, saying so, without a CUDA
// device.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "device_fixture.h"
#include "libm/libm.h"

const char* exactvq_log2_on_cuda(const uint64_t* in, size_t n, uint64_t* native, uint64_t* soft,
                                 int* soft_valid);

namespace exactvq::device_testing {
namespace {

using Log2OnCuda = OneBackendTest<Backend::kCuda>;

uint64_t bits(double x) { return std::bit_cast<uint64_t>(x); }

TEST_F(Log2OnCuda, NativeAndSoftfpEqualThePinnedLog2) {
  std::vector<uint64_t> in;
  std::mt19937_64 rng(20261206);
  const auto between = [&](uint64_t lo, uint64_t hi) { return lo + rng() % (hi - lo + 1); };
  for (int n = 0; n < 1000000; ++n) {
    in.push_back(between(1, bits(HUGE_VAL) - 1));
    in.push_back(between(bits(0.5), bits(2.0)));
    in.push_back(between(bits(1.0 - 0x1p-4), bits(1.0 + 0x1p-4)));
    in.push_back(between(1, bits(0x1p-1022)));
    const uint32_t f =
        uint32_t(between(std::bit_cast<uint32_t>(0.1f), std::bit_cast<uint32_t>(16777216.0f)));
    in.push_back(bits(double(std::bit_cast<float>(f))));
  }
  for (int e = -1074; e <= 1023; ++e) {
    const double p = std::ldexp(1.0, e);
    for (double x : {p, std::nextafter(p, 0.0), std::nextafter(p, HUGE_VAL)}) in.push_back(bits(x));
  }
  for (double x : {0.0, -0.0, -1.0, -1e-300, HUGE_VAL, -HUGE_VAL, 1.0, 2.0, 0.5})
    in.push_back(bits(x));
  for (uint64_t x : {uint64_t{0x7ff8000000000000}, uint64_t{0xfff8000000000000},
                     uint64_t{0x7ff4000000000001}, uint64_t{0x7ff8000000abcdef}})
    in.push_back(x);
  std::vector<uint64_t> native(in.size()), soft(in.size());
  std::vector<int> valid(in.size());
  const char* error =
      exactvq_log2_on_cuda(in.data(), in.size(), native.data(), soft.data(), valid.data());
  ASSERT_EQ(error, nullptr) << error;
  uint64_t native_wrong = 0, soft_wrong = 0;
  for (size_t i = 0; i < in.size(); ++i) {
    const double x = std::bit_cast<double>(in[i]);
    const uint64_t want = bits(libm::log2(x));
    if (native[i] != want && ++native_wrong <= 8)
      ADD_FAILURE() << std::hexfloat << "native log2(" << x << "): device "
                    << std::bit_cast<double>(native[i]) << ", pinned "
                    << std::bit_cast<double>(want);
    const bool has_value = x > 0 && std::isfinite(x);
    const bool soft_ok = has_value ? (valid[i] && soft[i] == want) : !valid[i];
    if (!soft_ok && ++soft_wrong <= 8)
      ADD_FAILURE() << std::hexfloat << "softfp log2(" << x << "): device "
                    << std::bit_cast<double>(soft[i]) << " (valid " << valid[i] << "), pinned "
                    << std::bit_cast<double>(want);
  }
  std::printf(
      "[ cuda     ] log2 on the device: %zu operands, native %llu and softfp %llu "
      "differing from the pinned log2\n",
      in.size(), static_cast<unsigned long long>(native_wrong),
      static_cast<unsigned long long>(soft_wrong));
  EXPECT_EQ(native_wrong, 0u);
  EXPECT_EQ(soft_wrong, 0u);
}

}  // namespace
}  // namespace exactvq::device_testing
