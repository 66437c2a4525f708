// The pinned functions on seeded operands, folded into one 64-bit digest per
// function and compared with the digest of glibc 2.36's results recorded
// here: this checks the pinned code on any host, compiler and target (no
// host libm needed); where the host's libm is the oracle, the recorded digests
// are confirmed against it too. Operands come from std::mt19937_64 (the same
// sequence everywhere) and integer arithmetic only.
#include <bit>
#include <cstdint>
#include <functional>
#include <random>

#include "libm/host_reference.h"
#include "libm/libm.h"

namespace exactvq::libm {
namespace {

class Digest {
 public:
  void add(uint64_t bits) {
    for (int i = 0; i < 8; ++i) {
      state_ ^= (bits >> (8 * i)) & 0xff;
      state_ *= 0x100000001b3u;  // FNV-1a
    }
  }
  uint64_t value() const { return state_; }

 private:
  uint64_t state_ = 0xcbf29ce484222325u;
};

// A double whose bits are uniform over [lo, hi], with a random sign when signed.
double draw(std::mt19937_64& rng, double lo, double hi, bool signed_) {
  const uint64_t a = std::bit_cast<uint64_t>(lo), b = std::bit_cast<uint64_t>(hi);
  const uint64_t r = rng();
  const double v = std::bit_cast<double>(a + (r >> 1) % (b - a + 1));
  return signed_ && (r & 1) ? -v : v;
}

constexpr int kPerClass = 200000;

// Unary binary64 functions: any bits, then two ranges that matter to it.
uint64_t unary_digest(const std::function<double(double)>& f, double lo1, double hi1, double lo2,
                      double hi2, bool signed_) {
  std::mt19937_64 rng(0x6c69626d);
  Digest d;
  for (int n = 0; n < kPerClass; ++n) {
    d.add(std::bit_cast<uint64_t>(f(std::bit_cast<double>(rng()))));
    d.add(std::bit_cast<uint64_t>(f(draw(rng, lo1, hi1, signed_))));
    d.add(std::bit_cast<uint64_t>(f(draw(rng, lo2, hi2, signed_))));
  }
  return d.value();
}

uint64_t pow_digest(const std::function<double(double, double)>& f) {
  std::mt19937_64 rng(0x706f77);
  Digest d;
  // One draw a statement: the order of a call's arguments is unspecified.
  for (int n = 0; n < kPerClass; ++n) {
    const double any_x = std::bit_cast<double>(rng());
    const double any_y = std::bit_cast<double>(rng());
    d.add(std::bit_cast<uint64_t>(f(any_x, any_y)));
    const double x = draw(rng, 0x1p-10, 0x1p10, false);
    const double y = draw(rng, 0x1p-8, 64.0, true);
    d.add(std::bit_cast<uint64_t>(f(x, y)));
    const double neg = -draw(rng, 0.5, 16.0, false);
    const double integer = static_cast<double>(static_cast<int>(rng() % 41) - 20);
    d.add(std::bit_cast<uint64_t>(f(neg, integer)));
  }
  return d.value();
}

uint64_t powf_digest(const std::function<float(float, float)>& f) {
  std::mt19937_64 rng(0x706f7766);
  Digest d;
  for (int n = 0; n < kPerClass; ++n) {
    const uint64_t r = rng();
    d.add(std::bit_cast<uint32_t>(f(std::bit_cast<float>(static_cast<uint32_t>(r)),
                                    std::bit_cast<float>(static_cast<uint32_t>(r >> 32)))));
    const float x = std::bit_cast<float>(static_cast<uint32_t>(rng() % 0x7f800000u));
    const float y = static_cast<float>(static_cast<int>(rng() % 2001) - 1000) / 64.0f;  // after x
    d.add(std::bit_cast<uint32_t>(f(x, y)));
    d.add(std::bit_cast<uint32_t>(f(static_cast<float>(rng() % 4096), 7.0f)));
  }
  return d.value();
}

uint64_t atan2_digest(const std::function<double(double, double)>& f) {
  std::mt19937_64 rng(0x6174616e);
  Digest d;
  for (int n = 0; n < kPerClass; ++n) {
    const double any_y = std::bit_cast<double>(rng());
    const double any_x = std::bit_cast<double>(rng());
    d.add(std::bit_cast<uint64_t>(f(any_y, any_x)));
    const double wide_y = draw(rng, 0x1p-8, 128.0, true);
    const double wide_x = draw(rng, 0x1p-8, 128.0, true);
    d.add(std::bit_cast<uint64_t>(f(wide_y, wide_x)));
    const double near_y = draw(rng, 0.5, 2.0, true);
    const double near_x = draw(rng, 0.5, 2.0, true);
    d.add(std::bit_cast<uint64_t>(f(near_y, near_x)));
  }
  return d.value();
}

// Checks the pinned digest against the recorded one, and the host's where it is the oracle.
void expect_digest(uint64_t recorded, uint64_t pinned, const std::function<uint64_t()>& host,
                   const char* name) {
  std::printf("[libm] %s digest: pinned %016llx recorded %016llx\n", name,
              static_cast<unsigned long long>(pinned), static_cast<unsigned long long>(recorded));
  EXPECT_EQ(pinned, recorded) << name;
  if (testing::host_is_not_reference().empty()) {
    EXPECT_EQ(host(), recorded) << name << " (host)";
  }
}

TEST(LibmDigest, Log2) {
  auto digest = [](auto f) { return unary_digest(f, 0x1p-1074, 0x1p1023, 0.5, 2.0, false); };
  expect_digest(
      0xf195e975a8109623u, digest([](double x) { return libm::log2(x); }),
      [&] { return digest([](double x) { return testing::host_log2(x); }); }, "log2");
}

TEST(LibmDigest, Log10) {
  auto digest = [](auto f) { return unary_digest(f, 0x1p-1074, 0x1p1023, 0.5, 2.0, false); };
  expect_digest(
      0x2ca975248afcc5b2u, digest([](double x) { return libm::log10(x); }),
      [&] { return digest([](double x) { return testing::host_log10(x); }); }, "log10");
}

TEST(LibmDigest, Log) {
  auto digest = [](auto f) { return unary_digest(f, 0x1p-1074, 0x1p1023, 0.5, 2.0, false); };
  expect_digest(
      0x5dc2b8781f8280e0u, digest([](double x) { return libm::log(x); }),
      [&] { return digest([](double x) { return testing::host_log(x); }); }, "log");
}

TEST(LibmDigest, Exp) {
  auto digest = [](auto f) { return unary_digest(f, 0x1p-60, 750.0, 0x1p-8, 2.0, true); };
  expect_digest(
      0x374136edd47aa2a3u, digest([](double x) { return libm::exp(x); }),
      [&] { return digest([](double x) { return testing::host_exp(x); }); }, "exp");
}

TEST(LibmDigest, Sin) {
  auto digest = [](auto f) { return unary_digest(f, 0x1p-30, 4.0, 4.0, 0x1p40, true); };
  expect_digest(
      0xe8a0e3769f47e270u, digest([](double x) { return libm::sin(x); }),
      [&] { return digest([](double x) { return testing::host_sin(x); }); }, "sin");
}

TEST(LibmDigest, Cos) {
  auto digest = [](auto f) { return unary_digest(f, 0x1p-30, 4.0, 4.0, 0x1p40, true); };
  expect_digest(
      0x059a04b1ab41caadu, digest([](double x) { return libm::cos(x); }),
      [&] { return digest([](double x) { return testing::host_cos(x); }); }, "cos");
}

TEST(LibmDigest, Pow) {
  expect_digest(
      0x4508b13c272f5a61u, pow_digest([](double x, double y) { return libm::pow(x, y); }),
      [] { return pow_digest([](double x, double y) { return testing::host_pow(x, y); }); }, "pow");
}

TEST(LibmDigest, Powf) {
  expect_digest(
      0x0bde9d4d39ca0496u, powf_digest([](float x, float y) { return libm::powf(x, y); }),
      [] { return powf_digest([](float x, float y) { return testing::host_powf(x, y); }); },
      "powf");
}

TEST(LibmDigest, Atan2) {
  expect_digest(
      0x33907dfeb43fe943u, atan2_digest([](double y, double x) { return libm::atan2(y, x); }),
      [] { return atan2_digest([](double y, double x) { return testing::host_atan2(y, x); }); },
      "atan2");
}

}  // namespace
}  // namespace exactvq::libm
