// The host's step between the GPU engines' two stages of a batch
// (device_plan.h): every side's solver found side by side on a pool equals
// solve_for_blocks called for that side alone, bit for bit, whatever the pool
// (none, one thread, several), with the pairs that sat the batch out left
// untouched; and a pair's score from its Words equals pair_score on its terms,
// with the flags read where and in the order the scalar engine read them.
#include <gtest/gtest.h>

#include <bit>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "core/error.h"
#include "core/thread_pool.h"
#include "metrics/speed/covariance.h"
#include "metrics/speed/device_plan.h"
#include "metrics/speed/reference.h"

namespace exactvq::speed {
namespace {

// Covariance sums of a random (or, `flat`, constant: singular) w x h plane
// with random window means, as binary64 bit patterns.
void random_sums(std::mt19937_64& rng, const Dimensions& d, bool flat, uint64_t* out) {
  const int w = d.operating_width, h = d.operating_height;
  std::vector<float> plane(size_t(w) * size_t(h));
  std::uniform_real_distribution<float> value(-40.0f, 40.0f);
  const float constant = value(rng);
  for (float& v : plane) v = flat ? constant : value(rng);
  float means[kWindows];
  for (float& m : means) m = flat ? constant : value(rng) / 8.0f;
  double sums[kCovariancePairs];
  covariance_sums_reference(plane.data(), size_t(w), d.submatrix_width, d.submatrix_height, means,
                            sums);
  for (int k = 0; k < kCovariancePairs; ++k) out[k] = std::bit_cast<uint64_t>(sums[k]);
}

TEST(SpeedBatchStep, SolvesSideBySideEqualEachAlone) {
  std::mt19937_64 rng(20261206);
  const Dimensions d = dimensions_of(960, 540, 1.0);
  constexpr size_t kPairs = 24;
  std::vector<uint64_t> sums(2 * kPairs * kCovariancePairs);
  bool active[kPairs];
  for (size_t p = 0; p < kPairs; ++p) {
    active[p] = p % 7 != 3;
    for (size_t s = 0; s < 2; ++s)
      random_sums(rng, d, (p % 5 == 1 && s == 0) || p % 11 == 4,
                  sums.data() + (2 * p + s) * kCovariancePairs);
  }
  // Each side alone, as the scalar engine solved it.
  std::vector<float> want(2 * kPairs * kSolverFloats, -7.0f);
  std::vector<char> want_singular(2 * kPairs, 2);
  int singular_sides = 0;
  for (size_t i = 0; i < 2 * kPairs; ++i) {
    if (!active[i / 2]) continue;
    double s[kCovariancePairs];
    for (int k = 0; k < kCovariancePairs; ++k)
      s[k] = std::bit_cast<double>(sums[i * kCovariancePairs + size_t(k)]);
    BlockSolver b;
    solve_for_blocks(s, d.submatrix_width, d.submatrix_height, b);
    float* out = want.data() + i * kSolverFloats;
    std::memcpy(out, b.qt, sizeof b.qt);
    std::memcpy(out + kBlockElements * kBlockElements, b.r, sizeof b.r);
    std::memcpy(out + 2 * kBlockElements * kBlockElements, b.eigenvalues, sizeof b.eigenvalues);
    want_singular[i] = b.singular ? 1 : 0;
    singular_sides += b.singular;
  }
  EXPECT_GT(singular_sides, 4);
  EXPECT_LT(singular_sides, 24);
  ThreadPool one(1), four(4);
  for (ThreadPool* pool : {static_cast<ThreadPool*>(nullptr), &one, &four}) {
    std::vector<float> got(want.size(), -7.0f);
    bool singular[2 * kPairs];
    std::memset(singular, 0, sizeof singular);
    solve_pairs(sums.data(), active, kPairs, d, pool, got.data(), singular);
    EXPECT_EQ(std::memcmp(got.data(), want.data(), want.size() * sizeof(float)), 0)
        << "pool of " << (pool ? pool->size() : 0);
    for (size_t i = 0; i < 2 * kPairs; ++i) {
      if (!active[i / 2]) continue;
      EXPECT_EQ(int(singular[i]), int(want_singular[i])) << "side " << i;
    }
  }
}

// A pair's Words: terms, then (flags) the two sides' entropy flags and the terms' flags.
std::vector<uint32_t> pair_words(std::mt19937_64& rng, int blocks, bool flags,
                                 std::vector<float>& terms) {
  std::vector<uint32_t> w(words_per_pair(blocks, flags), 0);
  std::uniform_real_distribution<float> term(-1.0f, 3.0f);
  terms.resize(size_t(blocks));
  for (int b = 0; b < blocks; ++b) {
    terms[size_t(b)] = b % 3 == 0 ? 0.0f : term(rng);
    w[size_t(b)] = std::bit_cast<uint32_t>(terms[size_t(b)]);
  }
  return w;
}

TEST(SpeedBatchStep, WordsGiveTheScalarEnginesScore) {
  std::mt19937_64 rng(7);
  const int blocks = 72;
  for (int flags = 0; flags < 2; ++flags)
    for (int singular = 0; singular < 4; ++singular) {
      std::vector<float> terms;
      const std::vector<uint32_t> w = pair_words(rng, blocks, flags != 0, terms);
      const bool ref = singular & 1, dis = (singular & 2) != 0;
      const PairScore want = ref != dis ? pair_score(nullptr, 0, ref, dis)
                                        : pair_score(terms.data(), blocks, ref, dis);
      const PairScore got =
          pair_score_of_words(w.data(), blocks, flags != 0, ref, dis, "speed_chroma");
      EXPECT_EQ(std::bit_cast<uint32_t>(got.score), std::bit_cast<uint32_t>(want.score));
      EXPECT_EQ(got.singular, want.singular);
    }
}

TEST(SpeedBatchStep, FlagsRefuseAsTheScalarEngineDid) {
  std::mt19937_64 rng(11);
  const int blocks = 30;
  const char* kWhat[3] = {"a block's entropy", "a block's entropy", "a block's variance weight"};
  for (int group = 0; group < 3; ++group) {
    std::vector<float> terms;
    std::vector<uint32_t> w = pair_words(rng, blocks, true, terms);
    w[size_t((group + 1) * blocks + 17)] = 1;
    // Native: the flags are not there to read.
    EXPECT_NO_THROW(pair_score_of_words(w.data(), blocks, false, false, false, "speed_temporal"));
    // One side alone singular: the scalar engine returned before the flags.
    EXPECT_NO_THROW(pair_score_of_words(w.data(), blocks, true, true, false, "speed_temporal"));
    try {
      pair_score_of_words(w.data(), blocks, true, false, false, "speed_temporal");
      ADD_FAILURE() << "group " << group << " flagged, no refusal";
    } catch (const DeviceError& e) {
      const std::string m = e.what();
      EXPECT_NE(m.find("speed_temporal: "), std::string::npos) << m;
      EXPECT_NE(m.find(kWhat[group]), std::string::npos) << m;
      EXPECT_NE(m.find("fp64=native"), std::string::npos) << m;
    }
  }
}

}  // namespace
}  // namespace exactvq::speed
