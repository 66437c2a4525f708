// The SIMD plane scorer against the scalar reference, bit for bit: exact sums
// (whole planes, row bands, tiles) and raster scores, through both pipelines
// (stage by stage, fused window_terms), at 8, 10, 12 and 16 bits,
// on random, smooth and extreme planes, once per supported SIMD target.
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <string>
#include <random>
#include <utility>

#include "metrics/ssim/cpu/ssim_simd.h"
#include "cpu/target_param.h"
#include "ssim/plane_fixture.h"
#include "metrics/ssim/reference.h"

namespace exactvq::cpu {
namespace {

using test::Pattern;

constexpr uint64_t kSeed = 0x5eed'0103;

bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

// Runs the scorer's fused or stage-by-stage pipeline while alive.
class FusedChoice {
 public:
  explicit FusedChoice(bool fused) : was_(cpu::fused_window_terms()) {
    cpu::use_fused_window_terms(fused);
  }
  ~FusedChoice() { cpu::use_fused_window_terms(was_); }

 private:
  bool was_;
};

// Stage by stage unless EXACTVQ_CPU_FUSED is set to something other than 0.
TEST(FusedDefault, StageByStageUnlessAsked) {
  const char* v = std::getenv("EXACTVQ_CPU_FUSED");
  EXPECT_EQ(cpu::fused_window_terms(), v != nullptr && std::string(v) != "0");
}

using PlaneTwin = test::PerTarget;

TEST_P(PlaneTwin, ExactAndRasterMatchReference) {
  std::mt19937_64 rng(kSeed);
  SCOPED_TRACE(testing::Message() << "seed " << kSeed << ", target " << GetParam().name);
  std::vector<std::pair<int, int>> sizes = {{1, 1}, {1, 9}, {9, 1}, {5, 7}, {17, 13}, {1920, 10},
                                            {3840, 9}};
  for (int w = 1; w <= 70; w += 3) sizes.push_back({w, 1 + int(rng() % 20)});
  int checks = 0;
  for (int bits : {8, 10, 12, 16})
    for (auto [w, h] : sizes)
      for (Pattern pattern : {Pattern::kRandom, Pattern::kSmooth, Pattern::kZero, Pattern::kMax,
                              Pattern::kAlternating}) {
        SCOPED_TRACE(testing::Message() << w << "x" << h << " bits " << bits << " pattern "
                                        << int(pattern));
        const auto ref = test::make_plane(w, h, bits, pattern, rng);
        // Distorted: noisy, or the inverse (max against zero at the extremes).
        const auto dist = pattern == Pattern::kRandom || pattern == Pattern::kSmooth
                              ? test::add_noise(ref, (1u << bits) / 16, rng)
                              : test::make_plane(w, h, bits, pattern, rng, /*invert=*/true);
        const PlaneView r = ref.view(), d = dist.view();
        const ssim::ExactSum want = ssim::exact_sum(r, d, bits, ssim::whole(r));
        for (bool fused : {false, true}) {
        SCOPED_TRACE(fused ? "fused window_terms" : "stage by stage");
        const FusedChoice choice(fused);
        ASSERT_TRUE(cpu::exact_sum(r, d, bits, ssim::whole(r)) == want);
        ASSERT_TRUE(same_bits(cpu::score_exact(r, d, bits), want.score()));
        ASSERT_TRUE(same_bits(cpu::score_raster(r, d, bits), ssim::score_raster(r, d, bits)));
        // A random split into row bands and column tiles adds up to the same sum.
        const int ys = int(rng() % uint64_t(h + 1)), xs = int(rng() % uint64_t(w + 1));
        ssim::ExactSum parts;
        for (ssim::Rect rect : {ssim::Rect{0, 0, xs, ys}, ssim::Rect{xs, 0, w, ys},
                                ssim::Rect{0, ys, w, h}})
          parts += cpu::exact_sum(r, d, bits, rect);
        ASSERT_TRUE(parts == want) << "split at x " << xs << ", y " << ys;
        }
        ++checks;
      }
  std::printf("[ %s ] planes: %d planes, exact, raster and split sums identical\n",
              GetParam().name.c_str(), checks);
}

EXACTVQ_INSTANTIATE_PER_TARGET(PlaneTwin);

}  // namespace
}  // namespace exactvq::cpu
