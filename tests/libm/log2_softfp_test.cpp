// log2 on softfp (libm/log2_softfp.h) against the pinned libm::log2 bit for bit
// (itself equal to the host's glibc 2.36, log2_test.cpp), and against glibc
// directly where the host's libm is the oracle: the operand classes of the
// table-driven logarithms, seeded random operands over every positive double,
// around 1, subnormals, and the binary32 values SpEED takes the log of (the
// entropies' L * S + sigma_nn and the weights' 1 + variance, widened).
// Operands without a finite logarithm (zero, negative, infinite, NaN) must come
// back invalid.
#include <bit>
#include <cmath>
#include <cstdint>
#include <random>

#include "libm/host_reference.h"
#include "libm/libm.h"
#include "libm/log2_softfp.h"

namespace exactvq::libm {
namespace {

using testing::bits;
using testing::double_in_bits;

class SoftfpLog2Counter {
 public:
  explicit SoftfpLog2Counter(const char* what, bool with_host) : what_(what), host_(with_host) {}
  ~SoftfpLog2Counter() {
    std::printf("[libm] softfp log2 %s: %llu operands compared%s, %llu mismatches\n", what_,
                static_cast<unsigned long long>(compared_),
                host_ ? " (pinned and host glibc)" : " (pinned)",
                static_cast<unsigned long long>(mismatches_));
    EXPECT_EQ(mismatches_, 0u) << what_;
  }
  void check(double x) {
    ++compared_;
    const softfp got = softfp_log2(softfp_from_bits(bits(x)));
    const double want = libm::log2(x);
    const bool finite_operand = x > 0 && std::isfinite(x);
    bool same;
    if (finite_operand) {
      same = softfp_is_valid(got) && softfp_to_bits(got) == bits(want) &&
             (!host_ || bits(testing::host_log2(x)) == bits(want));
    } else {
      same = !softfp_is_valid(got);
    }
    if (!same && ++mismatches_ <= 8)
      ADD_FAILURE() << what_ << std::hexfloat << " at " << x << ": pinned " << want << " softfp "
                    << (softfp_is_valid(got) ? std::bit_cast<double>(softfp_to_bits(got)) : NAN);
  }

 private:
  const char* what_;
  bool host_;
  uint64_t compared_ = 0, mismatches_ = 0;
};

bool host_is_oracle() { return testing::host_is_not_reference().empty(); }

TEST(SoftfpLog2, OperandClasses) {
  SoftfpLog2Counter m("operand classes", host_is_oracle());
  testing::for_each_log_operand(64, 46, 1.0 - 0x1.5b51p-5, 1.0 + 0x1.6ab2p-5,
                                [&](double x) { m.check(x); });
}

TEST(SoftfpLog2, SeededRandomOperands) {
  SoftfpLog2Counter m("random", host_is_oracle());
  std::mt19937_64 rng(20261206);
  for (int n = 0; n < 2000000; ++n) {
    m.check(double_in_bits(rng, 1, bits(HUGE_VAL) - 1));  // every positive double equally
    m.check(double_in_bits(rng, bits(0.5), bits(2.0)));
    m.check(double_in_bits(rng, bits(1.0 - 0x1p-4), bits(1.0 + 0x1p-4)));
    m.check(double_in_bits(rng, 1, bits(0x1p-1022)));  // subnormals
  }
}

// The binary32 operands of SpEED's logarithms, widened: every float from the
// smallest sigma_nn (0.1) to 2^24 at random, floats near 1 (1 + a small
// variance), and every float in [0.1, 8) whose low 12 bits are zero.
TEST(SoftfpLog2, SpeedBinary32Operands) {
  SoftfpLog2Counter m("SpEED's binary32 operands", host_is_oracle());
  std::mt19937_64 rng(20261207);
  const uint32_t lo = std::bit_cast<uint32_t>(0.1f), hi = std::bit_cast<uint32_t>(16777216.0f);
  for (int n = 0; n < 2000000; ++n) {
    m.check(double(std::bit_cast<float>(uint32_t(lo + rng() % (hi - lo)))));
    m.check(double(1.0f + std::bit_cast<float>(uint32_t(rng() % std::bit_cast<uint32_t>(0.5f)))));
  }
  for (uint32_t b = lo; b < std::bit_cast<uint32_t>(8.0f); b += 1u << 12)
    m.check(double(std::bit_cast<float>(b)));
}

}  // namespace
}  // namespace exactvq::libm
