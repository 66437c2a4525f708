// The parallel raster-order sum (core/raster_sum.h) against the sequential definition
// (ssim::add_in_raster_order): the same bits (memcmp) on adversarial sequences of many
// lengths, one and two threads; the one-addition lemma on random states and terms; and
// that SSIM-like sums are replayed almost entirely from records.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>

#include "core/binade_step.h"
#include "core/raster_sum.h"
#include "metrics/ssim/raster_sum.h"
#include "raster_sum_sequences.h"

namespace exactvq {
namespace {

using testing::TermKind;

bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

void expect_sequential_bits(const std::vector<double>& t, ThreadPool* pool,
                            const std::string& what) {
  const double want = ssim::add_in_raster_order(0.0, t.data(), t.size());
  const double got = chunked_raster_sum(t.data(), t.size(), pool);
  EXPECT_TRUE(same_bits(got, want))
      << what << ": " << got << " (0x" << std::hex << exactvq_f64_bits(got)
      << ") against the sequential " << want << " (0x" << exactvq_f64_bits(want) << ")";
}

TEST(RasterSum, EqualsTheSequentialSumOnEveryKindAndLength) {
  const size_t lengths[] = {0, 1, 2, 255, 256, 257, 2047, 2048, 2049, 4096 + 300, 100003};
  ThreadPool two(2);
  for (int k = 0; k < int(TermKind::kCount); ++k)
    for (size_t n : lengths)
      for (uint64_t seed = 1; seed <= 3; ++seed) {
        const auto t = testing::term_sequence(TermKind(k), n, seed * 7919 + uint64_t(k));
        const std::string what = std::string(testing::term_kind_name(TermKind(k))) +
                                 " n=" + std::to_string(n) + " seed=" + std::to_string(seed);
        expect_sequential_bits(t, nullptr, what);
        if (n > 4096) expect_sequential_bits(t, &two, what + " (2 threads)");
      }
}

TEST(RasterSum, MillionsOfTerms) {
  ThreadPool two(2);
  for (TermKind k :
       {TermKind::kSsimLike, TermKind::kSymmetric, TermKind::kAllTenths, TermKind::kHalfUlpTies,
        TermKind::kBigTies, TermKind::kCancelToZero, TermKind::kSubnormal}) {
    const auto t = testing::term_sequence(k, (size_t{1} << 20) + 12345, 42);
    expect_sequential_bits(t, &two, std::string(testing::term_kind_name(k)) + " n=2^20+12345");
  }
}

// SSIM-like sums cross ~20 binades: about one chunk a crossing is added in order, the
// rest replayed from records (mostly whole blocks).
TEST(RasterSum, SsimLikeSumsReplayFromRecords) {
  const auto t = testing::term_sequence(TermKind::kSsimLike, size_t{1} << 21, 5);
  ReplayCounts counts;
  const double got = chunked_raster_sum(t.data(), t.size(), nullptr, &counts);
  EXPECT_TRUE(same_bits(got, ssim::add_in_raster_order(0.0, t.data(), t.size())));
  const int64_t chunks = int64_t(t.size()) / EXACTVQ_RASTER_CHUNK;
  EXPECT_LE(counts.chunks_in_order, 3 * 22)
      << "blocks " << counts.blocks << " chunks " << counts.chunks;
  EXPECT_GE(counts.blocks * EXACTVQ_RASTER_BLOCK_CHUNKS, chunks * 8 / 10);
}

// Lemma 1 of the spec, one addition at a time: for random states inside a grid and terms
// around it (halfway cases included), an accepted one-term record gives RN(s + t).
TEST(RasterSum, OneAdditionIsTheIntegerStep) {
  std::mt19937_64 rng(11);
  int64_t accepted = 0, halfway = 0;
  for (int i = 0; i < 400000; ++i) {
    const int e = int(rng() % 2046) - 1022;  // -1022 .. 1023
    const int64_t low = e == EXACTVQ_LOW_EXPONENT ? 0 : int64_t{1} << 52;
    int64_t m = low + int64_t(rng() % uint64_t((int64_t{1} << 53) - low));
    if (rng() % 8 == 0)
      m = (rng() % 2) ? (int64_t{1} << 53) - 1 - int64_t(rng() % 4) : low + int64_t(rng() % 4);
    if (rng() % 2) m = -m;
    const double s = exactvq_f64_of_bits(exactvq_bits_of_state(e, m));
    // t = (j / 2 + tiny) ulps, j small, or a random double at a nearby exponent
    double t;
    const double ulp = std::ldexp(1.0, e - 52);
    switch (rng() % 3) {
      case 0:
        t = std::ldexp(double(int64_t(rng() % 64) - 32), e - 53);
        break;
      case 1:
        t = std::ldexp(double(int64_t(rng() % (int64_t{1} << 40)) - (int64_t{1} << 39)),
                       e - 53 - 30);
        break;
      default:
        t = std::ldexp(0.5 + double(rng() % 1000) / 1000.0, e - 52 + int(rng() % 110) - 55) *
            ((rng() % 2) ? 1 : -1);
    }
    if (!std::isfinite(t)) continue;
    const exactvq_run_record r = exactvq_run_of_term(exactvq_f64_bits(t), e);
    if (!exactvq_run_accepts(r, e, m)) continue;
    ++accepted;
    if (std::fabs(std::remainder(t, ulp)) == ulp / 2) ++halfway;
    double replayed = s;
    ASSERT_TRUE(replay_record(replayed, r));
    const double want = s + t;
    ASSERT_TRUE(same_bits(replayed, want)) << "e=" << e << " m=" << m << " t=" << t;
  }
  EXPECT_GT(accepted, 200000);
  EXPECT_GT(halfway, 10000);
}

// exactvq_run_push_term (the device loops' fold) is exactvq_run_then with a one-term record:
// every field equal, on every sequence kind and at exponents around the running sums.
TEST(RasterSum, PushTermIsComposition) {
  int64_t passable = 0;
  for (int k = 0; k < int(TermKind::kCount); ++k) {
    const std::vector<double> t = testing::term_sequence(TermKind(k), 3000, 40 + uint64_t(k));
    for (int e : {EXACTVQ_LOW_EXPONENT, -60, -1, 0, 3, 11, 30, 1000, 1023}) {
      exactvq_run_record pushed = exactvq_run_identity(e), composed = pushed;
      for (size_t i = 0; i < t.size(); ++i) {
        pushed = exactvq_run_push_term(pushed, exactvq_f64_bits(t[i]));
        composed = exactvq_run_then(composed, exactvq_run_of_term(exactvq_f64_bits(t[i]), e));
        ASSERT_EQ(std::memcmp(&pushed, &composed, sizeof pushed), 0)
            << "kind " << k << " e " << e << " term " << i;
        if (i % 256 == 255) {  // restart, so that runs stay passable
          passable += pushed.flags & 1u;
          pushed = composed = exactvq_run_identity(e);
        }
      }
    }
  }
  EXPECT_GT(passable, 100);
}

TEST(RasterSum, StatesRoundTrip) {
  std::mt19937_64 rng(3);
  for (int i = 0; i < 100000; ++i) {
    const uint64_t bits = rng();
    int32_t e;
    int64_t m;
    const bool has = exactvq_state_of(bits, &e, &m) != 0;
    const double v = exactvq_f64_of_bits(bits);
    EXPECT_EQ(has, std::isfinite(v) && bits != (uint64_t{1} << 63));
    if (has) {
      EXPECT_EQ(exactvq_bits_of_state(e, m), bits);
      EXPECT_EQ(std::ldexp(double(m), e - 52), v);
    }
  }
}

}  // namespace
}  // namespace exactvq
