// The softfp forms of the pinned functions (libm/<function>_softfp.h) against
// libm:: bit for bit, the TestFloat way: millions of seeded operands over the
// domain ciede gives each function (docs/spec/ciede.md) and around it, and the
// operands where the algorithms change course (table nodes and edges,
// thresholds, quadrant edges). libm:: is itself checked against glibc
// (the other tests here), so these run on any host.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdio>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include "libm/atan2_softfp.h"
#include "libm/exp_softfp.h"
#include "libm/libm.h"
#include "libm/portable_functions.h"
#include "libm/pow_softfp.h"
#include "libm/powf_softfp.h"
#include "libm/sincos_softfp.h"

namespace exactvq::libm {
namespace {

softfp soft(double v) { return softfp_from_bits(std::bit_cast<uint64_t>(v)); }
double hard(softfp v) { return std::bit_cast<double>(softfp_to_bits(v)); }

// A table's words, as device memory would hold them.
template <typename T>
std::vector<uint64_t> words_of(const T* table, size_t entries) {
  std::vector<uint64_t> w(entries * sizeof(T) / 8);
  std::memcpy(w.data(), table, w.size() * 8);
  return w;
}

struct Tables {
  std::vector<uint64_t> exp = words_of(detail::exp_table(), 256);
  std::vector<uint64_t> pow_log = words_of(detail::pow_log_table(), 128);
  std::vector<uint64_t> sincos = words_of(detail::sincos_table(), 110);
  std::vector<uint64_t> atan = words_of(detail::atan_nodes(), 241);
  std::vector<uint64_t> powf_log2 = words_of(detail::powf_log2_table(), 16);
  std::vector<uint64_t> powf_exp2 = words_of(detail::powf_exp2_table(), 32);
};
const Tables& tables() {
  static const Tables t;
  return t;
}

class Counter {
 public:
  explicit Counter(const char* what) : what_(what) {}
  ~Counter() {
    std::printf("[softfp libm] %s: %llu operands compared, %llu mismatches\n", what_,
                static_cast<unsigned long long>(compared_),
                static_cast<unsigned long long>(mismatches_));
  }
  void check(double got, double want, double x, double y = 0) {
    ++compared_;
    if (std::bit_cast<uint64_t>(got) == std::bit_cast<uint64_t>(want)) return;
    if (++mismatches_ <= 8)
      ADD_FAILURE() << what_ << std::hexfloat << " at (" << x << ", " << y << "): softfp " << got
                    << ", libm " << want;
  }

 private:
  const char* what_;
  uint64_t compared_ = 0, mismatches_ = 0;
};

double uniform(std::mt19937_64& rng, double lo, double hi) {
  return std::uniform_real_distribution<double>(lo, hi)(rng);
}
double in_bits(std::mt19937_64& rng, double lo, double hi) {
  const uint64_t a = std::bit_cast<uint64_t>(lo), b = std::bit_cast<uint64_t>(hi);
  return std::bit_cast<double>(a + rng() % (b - a + 1));
}
double near(std::mt19937_64& rng, double v, int ulps) {
  const int64_t d = int64_t(rng() % uint64_t(2 * ulps + 1)) - ulps;
  return std::bit_cast<double>(std::bit_cast<uint64_t>(v) + uint64_t(d));
}

double exp_softfp(double x) { return hard(softfp_exp(soft(x), tables().exp.data())); }
double pow_softfp(double x, double y) {
  return hard(softfp_pow(soft(x), soft(y), tables().pow_log.data(), tables().exp.data()));
}

TEST(SoftfpLibm, Exp) {
  Counter m("exp");
  std::mt19937_64 rng(1);
  const auto check = [&](double x) { m.check(exp_softfp(x), libm::exp(x), x); };
  for (int i = 0; i < 2'000'000; ++i) {
    const float t = float(uniform(rng, -12, 18));
    check(double(-(t * t)));  // ciede's -d^2
    check(uniform(rng, -511.99, 511.99));
    check(in_bits(rng, 0x1p-70, 0x1.fffffffffffffp8) *
          (rng() % 2 ? -1 : 1));  // every binade below 512
  }
  // The table's nodes k ln2/128 and their midpoints, +- 4 ulps; the 2^-54 threshold.
  for (int k = -94000; k <= 94000; ++k)
    for (const double half : {0.0, 0.5})
      check(near(rng, (k + half) * 0x1.62e42fefa39efp-1 / 128, 4));
  for (int i = -64; i <= 64; ++i) {
    check(std::bit_cast<double>(std::bit_cast<uint64_t>(0x1p-54) + uint64_t(i)));
    check(-std::bit_cast<double>(std::bit_cast<uint64_t>(0x1p-54) + uint64_t(i)));
  }
  check(0.0);
  check(-0.0);
}

TEST(SoftfpLibm, Pow) {
  Counter m("pow");
  std::mt19937_64 rng(2);
  const auto check = [&](double x, double y) { m.check(pow_softfp(x, y), libm::pow(x, y), x, y); };
  for (int i = 0; i < 1'000'000; ++i) {
    check(uniform(rng, 0.08, 2.3), 2.4);               // ciede's linear light
    check(uniform(rng, 0.008, 7.6), 1.0 / 3.0);        // ciede's lab f
    check(double(float(uniform(rng, 0, 1300))), 7.0);  // ciede's C-bar^7
    check(in_bits(rng, 0x1p-72, 0x1p12), 7.0);         // tiny chroma too
    check(in_bits(rng, 0x1p-60, 0x1p60), uniform(rng, -8, 8));
    check(in_bits(rng, 1 - 0x1p-12, 1 + 0x1p-12), uniform(rng, -1e4, 1e4));
  }
  // The log table's subinterval edges (0x1.69555p-1 + j 2^-7 ...) at several scales, +- 4 ulps.
  for (int s = -40; s <= 40; ++s)
    for (int j = 0; j <= 128; ++j) {
      const double edge = std::bit_cast<double>(0x3fe6955500000000ull + (uint64_t(j) << 45));
      for (const double y : {2.4, 1.0 / 3.0, 7.0}) check(near(rng, std::ldexp(edge, s), 4), y);
    }
  for (const double y : {2.4, 1.0 / 3.0, 7.0}) {
    check(1.0, y);
    check(0.0, y);
    for (int i = -64; i <= 64; ++i) check(near(rng, 1.0, 64), y);
  }
}

double sin_softfp(double x) { return hard(softfp_sin(soft(x), tables().sincos.data())); }
double cos_softfp(double x) { return hard(softfp_cos(soft(x), tables().sincos.data())); }

TEST(SoftfpLibm, SinCos) {
  Counter ms("sin"), mc("cos");
  std::mt19937_64 rng(3);
  constexpr double kPi = 3.14159265358979323846;
  const auto check = [&](double x) {
    ms.check(sin_softfp(x), libm::sin(x), x);
    mc.check(cos_softfp(x), libm::cos(x), x);
  };
  for (int i = 0; i < 1'000'000; ++i) {
    // ciede's forms of the mean hue, its R_T angle and dh'/2.
    const double h = double(float(uniform(rng, 0, 3 * kPi)));
    check(h - kPi / 6.0);
    check(2.0 * h);
    check(3.0 * h + kPi / 30.0);
    check(4.0 * h - 7.0 * kPi / 20.0);
    check(double(float(uniform(rng, 0, 1.05))));
    check(double(float(uniform(rng, -kPi, kPi))) / 2.0);
    // Every binade up to the medium reduction's limit, both signs.
    check(in_bits(rng, 0x1p-40, 105414349.0) * (rng() % 2 ? -1 : 1));
  }
  // Thresholds (2^-27, 2^-26, 0.126, 0.8555, 2.4263) +- 64 ulps, nodes i/128 and midpoints
  // +- 4 ulps, quadrant edges n pi/2 +- 2 ulps.
  for (const double edge : {0x1p-27, 0x1p-26, 0.126, std::bit_cast<double>(0x3feb600000000000ull),
                            std::bit_cast<double>(0x400368fd00000000ull)})
    for (int i = -64; i <= 64; ++i) {
      const double v = std::bit_cast<double>(std::bit_cast<uint64_t>(edge) + uint64_t(int64_t(i)));
      check(v);
      check(-v);
    }
  for (int i = 1; i < 220; ++i)
    for (int k = 0; k < 20; ++k) {
      const double v = near(rng, i / 256.0, 4);
      check(v);
      check(-v);
    }
  for (int n = 1; n < 200000; ++n) {
    check(near(rng, n * (kPi / 2), 2));
    check(-near(rng, n * (kPi / 2), 2));
  }
}

double atan2_softfp(double y, double x) {
  return hard(softfp_atan2(soft(y), soft(x), tables().atan.data()));
}

TEST(SoftfpLibm, Atan2) {
  Counter m("atan2");
  std::mt19937_64 rng(4);
  const auto check = [&](double y, double x) {
    m.check(atan2_softfp(y, x), libm::atan2(y, x), y, x);
  };
  const auto signed_ = [&](double v) { return rng() % 2 ? -v : v; };
  for (int i = 0; i < 1'000'000; ++i) {
    // ciede's (b, a'): float components, zeros among them (not both).
    const double b = rng() % 16 == 0 ? 0.0 : double(float(uniform(rng, -500, 500)));
    const double a = rng() % 16 == 0 ? 0.0 : double(float(uniform(rng, -1200, 1200)));
    if (a != 0.0 || b != 0.0) check(b, a);
    // Tiny components too: every float binade, both signs, exponent gaps past 57.
    check(signed_(double(std::bit_cast<float>(uint32_t(0x00000001u + rng() % 0x7f7fffffu)))),
          signed_(double(std::bit_cast<float>(uint32_t(0x00000001u + rng() % 0x7f7fffffu)))));
    check(signed_(in_bits(rng, 0x1p-499, 0x1p499)), signed_(in_bits(rng, 0x1p-499, 0x1p499)));
    // Ratios near 1/16, 1 and the nodes (i + 16)/256.
    const double x = uniform(rng, 0.5, 2.0);
    const double r = double(rng() % 241 + 16) / 256.0;
    check(signed_(near(rng, x * r, 3)), signed_(x));
    check(signed_(x), signed_(near(rng, x * r, 3)));
    check(signed_(near(rng, x, 3)), signed_(x));
  }
  for (const double v : {1.0, -1.0, 0x1p-126, 1200.0})
    for (const double zero : {0.0, -0.0}) {
      check(zero, v);
      check(v, zero);
    }
}

float powf_softfp(float x, float y) {
  return std::bit_cast<float>(softfp_powf(std::bit_cast<uint32_t>(x), std::bit_cast<uint32_t>(y),
                                          tables().powf_log2.data(), tables().powf_exp2.data()));
}

TEST(SoftfpLibm, Powf) {
  Counter m("powf");
  std::mt19937_64 rng(5);
  const auto check = [&](float x, float y) {
    m.check(double(powf_softfp(x, y)), double(libm::powf(x, y)), x, y);
  };
  for (int i = 0; i < 2'000'000; ++i) {
    check(float(uniform(rng, 0, 1300)), 7.0f);  // ciede's C-bar'^7
    // Every normal float below 2^18 to 7 (results from 0 through subnormals to 2^126), and to
    // other positive exponents below overflow.
    const float x =
        std::bit_cast<float>(uint32_t(0x00800000u + rng() % (0x48800000u - 0x00800000u)));
    check(x, 7.0f);
    check(x, float(uniform(rng, 0.01, 6.9)));
  }
  // The log2 table's subinterval edges at every exponent, +- 4 ulps, to 7.
  for (int e = -126; e <= 18; ++e)
    for (uint32_t j = 0; j <= 16; ++j)
      for (int d = -4; d <= 4; ++d) {
        const uint32_t edge = 0x3f330000u + (j << 19) + uint32_t(e) * 0x00800000u;
        if (edge + uint32_t(d) >= 0x00800000u && edge + uint32_t(d) < 0x48800000u)
          check(std::bit_cast<float>(edge + uint32_t(d)), 7.0f);
      }
  check(0.0f, 7.0f);
  check(0.0f, 2.0f);
}

TEST(SoftfpLibm, Binary32Operations) {
  Counter m("float +, -, *, /");
  std::mt19937_64 rng(6);
  const auto any = [&] {
    // Finite floats, subnormals and zeros included, weighted to small exponents too.
    const uint32_t b = uint32_t(rng());
    return (b & 0x7f800000u) == 0x7f800000u ? b & 0x807fffffu : b;
  };
  for (int i = 0; i < 4'000'000; ++i) {
    const uint32_t a = any(), b = any();
    const float fa = std::bit_cast<float>(a), fb = std::bit_cast<float>(b);
    const auto f = [](uint32_t v) { return double(std::bit_cast<float>(v)); };
    const float sum = fa + fb, difference = fa - fb, product = fa * fb;
    if (std::isfinite(sum)) m.check(f(exactvq_f32_add(a, b)), double(sum), fa, fb);
    if (std::isfinite(difference)) m.check(f(exactvq_f32_sub(a, b)), double(difference), fa, fb);
    if (std::isfinite(product)) m.check(f(exactvq_f32_mul(a, b)), double(product), fa, fb);
    if (fb != 0.0f && std::isfinite(fa / fb))
      m.check(f(exactvq_f32_div(a, b)), double(fa / fb), fa, fb);
    // Binary64 values rounded to float, through the subnormal range.
    const double d = std::bit_cast<double>((rng() & 0x80000fffffffffffull) |
                                           (uint64_t(0x368 + rng() % 0x10e) << 52));
    m.check(f(exactvq_softfp_to_f32(soft(d))), double(float(d)), d);
  }
}

}  // namespace
}  // namespace exactvq::libm
