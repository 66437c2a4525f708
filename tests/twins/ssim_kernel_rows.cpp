// Rows of the CPU engine's SSIM stage kernels (metrics/ssim/cpu/ssim_kernels.h)
// against the definition's steps written out with 64-bit sums: seeded random
// samples and extremes (0, 2^b - 1, alternating), 8 to 16 bits, widths 1..70
// (edges and tails) plus 1920 and 3840; each output followed by a guard value
// that a stray write would change.
#include <algorithm>
#include <array>
#include <cmath>
#include <random>
#include <vector>

#include "cpu_rows.h"
#include "metrics/ssim/cpu/ssim_kernels.h"
#include "metrics/ssim/fixed_point.h"
#include "metrics/ssim/taps.h"
#include "metrics/ssim/term.h"

namespace exactvq::twins {
namespace {

using ssim::kRadius;
using ssim::kTap;
using ssim::kTaps;

constexpr int kBitDepths[] = {8, 10, 12, 16};

std::vector<int> widths() {
  std::vector<int> w;
  for (int i = 1; i <= 70; ++i) w.push_back(i);
  w.push_back(1920);
  w.push_back(3840);
  return w;
}

enum Fill { kRandom, kZero, kMax, kAlternating, kMaxAgainstZero, kFills };
const char* const kFillNames[] = {"random", "zero", "max", "alternating", "max against zero"};

// A sample of one row pair; `which` 0 is the reference, 1 the distorted.
uint32_t sample(int fill, int which, int x, uint32_t max, std::mt19937_64& rng) {
  switch (fill) {
    case kRandom:
      return uint32_t(rng() % (uint64_t{max} + 1));
    case kZero:
      return 0;
    case kMax:
      return max;
    case kAlternating:
      return ((x + which) & 1) ? max : 0;
    default:
      return which ? 0 : max;
  }
}

// Step 1 of the definition at column x.
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

constexpr uint32_t kGuard = 0xdeadbeef;

// ---- horizontal moments: case.a, case.b = the output columns. kSumSquares:
// horizontal_moments_summed_squares, xx + yy in xx and yy left alone.
template <typename Sample, typename Wide, bool kSumSquares = false>
Prepared horizontal(const Case& c) {
  struct In {
    std::vector<uint32_t> s, d;
    std::vector<Sample> rs, ds;
  };
  auto in = std::make_shared<In>();
  std::mt19937_64 rng(c.seed);
  const uint32_t max = (1u << c.bits) - 1;
  for (int x = 0; x < c.width; ++x) {
    in->s.push_back(sample(c.fill, 0, x, max, rng));
    in->d.push_back(sample(c.fill, 1, x, max, rng));
    in->rs.push_back(Sample(in->s.back()));
    in->ds.push_back(Sample(in->d.back()));
  }
  const int x0 = c.a, x1 = c.b;
  const size_t n = size_t(x1 - x0);
  Prepared p;
  p.twin = [in, c, x0, x1, n] {
    std::vector<uint32_t> m(n + 1, kGuard), nn(n + 1, kGuard);
    std::vector<Wide> xx(n + 1, kGuard), xy(n + 1, kGuard), yy(n + 1, kGuard);
    std::vector<uint32_t> scratch(cpu::horizontal_scratch_size(x0, x1));
    const cpu::MomentRow<Wide> rows{m.data(), nn.data(), xx.data(), xy.data(), yy.data()};
    if constexpr (kSumSquares)
      cpu::horizontal_moments_summed_squares(in->rs.data(), in->ds.data(), c.width, x0, x1,
                                             scratch.data(), rows);
    else
      cpu::horizontal_moments(in->rs.data(), in->ds.data(), c.width, x0, x1, scratch.data(), rows);
    Bytes out;
    for (auto* v : {&m, &nn}) put(out, *v);
    for (auto* v : {&xx, &xy, &yy}) put(out, *v);
    return out;
  };
  p.reference = [in, x0, x1, n] {
    std::vector<uint32_t> m(n + 1, kGuard), nn(n + 1, kGuard);
    std::vector<Wide> xx(n + 1, kGuard), xy(n + 1, kGuard), yy(n + 1, kGuard);
    for (int x = x0; x < x1; ++x) {
      const auto h = definition_horizontal(in->s, in->d, x);
      const size_t i = size_t(x - x0);
      m[i] = uint32_t(h[0]);
      nn[i] = uint32_t(h[1]);
      xx[i] = Wide(kSumSquares ? h[2] + h[4] : h[2]);
      xy[i] = Wide(h[3]);
      if (!kSumSquares) yy[i] = Wide(h[4]);
    }
    Bytes out;
    for (auto* v : {&m, &nn}) put(out, *v);
    for (auto* v : {&xx, &xy, &yy}) put(out, *v);
    return out;
  };
  return p;
}

// case.height 0: 32-bit second-order lanes (8 to 12 bits), 1: 64-bit ones,
// 2: xx + yy in 32-bit lanes (9 to 11 bits).
Prepared horizontal_case(const Case& c) {
  if (c.bits == 8) return horizontal<uint8_t, uint32_t>(c);
  if (c.height == 0) return horizontal<uint16_t, uint32_t>(c);
  if (c.height == 2) return horizontal<uint16_t, uint32_t, true>(c);
  return horizontal<uint16_t, uint64_t>(c);
}

std::vector<Case> horizontal_cases() {
  std::vector<Case> all;
  std::mt19937_64 rng(0x5eed'0003);
  auto add = [&](int bits, int width, int fill, int x0, int x1, bool wide, bool timed = false,
                 bool summed = false) {
    Case c;
    c.seed = case_seed(0x5eed'0003, all.size());
    c.bits = bits;
    c.width = width;
    c.height = summed ? 2 : wide ? 1 : 0;
    c.fill = fill;
    c.a = x0;
    c.b = x1;
    c.timed = timed;
    c.what = std::to_string(bits) + "-bit, width " + std::to_string(width) + ", " +
             kFillNames[fill] + ", columns [" + std::to_string(x0) + ", " + std::to_string(x1) +
             ")" + (bits > 8 && bits <= 12 ? (wide ? ", 64-bit lanes" : ", 32-bit lanes") : "") +
             (summed ? ", xx + yy" : "");
    all.push_back(c);
  };
  for (int bits : kBitDepths)
    for (int width : widths())
      for (int fill = 0; fill < kFills; ++fill) {
        // The whole row, and a random sub-range of output columns (a tile).
        const int x0 = int(rng() % uint64_t(width)),
                  x1 = x0 + 1 + int(rng() % uint64_t(width - x0));
        for (auto [a, b] : {std::pair{0, width}, std::pair{x0, x1}}) {
          const bool timed = width == 1920 && fill == kRandom && a == 0 && b == width && bits != 12;
          if (bits <= 12) add(bits, width, fill, a, b, false, timed && bits != 16);
          if (bits > 8) add(bits, width, fill, a, b, true, timed && bits == 16);
        }
      }
  // 8-bit rows through the pairwise multiply-add path: every output range of
  // short rows (each split of edge columns, interior vectors and the
  // overlapping tail), and wide rows.
  for (int width = 1; width <= 40; ++width)
    for (int fill = 0; fill < kFills; ++fill)
      for (int x0 = 0; x0 < width; ++x0)
        for (int x1 = x0 + 1; x1 <= width; ++x1) add(8, width, fill, x0, x1, false);
  for (int width : {1920, 3840, 1921, 3847})
    for (int fill = 0; fill < kFills; ++fill) {
      add(8, width, fill, 0, width, false);
      add(8, width, fill, 3, width - 5, false);
    }
  // xx + yy at 9 to 11 bits: whole rows and random tiles, short and wide.
  for (int bits : {9, 10, 11})
    for (int width : widths())
      for (int fill = 0; fill < kFills; ++fill) {
        const int x0 = int(rng() % uint64_t(width)),
                  x1 = x0 + 1 + int(rng() % uint64_t(width - x0));
        for (auto [a, b] : {std::pair{0, width}, std::pair{x0, x1}}) {
          const bool timed = bits == 10 && width == 1920 && fill == kRandom && a == 0 && b == width;
          add(bits, width, fill, a, b, false, timed, true);
        }
      }
  // One strip of an 8-bit 1080p row, as exact_sum's pipeline calls it (128 columns).
  add(8, 1920, kRandom, 896, 1024, false, true);
  return all;
}

// ---- vertical moments: case.a = the rows present (bit k: tap k's row), case.fill:
// extremes; variant by case.height: 0 32->32, 1 32->64, 2 64->64.
template <typename In, typename Out>
Prepared vertical(const Case& c, uint64_t max_value) {
  auto storage =
      std::make_shared<std::vector<std::vector<In>>>(kTaps, std::vector<In>(size_t(c.width)));
  std::mt19937_64 rng(c.seed);
  const size_t n = size_t(c.width);
  for (int k = 0; k < kTaps; ++k)
    for (size_t i = 0; i < n; ++i)
      (*storage)[size_t(k)][i] =
          In(c.fill ? ((i + size_t(k)) & 1 ? max_value : 0) : rng() % (max_value + 1));
  const unsigned present = unsigned(c.a);
  auto rows_of = [storage, present] {
    std::array<const In*, kTaps> rows{};
    for (int k = 0; k < kTaps; ++k)
      rows[size_t(k)] = (present >> k) & 1 ? (*storage)[size_t(k)].data() : nullptr;
    return rows;
  };
  Prepared p;
  p.twin = [rows_of, n] {
    const auto rows = rows_of();
    std::vector<Out> out(n + 1, Out{0x5a5a5a5a});
    cpu::vertical_moments(rows.data(), out.data(), n);
    Bytes b;
    put(b, out);
    return b;
  };
  p.reference = [rows_of, n] {
    const auto rows = rows_of();
    std::vector<Out> out(n + 1, Out{0x5a5a5a5a});
    for (size_t i = 0; i < n; ++i) {
      uint64_t want = 0;
      for (int k = 0; k < kTaps; ++k)
        if (rows[size_t(k)]) want += uint64_t{kTap[size_t(k)]} * rows[size_t(k)][i];
      out[i] = Out(want);
    }
    Bytes b;
    put(b, out);
    return b;
  };
  return p;
}

// The largest inputs whose filtered sum fits the output lane: < 2^32 / 256 for
// 32-bit outputs; horizontal moments at 12 and 16 bits for 64-bit ones.
Prepared vertical_case(const Case& c) {
  if (c.height == 0) return vertical<uint32_t, uint32_t>(c, (uint64_t{1} << 24) - 1);
  if (c.height == 1) return vertical<uint32_t, uint64_t>(c, 0xffffffffu);
  return vertical<uint64_t, uint64_t>(c, (uint64_t{1} << 40) - 1);
}

const char* const kLaneNames[] = {"32-bit in, 32-bit out", "32-bit in, 64-bit out",
                                  "64-bit in, 64-bit out"};

std::vector<Case> vertical_cases() {
  // Rows present: all nine, the windows cut at the top or the bottom, both
  // (tiny planes), and a few arbitrary sets.
  std::vector<unsigned> sets = {0x1ff};
  for (int j = 1; j < kTaps; ++j) {
    sets.push_back(0x1ffu & ~((1u << j) - 1));
    sets.push_back((1u << j) - 1);
  }
  sets.push_back(0x038);
  sets.push_back(0x010);
  std::vector<Case> all;
  for (int width : widths())
    for (unsigned present : sets)
      for (int extremes : {0, 1})
        for (int lanes = 0; lanes < 3; ++lanes) {
          Case c;
          c.seed = case_seed(0x5eed'0004, all.size());
          c.width = width;
          c.a = int(present);
          c.fill = extremes;
          c.height = lanes;
          c.timed = width == 1920 && present == 0x1ff && !extremes;
          c.what = "width " + std::to_string(width) + ", rows " + std::to_string(present) +
                   (extremes ? ", extremes, " : ", random, ") + kLaneNames[lanes];
          all.push_back(c);
        }
  return all;
}

// ---- the two-row vertical pass: ten rows, values up to the output lane's bound.
template <typename In, typename Out>
Prepared vertical_pair(const Case& c, uint64_t max_value) {
  auto storage =
      std::make_shared<std::vector<std::vector<In>>>(kTaps + 1, std::vector<In>(size_t(c.width)));
  std::mt19937_64 rng(c.seed);
  const size_t n = size_t(c.width);
  for (int k = 0; k <= kTaps; ++k)
    for (size_t i = 0; i < n; ++i)
      (*storage)[size_t(k)][i] =
          In(c.fill ? ((i + size_t(k)) & 1 ? max_value : 0) : rng() % (max_value + 1));
  auto rows_of = [storage] {
    std::array<const In*, kTaps + 1> rows{};
    for (int k = 0; k <= kTaps; ++k) rows[size_t(k)] = (*storage)[size_t(k)].data();
    return rows;
  };
  Prepared p;
  p.twin = [rows_of, n] {
    const auto rows = rows_of();
    std::vector<Out> out0(n + 1, Out{0x5a5a5a5a}), out1(n + 1, Out{0x5a5a5a5a});
    cpu::vertical_moments_pair(rows.data(), out0.data(), out1.data(), n);
    Bytes b;
    put(b, out0);
    put(b, out1);
    return b;
  };
  p.reference = [rows_of, n] {
    const auto rows = rows_of();
    std::vector<Out> out0(n + 1, Out{0x5a5a5a5a}), out1(n + 1, Out{0x5a5a5a5a});
    for (size_t i = 0; i < n; ++i) {
      uint64_t want0 = 0, want1 = 0;
      for (int k = 0; k < kTaps; ++k) {
        want0 += uint64_t{kTap[size_t(k)]} * rows[size_t(k)][i];
        want1 += uint64_t{kTap[size_t(k)]} * rows[size_t(k) + 1][i];
      }
      out0[i] = Out(want0);
      out1[i] = Out(want1);
    }
    Bytes b;
    put(b, out0);
    put(b, out1);
    return b;
  };
  return p;
}

Prepared vertical_pair_case(const Case& c) {
  if (c.height == 0) return vertical_pair<uint32_t, uint32_t>(c, (uint64_t{1} << 24) - 1);
  if (c.height == 1) return vertical_pair<uint32_t, uint64_t>(c, 0xffffffffu);
  return vertical_pair<uint64_t, uint64_t>(c, (uint64_t{1} << 40) - 1);
}

std::vector<Case> vertical_pair_cases() {
  std::vector<Case> all;
  for (int width : widths())
    for (int extremes : {0, 1})
      for (int lanes = 0; lanes < 3; ++lanes) {
        Case c;
        c.seed = case_seed(0x5eed'0007, all.size());
        c.width = width;
        c.fill = extremes;
        c.height = lanes;
        c.timed = width == 1920 && !extremes;
        c.what = "width " + std::to_string(width) + (extremes ? ", extremes, " : ", random, ") +
                 kLaneNames[lanes];
        all.push_back(c);
      }
  // An 8-bit strip of exact_sum's pipeline (128 columns).
  Case strip;
  strip.seed = case_seed(0x5eed'0007, all.size());
  strip.width = 128;
  strip.timed = true;
  strip.what = "width 128 (an 8-bit strip), random, " + std::string(kLaneNames[0]);
  all.push_back(strip);
  return all;
}

// ---- the term: window moments of real windows (steps 1 and 2 by brute force
// over a random patch, a random row weight cut as at a top or bottom edge).
struct WindowSet {
  std::vector<uint32_t> mux, muy, column_weight;
  std::vector<uint64_t> x2, xy, y2;
  uint32_t row_weight = 0;
};

WindowSet random_windows(int bits, size_t n, int fill, std::mt19937_64& rng) {
  const uint32_t max = (1u << bits) - 1;
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

// case.height: 1 for 32-bit window moments (8 bits only).
Prepared terms_case(const Case& c) {
  std::mt19937_64 rng(c.seed);
  auto w = std::make_shared<WindowSet>(random_windows(c.bits, size_t(c.width), c.fill, rng));
  const ssim::TermConstants k = ssim::term_constants(c.bits);
  const size_t n = size_t(c.width);
  const bool narrow = c.height == 1;
  Prepared p;
  p.twin = [w, k, n, narrow] {
    std::vector<double> got(n + 1, -7.0);
    if (narrow) {
      const std::vector<uint32_t> x2(w->x2.begin(), w->x2.end()), xy(w->xy.begin(), w->xy.end()),
          y2(w->y2.begin(), w->y2.end());
      cpu::ssim_terms(
          cpu::WindowRow<uint32_t>{w->mux.data(), w->muy.data(), x2.data(), xy.data(), y2.data()},
          w->column_weight.data(), w->row_weight, n, k, got.data());
    } else {
      cpu::ssim_terms(cpu::WindowRow<uint64_t>{w->mux.data(), w->muy.data(), w->x2.data(),
                                               w->xy.data(), w->y2.data()},
                      w->column_weight.data(), w->row_weight, n, k, got.data());
    }
    Bytes b;
    put(b, got);
    return b;
  };
  p.reference = [w, k, n] {
    std::vector<double> want(n + 1, -7.0);
    for (size_t i = 0; i < n; ++i)
      want[i] = ssim::ssim_term({w->mux[i], w->muy[i], w->x2[i], w->xy[i], w->y2[i],
                                 uint64_t{w->column_weight[i]} * w->row_weight},
                                k);
    Bytes b;
    put(b, want);
    return b;
  };
  return p;
}

std::vector<Case> terms_cases() {
  std::vector<Case> all;
  for (int bits : kBitDepths)
    for (int width : widths())
      for (int fill = 0; fill < kFills; ++fill)
        for (int narrow : {0, 1}) {
          if (narrow && bits != 8) continue;
          Case c;
          c.seed = case_seed(0x5eed'0002, all.size());
          c.bits = bits;
          c.width = width;
          c.fill = fill;
          c.height = narrow;
          c.timed = bits == 8 && width == 1920 && fill == kRandom && narrow;
          c.what = std::to_string(bits) + "-bit, width " + std::to_string(width) + ", " +
                   kFillNames[fill] + (narrow ? ", 32-bit moments" : ", 64-bit moments");
          all.push_back(c);
        }
  return all;
}

Bytes int128_bytes(ssim::int128 v) {
  Bytes b;
  put(b, &v, 1);
  return b;
}

// ---- the terms' exact sum as they are formed (terms_exact_sum): the windows
// of terms_case; case.a = 2 adds a second window row, the first mirrored (the
// same column weights, other moments). case.height: 1 for 32-bit moments.
Prepared terms_sum_case(const Case& c) {
  std::mt19937_64 rng(c.seed);
  auto w = std::make_shared<WindowSet>(random_windows(c.bits, size_t(c.width), c.fill, rng));
  const ssim::TermConstants k = ssim::term_constants(c.bits);
  const size_t n = size_t(c.width);
  const bool narrow = c.height == 1;
  const int rows = c.a;
  auto mirrored = std::make_shared<WindowSet>(*w);
  for (auto* v : {&mirrored->mux, &mirrored->muy}) std::reverse(v->begin(), v->end());
  for (auto* v : {&mirrored->x2, &mirrored->xy, &mirrored->y2}) std::reverse(v->begin(), v->end());
  Prepared p;
  p.twin = [w, mirrored, k, n, narrow, rows] {
    ssim::int128 sum;
    if (narrow) {
      std::vector<std::vector<uint32_t>> keep;
      cpu::WindowRow<uint32_t> win[2];
      for (int r = 0; r < rows; ++r) {
        const WindowSet& set = r ? *mirrored : *w;
        for (const auto* v : {&set.x2, &set.xy, &set.y2}) keep.emplace_back(v->begin(), v->end());
        win[r] = {set.mux.data(), set.muy.data(), keep[keep.size() - 3].data(),
                  keep[keep.size() - 2].data(), keep.back().data()};
      }
      sum = cpu::terms_exact_sum(win, rows, w->column_weight.data(), w->row_weight, n, k);
    } else {
      cpu::WindowRow<uint64_t> win[2];
      for (int r = 0; r < rows; ++r) {
        const WindowSet& set = r ? *mirrored : *w;
        win[r] = {set.mux.data(), set.muy.data(), set.x2.data(), set.xy.data(), set.y2.data()};
      }
      sum = cpu::terms_exact_sum(win, rows, w->column_weight.data(), w->row_weight, n, k);
    }
    return int128_bytes(sum);
  };
  p.reference = [w, mirrored, k, n, rows] {
    ssim::int128 sum = 0;
    for (int r = 0; r < rows; ++r) {
      const WindowSet& set = r ? *mirrored : *w;
      for (size_t i = 0; i < n; ++i)
        sum += ssim::to_fixed64(
            ssim::ssim_term({set.mux[i], set.muy[i], set.x2[i], set.xy[i], set.y2[i],
                             uint64_t{w->column_weight[i]} * w->row_weight},
                            k));
    }
    return int128_bytes(sum);
  };
  return p;
}

std::vector<Case> terms_sum_cases() {
  std::vector<Case> all;
  for (int bits : kBitDepths)
    for (int width : widths())
      for (int fill = 0; fill < kFills; ++fill)
        for (int narrow : {0, 1})
          for (int rows : {1, 2}) {
            if ((narrow && bits != 8) || (rows == 2 && fill != kRandom && fill != kMax)) continue;
            Case c;
            c.seed = case_seed(0x5eed'0012, all.size());
            c.bits = bits;
            c.width = width;
            c.fill = fill;
            c.height = narrow;
            c.a = rows;
            c.timed = bits == 8 && width == 1920 && fill == kRandom && narrow && rows == 2;
            c.what = std::to_string(bits) + "-bit, width " + std::to_string(width) + ", " +
                     kFillNames[fill] + (narrow ? ", 32-bit moments, " : ", 64-bit moments, ") +
                     std::to_string(rows) + " rows";
            all.push_back(c);
          }
  // An 8-bit strip of exact_sum's pipeline (128 columns, two rows a call).
  Case strip;
  strip.seed = case_seed(0x5eed'0012, all.size());
  strip.bits = 8;
  strip.width = 128;
  strip.height = 1;
  strip.a = 2;
  strip.timed = true;
  strip.what = "8-bit, width 128 (a strip), random, 32-bit moments, 2 rows";
  all.push_back(strip);
  return all;
}

// ---- the exact sum of n terms. case.fill 0: terms that stress the rounding to
// 2^-64 (ties at every scale, values either side, signed zeros, the largest and
// tiniest magnitudes below 2^32), each term also alone in its lane; 1: the fast
// path's terms (|term| < 2^19), case.a: one term at or above 2^19 every few
// (the general path); long rows pass the accumulators' flush; short rows' terms
// are checked alone too.
std::vector<double> hard_terms(size_t n, std::mt19937_64& rng) {
  std::vector<double> t(n);
  for (size_t i = 0; i < n; ++i) {
    const double sign = rng() % 2 ? -1.0 : 1.0;
    switch (rng() % 8) {
      case 0:
        t[i] = sign * std::ldexp(double((rng() % (uint64_t{1} << 52)) | 1), -65);
        break;
      case 1:
        t[i] = sign * std::ldexp(double((rng() % (uint64_t{1} << 52)) | 1), -65 - int(rng() % 60));
        break;
      case 2:
        t[i] = sign * 0.0;
        break;
      case 3:
        t[i] = sign * std::ldexp(double(rng() % (uint64_t{1} << 53)), -53 + int(rng() % 18));
        break;
      case 4:
        t[i] = sign * std::ldexp(1.0, -int(rng() % 80));
        break;
      case 5:
        t[i] = sign * 65536.0 * double(rng() % 1000) / 999.0;
        break;
      case 6:
        t[i] = sign * std::nextafter(std::ldexp(1.0, 17), 0.0);
        break;
      default:
        t[i] = sign * std::ldexp(double(rng() >> 11), -21 - int(rng() % 100));
        break;
    }
  }
  return t;
}

std::vector<double> fast_terms(size_t n, bool mix, std::mt19937_64& rng) {
  std::vector<double> terms(n);
  for (double& t : terms) {
    const double sign = rng() % 2 ? -1.0 : 1.0;
    const double odd = double((rng() % (uint64_t{1} << 52)) | 1);
    switch (rng() % 6) {
      case 0:
        t = sign * std::ldexp(odd, -65 + int(rng() % 20));
        break;
      case 1:
        t = sign * std::ldexp(odd, -33 - int(rng() % 40));
        break;
      case 2:
        t = sign * 0.0;
        break;
      case 3:
        t = sign * std::nextafter(std::ldexp(1.0, 19), 0.0);
        break;
      case 4:
        t = sign * std::ldexp(odd, -52 + int(rng() % 19));
        break;
      default:
        t = sign * std::ldexp(double(rng() >> 11), -53 + int(rng() % 19));
        break;
    }
  }
  if (mix)
    for (size_t i = 0; i < n; i += 1 + rng() % 37)
      terms[i] = (rng() % 2 ? -1.0 : 1.0) * std::ldexp(1.0 + double(rng() % 1000) / 1000, 19);
  return terms;
}

Prepared fixed_sum_case(const Case& c) {
  std::mt19937_64 rng(c.seed);
  auto terms = std::make_shared<std::vector<double>>(
      c.fill == 0 ? hard_terms(size_t(c.width), rng) : fast_terms(size_t(c.width), c.a != 0, rng));
  const bool alone = c.width <= (c.fill == 0 ? 70 : 4000);
  Prepared p;
  p.twin = [terms, alone] {
    Bytes b = int128_bytes(cpu::fixed_point_sum(terms->data(), terms->size()));
    // Each term alone in its lane, so that one wrong lane cannot hide in a sum.
    for (size_t i = 0; alone && i < terms->size(); ++i) {
      std::vector<double> one(16, 0.0);
      one[i % 16] = (*terms)[i];
      const Bytes t = int128_bytes(cpu::fixed_point_sum(one.data(), one.size()));
      b.insert(b.end(), t.begin(), t.end());
    }
    return b;
  };
  p.reference = [terms, alone] {
    ssim::int128 sum = 0;
    for (double t : *terms) sum += ssim::to_fixed64(t);
    Bytes b = int128_bytes(sum);
    for (size_t i = 0; alone && i < terms->size(); ++i) {
      const Bytes t = int128_bytes(ssim::to_fixed64((*terms)[i]));
      b.insert(b.end(), t.begin(), t.end());
    }
    return b;
  };
  return p;
}

std::vector<Case> fixed_sum_cases() {
  std::vector<Case> all;
  auto add = [&](int width, int fill, int mix, const std::string& what) {
    Case c;
    c.seed = case_seed(0x5eed'0005, all.size());
    c.width = width;
    c.height = 1;
    c.fill = fill;
    c.a = mix;
    c.timed = fill == 1 && width == 70001 && !mix;
    c.what = what;
    all.push_back(c);
  };
  for (int width : widths())
    for (int round = 0; round < 8; ++round)
      add(width, 0, 0, "hard terms, " + std::to_string(width) + ", round " + std::to_string(round));
  for (int n : {1, 7, 8, 64, 1000, 4000, 40000, 70001})
    for (int mix : {0, 1})
      add(n, 1, mix, "fast-path terms, " + std::to_string(n) + (mix ? ", mixed" : ""));
  return all;
}

// ---- the fused vertical pass, term and sum (window_terms) against the scalar
// steps: its terms, its exact sum with and without storing the terms, and the
// raster sum onto a running sum that does not start at zero. case.a: the rows
// present; case.fill: extremes.
template <typename H>
Prepared window_terms(const Case& c) {
  struct In {
    std::vector<std::vector<uint32_t>> m, n;
    std::vector<std::vector<H>> xx, xy, yy;
    cpu::TapRows<H> rows{};
    std::vector<uint32_t> column_weight;
    uint32_t row_weight = 0;
  };
  auto in = std::make_shared<In>();
  const size_t n = size_t(c.width);
  const unsigned present = unsigned(c.a);
  const uint64_t max_sample = (uint64_t{1} << c.bits) - 1;
  std::mt19937_64 rng(c.seed);
  in->m.assign(kTaps, std::vector<uint32_t>(n));
  in->n = in->m;
  in->xx.assign(kTaps, std::vector<H>(n));
  in->xy = in->xx;
  in->yy = in->xx;
  // Horizontal moments of plausible rows (first order < 2^(b+8), second < 2^(2b+8)),
  // from one sample pair per column.
  for (int k = 0; k < kTaps; ++k) {
    for (size_t i = 0; i < n; ++i) {
      const uint64_t s = c.fill ? ((i + size_t(k)) & 1 ? max_sample : 0) : rng() % (max_sample + 1);
      const uint64_t d = c.fill ? max_sample - s : rng() % (max_sample + 1);
      in->m[size_t(k)][i] = uint32_t(256 * s);
      in->n[size_t(k)][i] = uint32_t(256 * d);
      in->xx[size_t(k)][i] = H(256 * s * s);
      in->xy[size_t(k)][i] = H(256 * s * d);
      in->yy[size_t(k)][i] = H(256 * d * d);
    }
    const bool on = (present >> k) & 1;
    in->rows.m[k] = on ? in->m[size_t(k)].data() : nullptr;
    in->rows.n[k] = on ? in->n[size_t(k)].data() : nullptr;
    in->rows.xx[k] = on ? in->xx[size_t(k)].data() : nullptr;
    in->rows.xy[k] = on ? in->xy[size_t(k)].data() : nullptr;
    in->rows.yy[k] = on ? in->yy[size_t(k)].data() : nullptr;
    if (on) in->row_weight += kTap[size_t(k)];
  }
  for (size_t i = 0; i < n; ++i) in->column_weight.push_back(ssim::kept_weight(int(i), int(n)));
  const ssim::TermConstants k = ssim::term_constants(c.bits);
  const int bits = c.bits;
  const auto fused = [in, k, n, bits](double* terms, double* raster) {
    if constexpr (sizeof(H) == 8)
      return cpu::window_terms(in->rows, in->column_weight.data(), in->row_weight, n, k, terms,
                               raster);
    else if (bits == 8)
      return cpu::window_terms(in->rows, in->column_weight.data(), in->row_weight, n, k, terms,
                               raster);
    else
      return cpu::window_terms_widening(in->rows, in->column_weight.data(), in->row_weight, n, k,
                                        terms, raster);
  };
  // The raster sum starts from the first term's scale (as from the rows above).
  const auto start_of = [](double first) { return 3.0 * first + 0.1; };
  Prepared p;
  p.twin = [fused, n, start_of] {
    Bytes b;
    std::vector<double> terms(n + 1, -7.0);
    const ssim::int128 sum = fused(terms.data(), nullptr);
    put(b, terms);
    put(b, &sum, 1);
    const ssim::int128 sum_only = fused(nullptr, nullptr);
    put(b, &sum_only, 1);
    for (bool with_terms : {false, true}) {
      double raster = n ? start_of(terms[0]) : 0.5;
      std::vector<double> again(n);
      const ssim::int128 s = fused(with_terms ? again.data() : nullptr, &raster);
      put(b, &s, 1);
      put(b, &raster, 1);
      if (with_terms) put(b, again);
    }
    return b;
  };
  p.reference = [in, k, n, start_of] {
    std::vector<double> want(n + 1, -7.0);
    ssim::int128 sum = 0;
    for (size_t i = 0; i < n; ++i) {
      uint64_t q[5] = {};
      for (int t = 0; t < kTaps; ++t) {
        if (!in->rows.m[t]) continue;
        const uint64_t g = kTap[size_t(t)];
        q[0] += g * in->rows.m[t][i];
        q[1] += g * in->rows.n[t][i];
        q[2] += g * in->rows.xx[t][i];
        q[3] += g * in->rows.xy[t][i];
        q[4] += g * in->rows.yy[t][i];
      }
      want[i] = ssim::ssim_term(
          {q[0], q[1], q[2], q[3], q[4], uint64_t{in->column_weight[i]} * in->row_weight}, k);
      sum += ssim::to_fixed64(want[i]);
    }
    double raster = n ? start_of(want[0]) : 0.5;
    for (size_t i = 0; i < n; ++i) raster += want[i];
    Bytes b;
    put(b, want);
    put(b, &sum, 1);
    put(b, &sum, 1);
    for (bool with_terms : {false, true}) {
      put(b, &sum, 1);
      put(b, &raster, 1);
      if (with_terms) put(b, want.data(), n);
    }
    return b;
  };
  return p;
}

Prepared window_terms_case(const Case& c) {
  if (c.bits <= 12) return window_terms<uint32_t>(c);
  return window_terms<uint64_t>(c);
}

std::vector<Case> window_terms_cases() {
  const unsigned sets[] = {0x1ff, 0x1f0, 0x01f, 0x0f8, 0x010, 0x1fe, 0x0ff};
  std::vector<Case> all;
  for (int bits : kBitDepths)
    for (int width : widths())
      for (unsigned present : sets)
        for (int extremes : {0, 1}) {
          Case c;
          c.seed = case_seed(0x5eed'0006, all.size());
          c.bits = bits;
          c.width = width;
          c.a = int(present);
          c.fill = extremes;
          c.timed = width == 1920 && present == 0x1ff && !extremes && (bits == 8 || bits == 10);
          c.what = std::to_string(bits) + "-bit, width " + std::to_string(width) + ", rows " +
                   std::to_string(present) + (extremes ? ", extremes" : ", random");
          all.push_back(c);
        }
  return all;
}

Row row(const char* name, std::vector<Case> (*cases)(), Prepared (*prepare)(const Case&)) {
  Row r;
  r.name = name;
  r.cases = cases;
  r.prepare = prepare;
  r.work = [](const Case& c) { return double(c.width); };  // columns of a row
  return r;
}

EXACTVQ_TWIN_ROWS(ssim_kernel_rows) {
  Row horizontal = row("ssim.horizontal_moments", horizontal_cases, horizontal_case);
  horizontal.work = [](const Case& c) { return double(c.b - c.a); };  // the output columns
  register_per_target(horizontal);
  register_per_target(row("ssim.vertical_moments", vertical_cases, vertical_case));
  register_per_target(row("ssim.vertical_moments_pair", vertical_pair_cases, vertical_pair_case));
  register_per_target(row("ssim.terms", terms_cases, terms_case));
  register_per_target(row("ssim.terms_exact_sum", terms_sum_cases, terms_sum_case));
  register_per_target(row("ssim.fixed_point_sum", fixed_sum_cases, fixed_sum_case));
  register_per_target(row("ssim.window_terms", window_terms_cases, window_terms_case));
}

}  // namespace
}  // namespace exactvq::twins
