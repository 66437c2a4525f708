// The streaming reference against a line-by-line transcription of spec/ssim.md,
// and the properties the exact sum promises.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>

#include "metrics/ssim/plane_fixture.h"
#include "metrics/ssim/reference.h"
#include "metrics/ssim/taps.h"
#include "metrics/ssim/term.h"

namespace exactvq::ssim {
namespace {

using test::add_noise;
using test::make_plane;
using test::OwnedPlane;
using test::Pattern;

// spec/ssim.md, steps 1 and 2, written out per pixel with no reuse at all.
Moments definition_moments(const OwnedPlane& r, const OwnedPlane& d, int x, int y) {
  Moments m{0, 0, 0, 0, 0, 0};
  for (int kv = 0; kv < kTaps; ++kv) {
    const int row = y - kRadius + kv;
    if (row < 0 || row >= r.height) continue;
    uint64_t hm = 0, hn = 0, hxx = 0, hxy = 0, hyy = 0, hw = 0;
    for (int kh = 0; kh < kTaps; ++kh) {
      const int col = x - kRadius + kh;
      if (col < 0 || col >= r.width) continue;
      const uint64_t s = r.get(col, row), t = d.get(col, row), g = kTap[size_t(kh)];
      hm += g * s;
      hn += g * t;
      hxx += g * s * s;
      hxy += g * s * t;
      hyy += g * t * t;
      hw += g;
    }
    const uint64_t g = kTap[size_t(kv)];
    m.mux += g * hm;
    m.muy += g * hn;
    m.x2 += g * hxx;
    m.xy += g * hxy;
    m.y2 += g * hyy;
    m.w += g * hw;
  }
  return m;
}

struct DefinitionScores {
  ExactSum exact;
  double raster;
};

DefinitionScores definition_scores(const OwnedPlane& r, const OwnedPlane& d) {
  const TermConstants k = term_constants(r.bitdepth);
  DefinitionScores out{};
  double sum = 0, sum_w = 0;
  for (int y = 0; y < r.height; ++y)
    for (int x = 0; x < r.width; ++x) {
      const Moments m = definition_moments(r, d, x, y);
      const double t = ssim_term(m, k);
      out.exact.add(t, m.w);
      sum += t;
      sum_w += double(m.w);
    }
  out.raster = sum / sum_w;
  return out;
}

TEST(SsimReference, MatchesDefinitionOnRandomPlanes) {
  std::mt19937_64 rng(42);
  int cases = 0;
  for (int bits : {8, 10, 12, 16}) {
    for (int i = 0; i < 40; ++i) {
      const int w = 1 + int(rng() % 30), h = 1 + int(rng() % 30);
      const Pattern pat = static_cast<Pattern>(rng() % 5);
      const OwnedPlane r = make_plane(w, h, bits, pat, rng);
      const OwnedPlane d = (rng() & 1) ? add_noise(r, 1u << (bits - 4), rng)
                                       : make_plane(w, h, bits, Pattern::kRandom, rng);
      const DefinitionScores want = definition_scores(r, d);
      const ExactSum got = exact_sum(r.view(), d.view(), bits, whole(r.view()));
      ASSERT_EQ(got, want.exact) << w << "x" << h << " " << bits << "-bit";
      const double raster = score_raster(r.view(), d.view(), bits);
      ASSERT_EQ(std::memcmp(&raster, &want.raster, sizeof raster), 0) << w << "x" << h;
      ++cases;
    }
  }
  EXPECT_EQ(cases, 160);
}

TEST(SsimReference, ExtremeValuesAtEveryDepth) {
  std::mt19937_64 rng(1);
  for (int bits = 8; bits <= 16; ++bits) {
    for (auto [a, b] : {std::pair{Pattern::kZero, Pattern::kMax},
                        std::pair{Pattern::kAlternating, Pattern::kAlternating}}) {
      const OwnedPlane r = make_plane(23, 19, bits, a, rng);
      const OwnedPlane d = make_plane(23, 19, bits, b, rng, /*invert=*/a == b);
      const DefinitionScores want = definition_scores(r, d);
      ASSERT_EQ(exact_sum(r.view(), d.view(), bits, whole(r.view())), want.exact) << bits;
      ASSERT_EQ(score_raster(r.view(), d.view(), bits), want.raster) << bits;
    }
  }
}

TEST(SsimReference, IdenticalInputsScoreExactlyOne) {
  std::mt19937_64 rng(3);
  for (int bits : {8, 9, 10, 12, 14, 16})
    for (Pattern pat :
         {Pattern::kRandom, Pattern::kZero, Pattern::kMax, Pattern::kAlternating, Pattern::kSmooth})
      for (auto [w, h] : {std::pair{64, 64}, std::pair{97, 80}, std::pair{576, 324}}) {
        const OwnedPlane p = make_plane(w, h, bits, pat, rng);
        EXPECT_EQ(score_exact(p.view(), p.view(), bits), 1.0) << bits << " " << w << "x" << h;
        EXPECT_EQ(score_raster(p.view(), p.view(), bits), 1.0) << bits << " " << w << "x" << h;
      }
}

// On planes so small that every window is truncated, w is not a power of two and
// the spec's term rounds w*A*B and C*D differently, and B and D differently:
// identical inputs then land within a few ulps of 1, not on it (libvmaf's
// arithmetic, which the spec keeps, does the same).
TEST(SsimReference, IdenticalTinyPlanesScoreWithinUlpsOfOne) {
  std::mt19937_64 rng(4);
  int off_one = 0;
  for (int bits : {8, 10, 12, 16})
    for (int w = 1; w <= 12; ++w)
      for (int h = 1; h <= 12; ++h) {
        const OwnedPlane p = make_plane(w, h, bits, Pattern::kRandom, rng);
        for (double s :
             {score_exact(p.view(), p.view(), bits), score_raster(p.view(), p.view(), bits)}) {
          EXPECT_LE(std::fabs(s - 1.0), 0x1p-50) << bits << " " << w << "x" << h;
          off_one += s != 1.0;
        }
      }
  EXPECT_GT(off_one, 0) << "the tiny-plane rounding this test documents no longer occurs";
}

// Splits `r` into a random guillotine partition of rects.
void random_partition(Rect r, std::mt19937_64& rng, std::vector<Rect>& out, int depth = 0) {
  const int w = r.x1 - r.x0, h = r.y1 - r.y0;
  if (depth > 6 || (w <= 1 && h <= 1) || rng() % 4 == 0) {
    out.push_back(r);
    return;
  }
  if ((rng() & 1) ? w > 1 : h <= 1) {
    const int cut = r.x0 + 1 + int(rng() % uint64_t(w - 1));
    random_partition({r.x0, r.y0, cut, r.y1}, rng, out, depth + 1);
    random_partition({cut, r.y0, r.x1, r.y1}, rng, out, depth + 1);
  } else {
    const int cut = r.y0 + 1 + int(rng() % uint64_t(h - 1));
    random_partition({r.x0, r.y0, r.x1, cut}, rng, out, depth + 1);
    random_partition({r.x0, cut, r.x1, r.y1}, rng, out, depth + 1);
  }
}

TEST(ExactSum, AnyPartitionMergedInAnyOrderGivesTheSameBits) {
  std::mt19937_64 rng(2026);
  for (int bits : {8, 10, 12, 16}) {
    for (int i = 0; i < 25; ++i) {
      const int w = 1 + int(rng() % 60), h = 1 + int(rng() % 60);
      const OwnedPlane r = make_plane(w, h, bits, Pattern::kRandom, rng);
      const OwnedPlane d = add_noise(r, 1u << (bits - 3), rng);
      const ExactSum whole_sum = exact_sum(r.view(), d.view(), bits, whole(r.view()));
      std::vector<Rect> parts;
      random_partition(whole(r.view()), rng, parts);
      std::vector<ExactSum> partial;
      for (const Rect& p : parts) partial.push_back(exact_sum(r.view(), d.view(), bits, p));
      std::shuffle(partial.begin(), partial.end(), rng);
      ExactSum merged;
      for (const auto& p : partial) merged += p;
      ASSERT_EQ(merged, whole_sum) << w << "x" << h << " in " << parts.size() << " parts";
      const double a = merged.score(), b = whole_sum.score();
      ASSERT_EQ(std::memcmp(&a, &b, sizeof a), 0);
    }
  }
}

TEST(ExactSum, RowBandsOfEveryCount) {
  std::mt19937_64 rng(5);
  const OwnedPlane r = make_plane(50, 41, 10, Pattern::kSmooth, rng);
  const OwnedPlane d = add_noise(r, 40, rng);
  const ExactSum want = exact_sum(r.view(), d.view(), 10, whole(r.view()));
  for (int bands = 1; bands <= 41; ++bands) {
    ExactSum got;
    for (int b = bands - 1; b >= 0; --b)
      got += exact_sum(r.view(), d.view(), 10, {0, 41 * b / bands, 50, 41 * (b + 1) / bands});
    ASSERT_EQ(got, want) << bands << " bands";
  }
}

TEST(SsimReference, ExactAndRasterAgreeClosely) {
  std::mt19937_64 rng(9);
  for (int bits : {8, 10, 12, 16}) {
    const OwnedPlane r = make_plane(200, 120, bits, Pattern::kSmooth, rng);
    const OwnedPlane d = add_noise(r, 1u << (bits - 3), rng);
    EXPECT_NEAR(score_exact(r.view(), d.view(), bits), score_raster(r.view(), d.view(), bits),
                1e-11);
  }
}

}  // namespace
}  // namespace exactvq::ssim
