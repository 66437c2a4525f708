// libm::powf against the host's glibc 2.36 powf, bit for bit.
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "libm/host_reference.h"
#include "libm/libm.h"

namespace exactvq::libm {
namespace {

using testing::MismatchCounter;

void check(MismatchCounter& m, float x, float y) {
  m.check(libm::powf(x, y), testing::host_powf(x, y), x, y);
}

float float_of(uint32_t b) { return std::bit_cast<float>(b); }

// The exponents ciede passes (7, 2), and a few more of each kind: integer,
// half-integer, negative, tiny, huge.
constexpr float kFixedExponents[] = {7.0f, 2.0f, 0x1.555556p-2f, 0.5f, 2.4f, -1.0f, -2.5f, 3.0f};

TEST(Powf, EveryFloatForFixedExponentsStrided) {
  EXACTVQ_REQUIRE_HOST_REFERENCE();
  MismatchCounter m("powf every 251st float x fixed y");
  for (float y : kFixedExponents)
    for (uint64_t b = 0; b <= 0xffffffffu; b += 251)
      check(m, float_of(static_cast<uint32_t>(b)), y);
  EXPECT_EQ(m.mismatches(), 0u);
}

TEST(Powf, SampleValuesAndCiedeOperands) {
  EXACTVQ_REQUIRE_HOST_REFERENCE();
  MismatchCounter m("powf sample values");
  for (int v = 0; v <= 65535; ++v)
    for (float y : kFixedExponents) {
      check(m, static_cast<float>(v), y);
      check(m, static_cast<float>(v) / 4095.0f, y);
      check(m, static_cast<float>(v) / 64.0f, y);  // chroma and hue-angle-like magnitudes
      check(m, -static_cast<float>(v) / 64.0f, y);
    }
  check(m, 25.0f, 7.0f);
  EXPECT_EQ(m.mismatches(), 0u);
}

TEST(Powf, OperandClasses) {
  EXACTVQ_REQUIRE_HOST_REFERENCE();
  MismatchCounter m("powf operand classes");
  std::vector<float> ops;
  for (double d : testing::kSpecialOperands) ops.push_back(static_cast<float>(d));
  for (uint32_t b : {0x00000001u, 0x007fffffu, 0x00800000u, 0x7f7fffffu, 0x7fa00001u, 0xffc00000u,
                     0x7fc12345u, 0x3f800001u, 0x3f7fffffu, 0x4b000000u, 0x4b000001u, 0x4b800001u,
                     0x3f000000u, 0x5f000000u, 0x5f800000u, 0x1f800000u, 0x21000000u})
    for (uint32_t s : {0u, 0x80000000u}) ops.push_back(float_of(b | s));
  for (float x : ops)
    for (float y : ops) check(m, x, y);
  // Integer and half-integer exponents on negative and positive bases.
  std::mt19937_64 rng(13);
  std::uniform_real_distribution<float> base(-16.0f, 16.0f);
  for (int twice_y = -300; twice_y <= 300; ++twice_y)
    for (int n = 0; n < 500; ++n) check(m, base(rng), static_cast<float>(twice_y) / 2.0f);
  // Results near overflow and underflow (|y log2 x| around 126..150).
  for (int n = 0; n < 2000000; ++n) {
    const float x =
        float_of(0x3c000000u + static_cast<uint32_t>(rng() % 0x07000000u));  // [2^-7, 2^7)
    const float target = std::uniform_real_distribution<float>(-152.0f, 130.0f)(rng);
    check(m, x, target / std::log2(x));
    check(m, -x, std::round(target / std::log2(x)));
  }
  EXPECT_EQ(m.mismatches(), 0u);
}

TEST(Powf, SeededRandomOperands) {
  EXACTVQ_REQUIRE_HOST_REFERENCE();
  MismatchCounter m("powf random");
  std::mt19937_64 rng(20260210);
  std::uniform_real_distribution<float> small_y(-12.0f, 12.0f);
  for (int n = 0; n < 2000000; ++n) {
    const uint64_t r = rng();
    check(m, float_of(static_cast<uint32_t>(r)), float_of(static_cast<uint32_t>(r >> 32)));
    check(m, float_of(static_cast<uint32_t>(r) & 0x7fffffffu), small_y(rng));
  }
  EXPECT_EQ(m.mismatches(), 0u);
}

}  // namespace
}  // namespace exactvq::libm
