// Each SIMD stage against the scalar definition, bit for bit, in the style of
// dav1d's checkasm: seeded random inputs (the seed is in every failure message,
// so a failure replays) and extremes (0, 2^b - 1, alternating), bit depths 8,
// 10, 12 and 16, widths 1..70 (edges and tails) plus 1920 and 3840, once per
// SIMD target the machine supports.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "metrics/ssim/cpu/ssim_kernels.h"
#include "cpu/target_param.h"
#include "metrics/ssim/taps.h"
#include "metrics/ssim/term.h"

namespace exactvq::cpu {
namespace {

using ssim::kRadius;
using ssim::kTap;
using ssim::kTaps;

constexpr uint64_t kSeed = 0x5eed'0003;
constexpr int kBitDepths[] = {8, 10, 12, 16};

std::vector<int> test_widths() {
  std::vector<int> w;
  for (int i = 1; i <= 70; ++i) w.push_back(i);
  w.push_back(1920);
  w.push_back(3840);
  return w;
}

enum class Fill { kRandom, kZero, kMax, kAlternating, kMaxAgainstZero };
constexpr Fill kFills[] = {Fill::kRandom, Fill::kZero, Fill::kMax, Fill::kAlternating,
                           Fill::kMaxAgainstZero};

// Samples of one row pair; `which` 0 is the reference, 1 the distorted.
uint32_t sample(Fill fill, int which, int x, uint32_t max, std::mt19937_64& rng) {
  switch (fill) {
    case Fill::kRandom: return uint32_t(rng() % (uint64_t{max} + 1));
    case Fill::kZero: return 0;
    case Fill::kMax: return max;
    case Fill::kAlternating: return ((x + which) & 1) ? max : 0;
    case Fill::kMaxAgainstZero: return which ? 0 : max;
  }
  return 0;
}

// spec/ssim.md step 1 at column x, written out with 64-bit sums.
std::array<uint64_t, 5> definition_horizontal(const std::vector<uint32_t>& s,
                                              const std::vector<uint32_t>& d, int x) {
  std::array<uint64_t, 5> h{};
  const int width = int(s.size());
  for (int k = 0; k < kTaps; ++k) {
    const int c = x - kRadius + k;
    if (c < 0 || c >= width) continue;
    const uint64_t g = kTap[size_t(k)], a = s[size_t(c)], b = d[size_t(c)];
    h[0] += g * a;
    h[1] += g * b;
    h[2] += g * a * a;
    h[3] += g * a * b;
    h[4] += g * b * b;
  }
  return h;
}

template <typename Sample, typename Wide>
void check_horizontal(int bits, int width, Fill fill, std::mt19937_64& rng, int x0, int x1) {
  const uint32_t max = (1u << bits) - 1;
  std::vector<uint32_t> s(static_cast<size_t>(width)), d(static_cast<size_t>(width));
  std::vector<Sample> rs(static_cast<size_t>(width)), ds(static_cast<size_t>(width));
  for (int x = 0; x < width; ++x) {
    s[size_t(x)] = sample(fill, 0, x, max, rng);
    d[size_t(x)] = sample(fill, 1, x, max, rng);
    rs[size_t(x)] = Sample(s[size_t(x)]);
    ds[size_t(x)] = Sample(d[size_t(x)]);
  }
  const size_t n = size_t(x1 - x0);
  // One guard value past each output: a stray write shows up as a changed guard.
  constexpr uint32_t kGuard = 0xdeadbeef;
  std::vector<uint32_t> m(n + 1, kGuard), nn(n + 1, kGuard);
  std::vector<Wide> xx(n + 1, kGuard), xy(n + 1, kGuard), yy(n + 1, kGuard);
  std::vector<uint32_t> scratch(horizontal_scratch_size(x0, x1));
  horizontal_moments(rs.data(), ds.data(), width, x0, x1, scratch.data(),
                     MomentRow<Wide>{m.data(), nn.data(), xx.data(), xy.data(), yy.data()});
  for (int x = x0; x < x1; ++x) {
    const auto want = definition_horizontal(s, d, x);
    const size_t i = size_t(x - x0);
    const std::array<uint64_t, 5> got{m[i], nn[i], xx[i], xy[i], yy[i]};
    ASSERT_EQ(got, want) << "column " << x << " of " << width << ", bits " << bits;
  }
  ASSERT_EQ(m[n], kGuard);
  ASSERT_EQ(nn[n], kGuard);
  ASSERT_EQ(xx[n], Wide{kGuard});
  ASSERT_EQ(yy[n], Wide{kGuard});
}

using HorizontalTwin = test::PerTarget;

TEST_P(HorizontalTwin, MatchesDefinition) {
  std::mt19937_64 rng(kSeed);
  SCOPED_TRACE(testing::Message() << "seed " << kSeed << ", target " << GetParam().name);
  int checks = 0;
  for (int bits : kBitDepths)
    for (int width : test_widths())
      for (Fill fill : kFills) {
        SCOPED_TRACE(testing::Message() << "width " << width << " fill " << int(fill));
        // The whole row, and a random sub-range of output columns (a tile).
        const int x0 = int(rng() % uint64_t(width)), x1 = x0 + 1 + int(rng() % uint64_t(width - x0));
        for (auto [a, b] : {std::pair{0, width}, std::pair{x0, x1}}) {
          if (bits == 8) check_horizontal<uint8_t, uint32_t>(bits, width, fill, rng, a, b);
          if (bits > 8 && bits <= 12)
            check_horizontal<uint16_t, uint32_t>(bits, width, fill, rng, a, b);
          if (bits > 8) check_horizontal<uint16_t, uint64_t>(bits, width, fill, rng, a, b);
          if (HasFatalFailure()) return;
          ++checks;
        }
      }
  std::printf("[ %s ] horizontal: %d row comparisons\n", GetParam().name.c_str(), checks);
}

// 8-bit rows through the pairwise multiply-add path (16-bit lanes, products
// biased by -2^15): every output range [x0, x1) of short rows (each split of
// edge columns, interior vectors and the overlapping tail), every fill, and
// wide rows whose ends are the largest products against the smallest.
TEST_P(HorizontalTwin, EightBitPairsEveryRange) {
  std::mt19937_64 rng(kSeed + 8);
  SCOPED_TRACE(testing::Message() << "seed " << kSeed + 8 << ", target " << GetParam().name);
  int checks = 0;
  for (int width = 1; width <= 40; ++width)
    for (Fill fill : kFills)
      for (int x0 = 0; x0 < width; ++x0)
        for (int x1 = x0 + 1; x1 <= width; ++x1) {
          SCOPED_TRACE(testing::Message() << "width " << width << " fill " << int(fill) << " ["
                                          << x0 << ", " << x1 << ")");
          check_horizontal<uint8_t, uint32_t>(8, width, fill, rng, x0, x1);
          if (HasFatalFailure()) return;
          ++checks;
        }
  for (int width : {1920, 3840, 1921, 3847})
    for (Fill fill : kFills) {
      check_horizontal<uint8_t, uint32_t>(8, width, fill, rng, 0, width);
      check_horizontal<uint8_t, uint32_t>(8, width, fill, rng, 3, width - 5);
      if (HasFatalFailure()) return;
      checks += 2;
    }
  std::printf("[ %s ] horizontal 8-bit pairs: %d row comparisons\n", GetParam().name.c_str(),
              checks);
}

// The vertical pass: nine rows, some absent (truncated windows), values as
// large as the bound of the output lane allows.
template <typename In, typename Out>
void check_vertical(size_t n, uint64_t max_value, unsigned present, std::mt19937_64& rng,
                    bool extremes) {
  std::vector<std::vector<In>> storage(kTaps, std::vector<In>(n));
  const In* rows[kTaps];
  for (int k = 0; k < kTaps; ++k) {
    for (size_t i = 0; i < n; ++i)
      storage[size_t(k)][i] =
          In(extremes ? ((i + size_t(k)) & 1 ? max_value : 0) : rng() % (max_value + 1));
    rows[k] = (present >> k) & 1 ? storage[size_t(k)].data() : nullptr;
  }
  std::vector<Out> out(n + 1, Out{0x5a5a5a5a});
  vertical_moments(rows, out.data(), n);
  for (size_t i = 0; i < n; ++i) {
    uint64_t want = 0;
    for (int k = 0; k < kTaps; ++k)
      if (rows[k]) want += uint64_t{kTap[size_t(k)]} * rows[k][i];
    ASSERT_EQ(uint64_t{out[i]}, want) << "index " << i << " of " << n << ", rows " << present;
  }
  ASSERT_EQ(out[n], Out{0x5a5a5a5a}) << "write past the end, n " << n;
}

using VerticalTwin = test::PerTarget;

TEST_P(VerticalTwin, MatchesDefinition) {
  std::mt19937_64 rng(kSeed + 1);
  SCOPED_TRACE(testing::Message() << "seed " << kSeed + 1 << ", target " << GetParam().name);
  // Present rows: all nine, the windows cut at the top (rows k >= j) or the
  // bottom (rows k < j), both (tiny planes), and a few arbitrary sets.
  std::vector<unsigned> sets = {0x1ff};
  for (int j = 1; j < kTaps; ++j) {
    sets.push_back(0x1ffu & ~((1u << j) - 1));
    sets.push_back((1u << j) - 1);
  }
  sets.push_back(0x038);
  sets.push_back(0x010);
  int checks = 0;
  for (int width : test_widths())
    for (unsigned present : sets)
      for (bool extremes : {false, true}) {
        const size_t n = size_t(width);
        // Largest inputs whose filtered sum fits the output: < 2^32 / 256 for
        // uint32 outputs; horizontal moments at 12 and 16 bits for uint64.
        check_vertical<uint32_t, uint32_t>(n, (uint64_t{1} << 24) - 1, present, rng, extremes);
        check_vertical<uint32_t, uint64_t>(n, 0xffffffffu, present, rng, extremes);
        check_vertical<uint64_t, uint64_t>(n, (uint64_t{1} << 40) - 1, present, rng, extremes);
        if (HasFatalFailure()) return;
        checks += 3;
      }
  std::printf("[ %s ] vertical: %d row comparisons\n", GetParam().name.c_str(), checks);
}

// The two-row vertical pass: ten rows, values up to the output lane's bound.
template <typename In, typename Out>
void check_vertical_pair(size_t n, uint64_t max_value, std::mt19937_64& rng, bool extremes) {
  std::vector<std::vector<In>> storage(kTaps + 1, std::vector<In>(n));
  const In* rows[kTaps + 1];
  for (int k = 0; k <= kTaps; ++k) {
    for (size_t i = 0; i < n; ++i)
      storage[size_t(k)][i] =
          In(extremes ? ((i + size_t(k)) & 1 ? max_value : 0) : rng() % (max_value + 1));
    rows[k] = storage[size_t(k)].data();
  }
  std::vector<Out> out0(n + 1, Out{0x5a5a5a5a}), out1(n + 1, Out{0x5a5a5a5a});
  vertical_moments_pair(rows, out0.data(), out1.data(), n);
  for (size_t i = 0; i < n; ++i) {
    uint64_t want0 = 0, want1 = 0;
    for (int k = 0; k < kTaps; ++k) {
      want0 += uint64_t{kTap[size_t(k)]} * rows[k][i];
      want1 += uint64_t{kTap[size_t(k)]} * rows[k + 1][i];
    }
    ASSERT_EQ(uint64_t{out0[i]}, want0) << "first row, index " << i << " of " << n;
    ASSERT_EQ(uint64_t{out1[i]}, want1) << "second row, index " << i << " of " << n;
  }
  ASSERT_EQ(out0[n], Out{0x5a5a5a5a}) << "write past the end, n " << n;
  ASSERT_EQ(out1[n], Out{0x5a5a5a5a}) << "write past the end, n " << n;
}

TEST_P(VerticalTwin, PairMatchesDefinition) {
  std::mt19937_64 rng(kSeed + 7);
  SCOPED_TRACE(testing::Message() << "seed " << kSeed + 7 << ", target " << GetParam().name);
  int checks = 0;
  for (int width : test_widths())
    for (bool extremes : {false, true}) {
      const size_t n = size_t(width);
      check_vertical_pair<uint32_t, uint32_t>(n, (uint64_t{1} << 24) - 1, rng, extremes);
      check_vertical_pair<uint32_t, uint64_t>(n, 0xffffffffu, rng, extremes);
      check_vertical_pair<uint64_t, uint64_t>(n, (uint64_t{1} << 40) - 1, rng, extremes);
      if (HasFatalFailure()) return;
      checks += 3;
    }
  std::printf("[ %s ] vertical pairs: %d row-pair comparisons\n", GetParam().name.c_str(), checks);
}

// Window moments of real windows (spec steps 1 and 2 by brute force over a
// random patch), so the term sees the values it meets in practice.
struct WindowSet {
  std::vector<uint32_t> mux, muy, column_weight;
  std::vector<uint64_t> x2, xy, y2;
  uint32_t row_weight = 0;
};

WindowSet random_windows(int bits, size_t n, Fill fill, std::mt19937_64& rng) {
  const uint32_t max = (1u << bits) - 1;
  // A patch of 9 rows by n + 8 columns; a random row weight cut (as at a top or
  // bottom edge) and column weights cut near the patch's ends.
  const int rows = int(1 + rng() % kTaps), first_row = int(rng() % 2 ? 0 : kTaps - rows);
  const int width = int(n);
  std::vector<std::vector<uint32_t>> s(kTaps, std::vector<uint32_t>(n)), d = s;
  for (int r = 0; r < kTaps; ++r)
    for (int x = 0; x < width; ++x) {
      s[size_t(r)][size_t(x)] = sample(fill, 0, x + r, max, rng);
      d[size_t(r)][size_t(x)] = sample(fill, 1, x + r, max, rng);
    }
  WindowSet w;
  w.mux.resize(n), w.muy.resize(n), w.column_weight.resize(n);
  w.x2.resize(n), w.xy.resize(n), w.y2.resize(n);
  w.row_weight = 0;
  for (int k = first_row; k < first_row + rows; ++k) w.row_weight += kTap[size_t(k)];
  for (int x = 0; x < width; ++x) {
    uint64_t acc[5] = {};
    for (int k = first_row; k < first_row + rows; ++k) {
      const auto h = definition_horizontal(s[size_t(k)], d[size_t(k)], x);
      for (int q = 0; q < 5; ++q) acc[q] += uint64_t{kTap[size_t(k)]} * h[size_t(q)];
    }
    w.mux[size_t(x)] = uint32_t(acc[0]);
    w.muy[size_t(x)] = uint32_t(acc[1]);
    w.x2[size_t(x)] = acc[2];
    w.xy[size_t(x)] = acc[3];
    w.y2[size_t(x)] = acc[4];
    w.column_weight[size_t(x)] = ssim::kept_weight(x, width);
  }
  return w;
}

void expect_same_bits(const std::vector<double>& got, const std::vector<double>& want,
                      const char* what) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i)
    ASSERT_EQ(std::memcmp(&got[i], &want[i], sizeof(double)), 0)
        << what << " index " << i << ": " << got[i] << " vs " << want[i];
}

using TermTwin = test::PerTarget;

TEST_P(TermTwin, MatchesScalarTerm) {
  std::mt19937_64 rng(kSeed + 2);
  SCOPED_TRACE(testing::Message() << "seed " << kSeed + 2 << ", target " << GetParam().name);
  int checks = 0;
  for (int bits : kBitDepths)
    for (int width : test_widths())
      for (Fill fill : kFills) {
        SCOPED_TRACE(testing::Message() << "bits " << bits << " width " << width << " fill "
                                        << int(fill));
        const size_t n = size_t(width);
        const WindowSet w = random_windows(bits, n, fill, rng);
        const ssim::TermConstants k = ssim::term_constants(bits);
        std::vector<double> want(n);
        for (size_t i = 0; i < n; ++i)
          want[i] = ssim::ssim_term({w.mux[i], w.muy[i], w.x2[i], w.xy[i], w.y2[i],
                                     uint64_t{w.column_weight[i]} * w.row_weight},
                                    k);
        std::vector<double> got(n + 1, -7.0);
        ssim_terms(WindowRow<uint64_t>{w.mux.data(), w.muy.data(), w.x2.data(), w.xy.data(),
                                       w.y2.data()},
                   w.column_weight.data(), w.row_weight, n, k, got.data());
        ASSERT_EQ(got[n], -7.0);
        got.pop_back();
        expect_same_bits(got, want, "64-bit moments");
        if (bits == 8) {  // every window moment fits 32 bits
          std::vector<uint32_t> x2(w.x2.begin(), w.x2.end()), xy(w.xy.begin(), w.xy.end()),
              y2(w.y2.begin(), w.y2.end());
          std::vector<double> got32(n);
          ssim_terms(WindowRow<uint32_t>{w.mux.data(), w.muy.data(), x2.data(), xy.data(),
                                         y2.data()},
                     w.column_weight.data(), w.row_weight, n, k, got32.data());
          expect_same_bits(got32, want, "32-bit moments");
        }
        if (HasFatalFailure()) return;
        ++checks;
      }
  std::printf("[ %s ] term: %d row comparisons\n", GetParam().name.c_str(), checks);
}

// Terms that stress the rounding to 2^-64: ties at every scale, values just
// either side of them, zeros of both signs, the largest and tiniest magnitudes
// (within the kernel's range, |term| < 2^32).
std::vector<double> hard_terms(size_t n, std::mt19937_64& rng) {
  std::vector<double> t(n);
  for (size_t i = 0; i < n; ++i) {
    const double sign = rng() % 2 ? -1.0 : 1.0;
    switch (rng() % 8) {
      case 0: {  // an exact tie: odd multiple of 2^-65
        const double odd = double((rng() % (uint64_t{1} << 52)) | 1);
        t[i] = sign * std::ldexp(odd, -65);
        break;
      }
      case 1: {  // an odd multiple of 2^-(65 + j), near ties of coarser scales
        const double odd = double((rng() % (uint64_t{1} << 52)) | 1);
        t[i] = sign * std::ldexp(odd, -65 - int(rng() % 60));
        break;
      }
      case 2: t[i] = sign * 0.0; break;
      case 3: t[i] = sign * std::ldexp(double(rng() % (uint64_t{1} << 53)), -53 + int(rng() % 18)); break;
      case 4: t[i] = sign * std::ldexp(1.0, -int(rng() % 80)); break;
      case 5: t[i] = sign * 65536.0 * double(rng() % 1000) / 999.0; break;  // a whole window's term
      case 6: t[i] = sign * std::nextafter(std::ldexp(1.0, 17), 0.0); break;
      default: t[i] = sign * std::ldexp(double(rng() >> 11), -21 - int(rng() % 100)); break;  // < 2^32
    }
  }
  return t;
}

using FixedSumTwin = test::PerTarget;

TEST_P(FixedSumTwin, MatchesScalarConversion) {
  std::mt19937_64 rng(kSeed + 3);
  SCOPED_TRACE(testing::Message() << "seed " << kSeed + 3 << ", target " << GetParam().name);
  int checks = 0;
  for (int width : test_widths())
    for (int round = 0; round < 8; ++round) {
      const std::vector<double> terms = hard_terms(size_t(width), rng);
      ssim::int128 want = 0;
      for (double t : terms) want += ssim::to_fixed64(t);
      const ssim::int128 got = fixed_point_sum(terms.data(), terms.size());
      ASSERT_TRUE(got == want) << "width " << width << " round " << round;
      // Each term alone, so one wrong lane cannot hide in a sum.
      for (size_t i = 0; i < terms.size() && width <= 70; ++i) {
        std::vector<double> one(8, 0.0);
        one[i % 8] = terms[i];
        ASSERT_TRUE(fixed_point_sum(one.data(), one.size()) == ssim::to_fixed64(terms[i]))
            << "term " << terms[i] << " at lane " << i % 8;
      }
      ++checks;
    }
  std::printf("[ %s ] fixed-point sum: %d sum comparisons\n", GetParam().name.c_str(), checks);
}

// The fast path of the sum (|term| < 2^19 in every lane of a vector): ties and
// near-ties at every scale, signed zeros, values up to just below 2^19, long
// rows (past the accumulators' flush every 2048 vectors), and vectors that mix
// in one term at or above 2^19 (the general path).
TEST_P(FixedSumTwin, FastPathMatchesScalarConversion) {
  std::mt19937_64 rng(kSeed + 5);
  SCOPED_TRACE(testing::Message() << "seed " << kSeed + 5 << ", target " << GetParam().name);
  auto fast_term = [&]() {
    const double sign = rng() % 2 ? -1.0 : 1.0;
    const double odd = double((rng() % (uint64_t{1} << 52)) | 1);
    switch (rng() % 6) {
      case 0: return sign * std::ldexp(odd, -65 + int(rng() % 20));  // ties of 2^-64 .. 2^-45
      case 1: return sign * std::ldexp(odd, -33 - int(rng() % 40));  // around the 2^-32 split
      case 2: return sign * 0.0;
      case 3: return sign * std::nextafter(std::ldexp(1.0, 19), 0.0);
      case 4: return sign * std::ldexp(odd, -52 + int(rng() % 19));  // up to 2^19
      default: return sign * std::ldexp(double(rng() >> 11), -53 + int(rng() % 19));
    }
  };
  int checks = 0;
  for (size_t n : {size_t{1}, size_t{7}, size_t{8}, size_t{64}, size_t{1000}, size_t{40000},
                   size_t{70001}}) {
    for (int mix : {0, 1}) {
      std::vector<double> terms(n);
      for (double& t : terms) t = fast_term();
      if (mix)
        for (size_t i = 0; i < n; i += 1 + rng() % 37)
          terms[i] = (rng() % 2 ? -1.0 : 1.0) * std::ldexp(1.0 + double(rng() % 1000) / 1000, 19);
      ssim::int128 want = 0;
      for (double t : terms) want += ssim::to_fixed64(t);
      ASSERT_TRUE(fixed_point_sum(terms.data(), n) == want) << "n " << n << " mix " << mix;
      ++checks;
    }
  }
  // One term alone in each lane, the others zero.
  for (int round = 0; round < 4000; ++round) {
    std::vector<double> one(16, 0.0);
    const double t = fast_term();
    one[size_t(round) % 16] = t;
    ASSERT_TRUE(fixed_point_sum(one.data(), one.size()) == ssim::to_fixed64(t))
        << "term " << t << " at lane " << round % 16;
    ++checks;
  }
  std::printf("[ %s ] fixed-point sum, fast path: %d sum comparisons\n", GetParam().name.c_str(),
              checks);
}

// The fused vertical pass + term + sum against the scalar steps: window
// moments by the definition, ssim::ssim_term, ssim::to_fixed64.
template <typename H>
void check_window_terms(int bits, size_t n, unsigned present, bool extremes, std::mt19937_64& rng) {
  const uint64_t max_sample = (uint64_t{1} << bits) - 1;
  // Horizontal moments of plausible rows: first order < 2^(b+8), second < 2^(2b+8),
  // built from one random sample pair per column so that the term sees real windows.
  std::vector<std::vector<uint32_t>> m(kTaps, std::vector<uint32_t>(n)), nn = m;
  std::vector<std::vector<H>> xx(kTaps, std::vector<H>(n)), xy = xx, yy = xx;
  TapRows<H> rows{};
  for (int k = 0; k < kTaps; ++k) {
    for (size_t i = 0; i < n; ++i) {
      const uint64_t s = extremes ? ((i + size_t(k)) & 1 ? max_sample : 0) : rng() % (max_sample + 1);
      const uint64_t d = extremes ? max_sample - s : rng() % (max_sample + 1);
      m[size_t(k)][i] = uint32_t(256 * s);
      nn[size_t(k)][i] = uint32_t(256 * d);
      xx[size_t(k)][i] = H(256 * s * s);
      xy[size_t(k)][i] = H(256 * s * d);
      yy[size_t(k)][i] = H(256 * d * d);
    }
    const bool on = (present >> k) & 1;
    rows.m[k] = on ? m[size_t(k)].data() : nullptr;
    rows.n[k] = on ? nn[size_t(k)].data() : nullptr;
    rows.xx[k] = on ? xx[size_t(k)].data() : nullptr;
    rows.xy[k] = on ? xy[size_t(k)].data() : nullptr;
    rows.yy[k] = on ? yy[size_t(k)].data() : nullptr;
  }
  uint32_t row_weight = 0;
  for (int k = 0; k < kTaps; ++k)
    if ((present >> k) & 1) row_weight += kTap[size_t(k)];
  std::vector<uint32_t> column_weight(n);
  for (size_t i = 0; i < n; ++i) column_weight[i] = ssim::kept_weight(int(i), int(n));
  const ssim::TermConstants k = ssim::term_constants(bits);
  std::vector<double> want(n);
  ssim::int128 want_sum = 0;
  for (size_t i = 0; i < n; ++i) {
    uint64_t q[5] = {};
    for (int t = 0; t < kTaps; ++t) {
      if (!rows.m[t]) continue;
      const uint64_t g = kTap[size_t(t)];
      q[0] += g * rows.m[t][i];
      q[1] += g * rows.n[t][i];
      q[2] += g * rows.xx[t][i];
      q[3] += g * rows.xy[t][i];
      q[4] += g * rows.yy[t][i];
    }
    want[i] = ssim::ssim_term({q[0], q[1], q[2], q[3], q[4], uint64_t{column_weight[i]} * row_weight}, k);
    want_sum += ssim::to_fixed64(want[i]);
  }
  std::vector<double> got(n + 1, -7.0);
  ssim::int128 got_sum;
  if constexpr (sizeof(H) == 8) got_sum = window_terms(rows, column_weight.data(), row_weight, n, k, got.data());
  else if (bits == 8) got_sum = window_terms(rows, column_weight.data(), row_weight, n, k, got.data());
  else got_sum = window_terms_widening(rows, column_weight.data(), row_weight, n, k, got.data());
  ASSERT_EQ(got[n], -7.0) << "write past the end";
  got.pop_back();
  expect_same_bits(got, want, "fused terms");
  ASSERT_TRUE(got_sum == want_sum) << "fused exact sum";
  // Without the terms (exact mode): the same sum.
  ssim::int128 sum_only;
  if constexpr (sizeof(H) == 8) sum_only = window_terms(rows, column_weight.data(), row_weight, n, k, nullptr);
  else if (bits == 8) sum_only = window_terms(rows, column_weight.data(), row_weight, n, k, nullptr);
  else sum_only = window_terms_widening(rows, column_weight.data(), row_weight, n, k, nullptr);
  ASSERT_TRUE(sum_only == want_sum) << "fused exact sum, no terms stored";
  // Raster mode: the terms added one at a time, left to right, onto a running
  // sum that does not start at zero (as from the rows above).
  const double start = want.empty() ? 0.5 : 3.0 * want[0] + 0.1;
  double want_raster = start;
  for (double t : want) want_raster += t;
  for (bool with_terms : {false, true}) {
    double raster = start;
    std::vector<double> again(n);
    double* out = with_terms ? again.data() : nullptr;
    ssim::int128 s;
    if constexpr (sizeof(H) == 8) s = window_terms(rows, column_weight.data(), row_weight, n, k, out, &raster);
    else if (bits == 8) s = window_terms(rows, column_weight.data(), row_weight, n, k, out, &raster);
    else s = window_terms_widening(rows, column_weight.data(), row_weight, n, k, out, &raster);
    ASSERT_TRUE(s == want_sum) << "fused exact sum beside the raster sum";
    ASSERT_EQ(std::memcmp(&raster, &want_raster, sizeof raster), 0)
        << "raster sum " << raster << " vs " << want_raster << (with_terms ? " (terms stored)" : "");
    if (with_terms) expect_same_bits(again, want, "fused terms beside the raster sum");
  }
}

using WindowTermsTwin = test::PerTarget;

TEST_P(WindowTermsTwin, MatchesScalarSteps) {
  std::mt19937_64 rng(kSeed + 4);
  SCOPED_TRACE(testing::Message() << "seed " << kSeed + 4 << ", target " << GetParam().name);
  const unsigned sets[] = {0x1ff, 0x1f0, 0x01f, 0x0f8, 0x010, 0x1fe, 0x0ff};
  int checks = 0;
  for (int bits : kBitDepths)
    for (int width : test_widths())
      for (unsigned present : sets)
        for (bool extremes : {false, true}) {
          SCOPED_TRACE(testing::Message() << "bits " << bits << " width " << width << " rows "
                                          << present << (extremes ? " extremes" : " random"));
          if (bits <= 12) check_window_terms<uint32_t>(bits, size_t(width), present, extremes, rng);
          else check_window_terms<uint64_t>(bits, size_t(width), present, extremes, rng);
          if (HasFatalFailure()) return;
          ++checks;
        }
  std::printf("[ %s ] fused vertical+term+sum: %d row comparisons\n", GetParam().name.c_str(), checks);
}

EXACTVQ_INSTANTIATE_PER_TARGET(HorizontalTwin);
EXACTVQ_INSTANTIATE_PER_TARGET(WindowTermsTwin);
EXACTVQ_INSTANTIATE_PER_TARGET(VerticalTwin);
EXACTVQ_INSTANTIATE_PER_TARGET(TermTwin);
EXACTVQ_INSTANTIATE_PER_TARGET(FixedSumTwin);

}  // namespace
}  // namespace exactvq::cpu
