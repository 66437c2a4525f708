// The scalar SSE against its definition, sum over samples of (ref - dist)^2 in
// 64 bits, on seeded random and extreme planes; any row split gives the same sum.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>

#include "metrics/psnr/sse.h"
#include "metrics/ssim/plane_fixture.h"

namespace exactvq {
namespace {

using test::OwnedPlane;
using test::Pattern;

uint64_t definition(const OwnedPlane& a, const OwnedPlane& b) {
  uint64_t s = 0;
  for (int y = 0; y < a.height; ++y)
    for (int x = 0; x < a.width; ++x) {
      const int64_t e = int64_t(a.get(x, y)) - int64_t(b.get(x, y));
      s += uint64_t(e * e);
    }
  return s;
}

TEST(SseReference, EqualsDefinitionOnRandomAndExtremePlanes) {
  const uint64_t seed = 20261130;
  std::mt19937_64 rng(seed);
  int compared = 0;
  for (int bits = 8; bits <= 16; ++bits)
    for (const int w : {1, 2, 3, 7, 17, 64, 71}) {
      const int h = 1 + int(rng() % 9);
      for (const auto& [pa, pb, invert] :
           {std::tuple{Pattern::kRandom, Pattern::kRandom, false},
            std::tuple{Pattern::kZero, Pattern::kMax, false},
            std::tuple{Pattern::kAlternating, Pattern::kAlternating, true},
            std::tuple{Pattern::kSmooth, Pattern::kSmooth, false}}) {
        const OwnedPlane a = test::make_plane(w, h, bits, pa, rng);
        const OwnedPlane b = test::make_plane(w, h, bits, pb, rng, invert);
        EXPECT_EQ(psnr::sse_reference(a.view(), b.view(), 0, h), definition(a, b))
            << "seed " << seed << " bits " << bits << " " << w << "x" << h;
        ++compared;
      }
    }
  EXPECT_EQ(compared, 9 * 7 * 4);
}

// Every sample at maximal error, on the widest row we accept: the 8-bit row sum
// is closest to 2^32 there.
TEST(SseReference, WidestRowsAtMaximalError) {
  std::mt19937_64 rng(1);
  for (const int bits : {8, 16}) {
    const int w = kMaxDimension;
    const OwnedPlane zero = test::make_plane(w, 2, bits, Pattern::kZero, rng);
    const OwnedPlane max = test::make_plane(w, 2, bits, Pattern::kMax, rng);
    const uint64_t m = (uint64_t{1} << bits) - 1;
    EXPECT_EQ(psnr::sse_reference(zero.view(), max.view(), 0, 2), 2 * uint64_t(w) * m * m);
    EXPECT_EQ(psnr::sse_reference(max.view(), zero.view(), 1, 2), uint64_t(w) * m * m);
  }
}

TEST(SseReference, AnyRowSplitAddsUpToTheWhole) {
  std::mt19937_64 rng(7);
  for (const int bits : {8, 10, 16}) {
    const OwnedPlane a = test::make_plane(33, 29, bits, Pattern::kRandom, rng);
    const OwnedPlane b = test::make_plane(33, 29, bits, Pattern::kRandom, rng);
    const uint64_t whole = psnr::sse_reference(a.view(), b.view(), 0, 29);
    for (int cut = 0; cut <= 29; ++cut)
      EXPECT_EQ(psnr::sse_reference(a.view(), b.view(), 0, cut) +
                    psnr::sse_reference(a.view(), b.view(), cut, 29),
                whole)
          << "bits " << bits << " cut " << cut;
  }
}

}  // namespace
}  // namespace exactvq
