// ADM's decoupling with its binary64 steps on softfp (softfp_decouple.h, what
// the OpenCL kernels run) against the native one (pixel.h, the CPU reference
// and CUDA), on the host: the float-rounded, scaled integers, the angle test
// and every restored and additive value, on seeded samples of both scales'
// ranges, near-boundary angles (vectors turned by about one degree) and edge
// values (zeros, the int16 and int32 extremes, ties of the float rounding).
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>

#include <fmt/format.h>

#include "metrics/adm/pixel.h"
#include "metrics/adm/softfp_decouple.h"

namespace exactvq::adm {
namespace {

uint64_t bits_of(double v) { return std::bit_cast<uint64_t>(v); }
uint64_t bits_of(softfp v) { return softfp_to_bits(v); }

// A random integer of a random magnitude (1 to 64 bits), either sign.
int64_t random_i64(std::mt19937_64& rng) {
  const int width = int(rng() % 64) + 1;
  const uint64_t m = width == 64 ? rng() : rng() & ((uint64_t{1} << width) - 1);
  return rng() % 2 ? int64_t(0 - m) : int64_t(m);
}

TEST(AdmSoftfpDecouple, ScaledFloatEqualsNative) {
  std::mt19937_64 rng(0xadf'0001);
  int64_t compared = 0;
  const auto one = [&](int64_t v) {
    const softfp s = adm_softfp_scaled_float_of(v);
    ASSERT_TRUE(softfp_is_valid(s)) << v;
    ASSERT_EQ(bits_of(s), bits_of(pixel::scaled_float_of(v))) << v;
    ++compared;
  };
  for (int i = 0; i < 1'000'000; ++i) one(random_i64(rng));
  // The float rounding's boundaries: 2^24 + k around each power of two, ties
  // to even both ways, and the int64 extremes.
  for (int e = 0; e < 62; ++e)
    for (int64_t k = -3; k <= 3; ++k) {
      const int64_t p = int64_t(uint64_t{1} << e);
      for (const int64_t d : {int64_t{1}, p / 2, p / 2 - 1, p / 2 + 1, p / 4 + 1}) {
        one(p + k * d);
        one(-(p + k * d));
      }
    }
  for (const int64_t v : {INT64_MIN, INT64_MAX, INT64_MIN + 1, int64_t{1}, int64_t{-1}, int64_t{0},
                          int64_t{(1 << 24) + 1}, int64_t{(1 << 25) + 1}, int64_t{(1 << 25) + 3},
                          int64_t{(1 << 25) - 1}})
    one(v);
  std::printf("[ softfp   ] adm scaled floats: %lld equal to (double)(float)v / 4096\n",
              (long long)compared);
}

// The angle test where it turns: for random |o|^2 and |t|^2 of every
// magnitude, the dot products whose square lies next to cos^2 |o|^2 |t|^2
// (floor of its square root and its neighbours), so that the one rounded
// product, (C o) * t, decides the comparison.
TEST(AdmSoftfpDecouple, AngleTestAtItsBoundaryEqualsNative) {
  std::mt19937_64 rng(0xadf'0004);
  int64_t compared = 0, within = 0;
  for (int i = 0; i < 200'000; ++i) {
    AdmAngleInputs in;
    const int bits = 1 + int(rng() % 62);
    in.o_mag = int64_t(rng() >> (64 - bits)) + 1;
    in.t_mag = int64_t(rng() >> (64 - 1 - int(rng() % 62))) + 1;
    const long double product = (long double)EXACTVQ_ADM_COS_ONE_DEGREE_SQUARED *
                                (long double)in.o_mag * (long double)in.t_mag;
    const long double root = std::floor(std::sqrt(product));
    if (!(root < 9.2e18L)) continue;
    for (int64_t k = -2; k <= 2; ++k) {
      in.dot = int64_t(root) + k;
      if (rng() % 8 == 0) in.dot = -in.dot;
      const bool native = pixel::within_one_degree(in);
      ASSERT_EQ(adm_softfp_within_one_degree(in) != 0, native)
          << "dot " << in.dot << " |o|^2 " << in.o_mag << " |t|^2 " << in.t_mag;
      within += native;
      ++compared;
    }
  }
  std::printf(
      "[ softfp   ] adm angle test at its boundary: %lld equal to the native one (%lld within)\n",
      (long long)compared, (long long)within);
  EXPECT_GT(within, compared / 10);
  EXPECT_LT(within, compared - compared / 10);
}

// Random scale-0 and scale-1..3 samples: the angle test and every output
// equal the native ones.
// Counts of the angle test's outcomes, to show both sides of the boundary are met.
struct AngleCounts {
  int64_t within = 0, outside = 0;
};

template <typename T>
void compare_decouple(const T o[3], const T t[3], double gain_limit, int64_t* compared,
                      AngleCounts* angles) {
  AdmAngleInputs in;
  if constexpr (sizeof(T) == 2)
    in = adm_angle_inputs_s0(o, t);
  else
    in = adm_angle_inputs_s123(o, t);
  const bool within = pixel::within_one_degree(in);
  ASSERT_EQ(adm_softfp_within_one_degree(in) != 0, within)
      << "angle test, dot " << in.dot << " |o|^2 " << in.o_mag << " |t|^2 " << in.t_mag;
  ++(within ? angles->within : angles->outside);
  T rn[3], an[3], rs[3], as[3];
  const softfp limit = softfp_from_bits(bits_of(gain_limit));
  if constexpr (sizeof(T) == 2) {
    pixel::decouple_s0(o, t, gain_limit, rn, an);
    adm_softfp_decouple_s0(o, t, limit, rs, as);
  } else {
    pixel::decouple_s123(o, t, gain_limit, rn, an);
    adm_softfp_decouple_s123(o, t, limit, rs, as);
  }
  for (int b = 0; b < 3; ++b) {
    ASSERT_EQ(rs[b], rn[b]) << "restored " << b << " o " << o[0] << "," << o[1] << "," << o[2]
                            << " t " << t[0] << "," << t[1] << "," << t[2] << " egl " << gain_limit;
    ASSERT_EQ(as[b], an[b]) << "additive " << b;
  }
  *compared += 7;
}

double random_gain_limit(std::mt19937_64& rng) {
  switch (rng() % 4) {
    case 0:
      return 1.0;
    case 1:
      return 100.0;
    default:
      return 1.0 + double(rng() % 99'000'000) / 1e6;  // [1, 100)
  }
}

// t as o turned by about one degree (the angle test's boundary) and scaled.
template <typename T>
void near_one_degree(const T o[3], T t[3], std::mt19937_64& rng, double max) {
  const double angle =
      (1.0 + (double(rng() % 2001) - 1000.0) * 1e-6) * M_PI / 180.0 * (rng() % 2 ? 1 : -1);
  const double scale = 0.25 + double(rng() % 1000) / 250.0;
  const double h = (std::cos(angle) * o[0] - std::sin(angle) * o[1]) * scale;
  const double v = (std::sin(angle) * o[0] + std::cos(angle) * o[1]) * scale;
  t[0] = T(std::clamp(std::round(h), -max, max));
  t[1] = T(std::clamp(std::round(v), -max, max));
  t[2] = T(std::clamp(double(o[2]) * scale, -max, max));
}

TEST(AdmSoftfpDecouple, Scale0EqualsNative) {
  std::mt19937_64 rng(0xadf'0002);
  int64_t compared = 0;
  const auto sample = [&](int range) -> int16_t {
    switch (rng() % 8) {
      case 0:
        return 0;
      case 1:
        return rng() % 2 ? INT16_MIN : INT16_MAX;
      default:
        return int16_t(int64_t(rng() % uint64_t(2 * range + 1)) - range);
    }
  };
  AngleCounts near;
  for (int i = 0; i < 400'000; ++i) {
    const int range = rng() % 2 ? 32767 : 1 << (rng() % 15);
    int16_t o[3], t[3];
    for (int b = 0; b < 3; ++b) o[b] = sample(range);
    AngleCounts ignored;
    const bool turned = rng() % 2;
    if (turned)
      near_one_degree(o, t, rng, 32767.0);
    else
      for (int b = 0; b < 3; ++b) t[b] = sample(range);
    compare_decouple(o, t, random_gain_limit(rng), &compared, turned ? &near : &ignored);
    if (HasFatalFailure()) return;
  }
  std::printf(
      "[ softfp   ] adm decoupling, scale 0: %lld values equal to the native ones (turned by about "
      "one degree: %lld within, %lld outside)\n",
      (long long)compared, (long long)near.within, (long long)near.outside);
  EXPECT_GT(near.within, 20'000);
  EXPECT_GT(near.outside, 20'000);
}

TEST(AdmSoftfpDecouple, Scales123EqualNative) {
  std::mt19937_64 rng(0xadf'0003);
  int64_t compared = 0;
  const auto sample = [&](int bits) -> int32_t {
    switch (rng() % 10) {
      case 0:
        return 0;
      case 1:
        return rng() % 2 ? INT32_MIN : INT32_MAX;
      default: {
        const int64_t m = int64_t(rng() & ((uint64_t{1} << bits) - 1));
        return int32_t(rng() % 2 ? -m : m);
      }
    }
  };
  AngleCounts near;
  for (int i = 0; i < 400'000; ++i) {
    const int bits = 1 + int(rng() % 31);
    int32_t o[3], t[3];
    for (int b = 0; b < 3; ++b) o[b] = sample(bits);
    AngleCounts ignored;
    const bool turned = rng() % 2;
    if (turned)
      near_one_degree(o, t, rng, 2147483647.0);
    else
      for (int b = 0; b < 3; ++b) t[b] = sample(bits);
    compare_decouple(o, t, random_gain_limit(rng), &compared, turned ? &near : &ignored);
    if (HasFatalFailure()) return;
  }
  std::printf(
      "[ softfp   ] adm decoupling, scales 1..3: %lld values equal to the native ones (turned by "
      "about "
      "one degree: %lld within, %lld outside)\n",
      (long long)compared, (long long)near.within, (long long)near.outside);
  EXPECT_GT(near.within, 20'000);
  EXPECT_GT(near.outside, 20'000);
}

}  // namespace
}  // namespace exactvq::adm
