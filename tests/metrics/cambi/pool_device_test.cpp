// cambi's pooling on a device (metrics/cambi/pool_device.h, device_plan.h's
// pooled_from_partial) run on the host in the kernels' arrangement (a record
// a work-item's run of 32 values, merged over blocks of 32 x 8 as CUDA's
// halving tree and 16 x 16, 16 x 4 and 16 x 1 as OpenCL's pairwise one, then
// the blocks' records merged on the host) against the reference's pool_topk
// on seeded value arrays: where the records give a value it is the
// reference's, byte for byte, and they give one exactly where the proof
// (docs/spec/cambi.md, "On CUDA and OpenCL") allows, as counted here
// independently (the positives, the smallest, the exact sum in 128 bits).
// Also the bound the records rely on: every contrast term the definition can
// form is 0 or in [1/2, 9506.25], inside the records' [2^-13, 2^15).
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "metrics/cambi/definition.h"
#include "metrics/cambi/device_plan.h"
#include "metrics/cambi/pool_device.h"
#include "metrics/cambi/reciprocal_table.h"
#include "metrics/cambi/reference.h"

namespace exactvq::cambi {
namespace {

__extension__ typedef unsigned __int128 u128;

// A kernel's shape: runs of `run` values of a row a work-item, blocks of
// bx runs by by rows, merged by CUDA's halving tree or OpenCL's pairwise one.
struct Shape {
  int run, bx, by;
  bool halving;
};
const Shape kShapes[] = {{32, 32, 8, true},
                         {32, 16, 16, false},
                         {32, 16, 4, false},
                         {32, 16, 1, false},
                         {1, 16, 2, false}};

// The w x h values' records, a block's at a time as the kernels form them.
std::vector<uint64_t> records_of(const std::vector<float>& values, int w, int h, Shape s) {
  const int runs = (w + s.run - 1) / s.run;
  const int across = (runs + s.bx - 1) / s.bx, down = (h + s.by - 1) / s.by;
  std::vector<uint64_t> words(size_t(across) * size_t(down) * EXACTVQ_CAMBI_POOL_WORDS);
  std::vector<CambiPoolPartial> part(size_t(s.bx) * size_t(s.by));
  const int items = s.bx * s.by;
  for (int gy = 0; gy < down; ++gy)
    for (int gx = 0; gx < across; ++gx) {
      for (int ty = 0; ty < s.by; ++ty)
        for (int tx = 0; tx < s.bx; ++tx) {
          const int i = gx * s.bx + tx, y = gy * s.by + ty;
          CambiPoolPartial mine = cambi_pool_empty();
          if (i * s.run < w && y < h)
            mine = cambi_pool_add_run(mine, values.data() + size_t(y) * size_t(w), i * s.run, s.run,
                                      w);
          part[size_t(ty * s.bx + tx)] = mine;
        }
      if (s.halving) {
        for (int half = items / 2; half > 0; half >>= 1)
          for (int me = 0; me < half; ++me)
            part[size_t(me)] = cambi_pool_merge(part[size_t(me)], part[size_t(me + half)]);
      } else {
        for (int half = 1; half < items; half <<= 1)
          for (int me = 0; me < items; ++me)
            if ((me & (2 * half - 1)) == 0 && me + half < items)
              part[size_t(me)] = cambi_pool_merge(part[size_t(me)], part[size_t(me + half)]);
      }
      cambi_pool_store(
          words.data() + (size_t(gy) * size_t(across) + size_t(gx)) * EXACTVQ_CAMBI_POOL_WORDS,
          part[0]);
    }
  return words;
}

// What the proof allows, counted independently: no value but +0 and
// positives in [2^-13, 2^15), at most k positive, their exact sum below 2^53
// times the smallest one's unit in the last place.
bool provable(const std::vector<float>& values, double topk) {
  const int n = int(values.size());
  const int k = std::clamp(int(topk * n), 1, n);
  int64_t positives = 0;
  float smallest = INFINITY;
  u128 sum = 0;  // units of 2^-36
  for (const float v : values) {
    if (std::bit_cast<uint32_t>(v) == 0) continue;
    if (!(v >= std::ldexp(1.0f, -13) && v < std::ldexp(1.0f, 15))) return false;
    ++positives;
    smallest = std::min(smallest, v);
    sum += u128(uint64_t(std::ldexp(double(v), 36)));  // exact: below 2^51
  }
  if (positives > k) return false;
  if (positives == 0) return true;
  int e = 0;
  std::frexp(smallest, &e);  // smallest = f 2^e, f in [1/2, 1): unit 2^(e - 24)
  return sum < (u128(1) << (53 + (e - 24) + 36));
}

// Checks one array (laid out w x h) under `topk`; counts the values the
// records gave.
void check(const std::vector<float>& values, int w, int h, double topk, const std::string& what,
           int& given, int& read_back) {
  ASSERT_EQ(values.size(), size_t(w) * size_t(h)) << what;
  std::vector<float> copy = values;
  const double want = pool_topk(copy, topk);
  const bool allowed = provable(values, topk);
  for (const Shape& s : kShapes) {
    const std::vector<uint64_t> words = records_of(values, w, h, s);
    const CambiPoolPartial all =
        merge_records(words.data(), words.size() / EXACTVQ_CAMBI_POOL_WORDS);
    const std::optional<double> got = pooled_from_partial(all, values.size(), topk);
    EXPECT_EQ(got.has_value(), allowed) << what << ", blocks " << s.bx << "x" << s.by;
    if (got) {
      EXPECT_EQ(std::bit_cast<uint64_t>(*got), std::bit_cast<uint64_t>(want))
          << what << ": " << *got << " vs " << want;
      ++given;
    } else {
      ++read_back;
    }
  }
}

// topk giving k = int(topk n) for n values.
double topk_for(int k, int n) { return (k + 0.5) / n; }

// A contrast term the definition could form (weights, counts of a 65 x 65 window).
float random_term(std::mt19937_64& rng) {
  const int i = 2 + int(rng() % 4224);
  const int p0 = 1 + int(rng() % uint64_t(i - 1));
  return cambi_contrast_term(kContrastWeight[rng() % kMaxDiffs], p0, i - p0, kReciprocal[i]);
}

TEST(CambiPoolDevice, EveryContrastTermIsZeroOrWithinTheRecordsRange) {
  // p0 (the centre's code, counting the centre) and p (a neighbouring code)
  // count disjoint samples of a window of at most 65 x 65: p0 + p <= 4225.
  float least = INFINITY, most = 0;
  for (int w = 1; w <= kContrastWeight[kMaxDiffs - 1]; ++w) {
    if (std::find(kContrastWeight, kContrastWeight + kMaxDiffs, w) == kContrastWeight + kMaxDiffs)
      continue;
    for (int i = 2; i < kReciprocalEntries; ++i)
      for (int p0 = 1; p0 < i; ++p0) {
        const float v = cambi_contrast_term(w, p0, i - p0, kReciprocal[i]);
        least = std::min(least, v);
        most = std::max(most, v);
      }
  }
  std::printf("cambi contrast terms: from %a to %a\n", double(least), double(most));
  EXPECT_GE(least, std::ldexp(1.0f, -13));  // what the records need
  EXPECT_LT(most, std::ldexp(1.0f, 15));
  EXPECT_EQ(least, 0.5f);  // what the spec states (docs/spec/cambi.md)
  EXPECT_EQ(most, 9506.25f);
}

TEST(CambiPoolDevice, RandomValuesPoolAsTheReference) {
  std::mt19937_64 rng(0xca3b1'9001u);
  int given = 0, read_back = 0;
  for (int t = 0; t < 150; ++t) {
    const int w = 1 + int(rng() % 700), h = 1 + int(rng() % 40);
    const int n = w * h;
    const double density = std::array{0.0, 0.001, 0.05, 0.3, 0.9, 1.0}[rng() % 6];
    std::vector<float> values(size_t(n), 0.0f);
    int positives = 0;
    for (float& v : values)
      if (std::uniform_real_distribution<double>(0, 1)(rng) < density) {
        v = random_term(rng);
        ++positives;
      }
    const std::string what = fmt::format("{}x{}, {} positive", w, h, positives);
    for (const double topk : {0.6, 1.0, 0.01, 0.1})
      check(values, w, h, topk, fmt::format("{}, topk {}", what, topk), given, read_back);
    // k = P and k = P - 1.
    if (positives >= 1)
      check(values, w, h, topk_for(positives, n), what + ", k = P", given, read_back);
    if (positives >= 2)
      check(values, w, h, topk_for(positives - 1, n), what + ", k = P - 1", given, read_back);
  }
  std::printf("cambi device pooling, random values: %d pooled from records, %d read back\n", given,
              read_back);
  EXPECT_GT(given, 0);
  EXPECT_GT(read_back, 0);
}

TEST(CambiPoolDevice, EdgeArraysPoolAsTheReference) {
  int given = 0, read_back = 0;
  const auto at = [](int w, int h, std::initializer_list<std::pair<int, float>> set) {
    std::vector<float> v(size_t(w) * size_t(h), 0.0f);
    for (const auto& [i, x] : set) v[size_t(i)] = x;
    return v;
  };
  const float least = kReciprocal[kReciprocalEntries - 1];  // 1 / 4225, rounded
  const float top = std::nextafter(std::ldexp(1.0f, 15), 0.0f);
  for (const double topk : {0.6, 1.0, 1e-9}) {
    check(at(37, 5, {}), 37, 5, topk, "all zero", given, read_back);
    check(at(1, 1, {}), 1, 1, topk, "one zero", given, read_back);
    check(at(1, 1, {{0, 0.5f}}), 1, 1, topk, "one value", given, read_back);
    check(at(100, 3, {{299, least}}), 100, 3, topk, "one 1/4225", given, read_back);
    check(at(100, 3, {{17, top}}), 100, 3, topk, "one below 2^15", given, read_back);
    check(at(100, 3, {{0, least}, {1, top}, {2, 3.0f}}), 100, 3, topk, "both ends", given,
          read_back);
  }
  // Values the records cannot take: the host pools them (none comes from the definition).
  for (const float odd : {-1.0f, -0.0f, NAN, INFINITY, std::ldexp(1.0f, 15), std::ldexp(1.0f, -14),
                          std::ldexp(1.0f, -140)}) {
    const std::vector<float> v = at(50, 2, {{3, 2.0f}, {60, odd}});
    const std::vector<uint64_t> words = records_of(v, 50, 2, kShapes[0]);
    const CambiPoolPartial all =
        merge_records(words.data(), words.size() / EXACTVQ_CAMBI_POOL_WORDS);
    EXPECT_TRUE(all.odd) << odd;
    EXPECT_FALSE(pooled_from_partial(all, v.size(), 0.6)) << odd;
  }
  std::printf("cambi device pooling, edge arrays: %d pooled from records, %d read back\n", given,
              read_back);
}

// Positive values (binary32 multiples of q, each at least 2^23 q) summing to
// exactly `units` q, each below `below` q.
std::vector<float> summing_to(u128 units, int q_exponent, u128 below) {
  std::vector<float> out;
  const u128 least = u128(1) << 23;
  while (units > 0) {
    u128 piece = units;
    if (units >= 2 * least) {
      // The largest binary32 multiple at most units - least (the rest stays a value).
      const u128 room = std::min(units - least, below - 1);
      int bits = 0;
      for (u128 r = room; r > 0; r >>= 1) ++bits;
      const int drop = bits > 24 ? bits - 24 : 0;
      piece = room >> drop << drop;
    }
    // At most 24 significant bits, below 2^51: exact in binary64 and binary32.
    out.push_back(float(std::ldexp(double(uint64_t(piece)), q_exponent)));
    EXPECT_EQ(u128(uint64_t(std::ldexp(double(out.back()), -q_exponent))), piece);
    units -= piece;
  }
  return out;
}

TEST(CambiPoolDevice, SumsAtTheExactBoundPoolAsTheReference) {
  std::mt19937_64 rng(0xca3b1'53u);
  int given = 0, read_back = 0;
  // q = 2^-36 (the smallest value 2^-13: the bound 2^17, below 2^64 units of
  // 2^-36), 2^-30 (smallest 2^-7) and 2^-23 (smallest 1: the bound 2^30, above).
  for (const int q_exponent : {-36, -30, -23}) {
    const u128 bound = u128(1) << 53;                 // in units of q
    const u128 below = u128(1) << (15 - q_exponent);  // values below 2^15
    for (const int delta : {-2, -1, 0, 1}) {
      // The smallest value 2^23 q exactly, then values summing to the rest.
      std::vector<float> values =
          summing_to(bound + u128(int64_t(delta)) - (u128(1) << 23), q_exponent, below);
      values.push_back(std::ldexp(1.0f, q_exponent + 23));
      const int positives = int(values.size());
      const int w = 64, h = (positives * 3 + w - 1) / w;
      values.resize(size_t(w) * size_t(h), 0.0f);
      std::shuffle(values.begin(), values.end(), rng);
      const std::string what =
          fmt::format("q 2^{}, sum 2^53 q {:+d} q, {} positive", q_exponent, delta, positives);
      for (const double topk : {1.0, 0.6, topk_for(positives, w * h)}) {
        const int before = given;
        check(values, w, h, topk, fmt::format("{}, topk {}", what, topk), given, read_back);
        EXPECT_EQ(given > before, delta < 0) << what;  // below the bound only
      }
    }
  }
  std::printf("cambi device pooling at the bound: %d pooled from records, %d read back\n", given,
              read_back);
}

}  // namespace
}  // namespace exactvq::cambi
