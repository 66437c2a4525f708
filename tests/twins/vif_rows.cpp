// Rows of vif's CPU SIMD routines beside its scalar reference (metrics/vif/):
// each row stage (cpu/vif_simd.h) on seeded level rows and lines, and the
// whole frame (vif_simd against vif_reference), per SIMD target.
#include <algorithm>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "cpu_rows.h"
#include "metrics/vif/blur.h"
#include "metrics/vif/cpu/vif_simd.h"
#include "metrics/vif/reference.h"
#include "metrics/vif/statistic.h"
#include "ssim/plane_fixture.h"

namespace exactvq::twins {
namespace {

using vif::BlurLines;
using vif::EdgeLine;
using vif::kMaxHalfTaps;
using vif::MomentLines;
using vif::SampleWidth;

// Contents of level rows and lines.
enum Fill { kRandom, kZero, kMax, kAlternating, kSmoothNoisy, kRefMaxDistZero };
const char* const kFillNames[] = {
    "random", "zero", "max", "alternating", "smooth with noise", "ref max, dist zero"};
constexpr int kFills = 6;

uint32_t fill_value(int fill, bool is_ref, int x, int y, uint32_t max, std::mt19937_64& rng) {
  switch (fill) {
    case kRandom:
      return uint32_t(rng() % (uint64_t(max) + 1));
    case kZero:
      return 0;
    case kMax:
      return max;
    case kAlternating:
      return uint32_t((x + y) & 1) == uint32_t(is_ref) ? max : 0;
    case kSmoothNoisy: {
      const int64_t v = int64_t(uint64_t(x * 5 + y * 11) * max / 800 % (uint64_t(max) + 1)) +
                        int64_t(rng() % 9) - 4;
      return uint32_t(std::clamp<int64_t>(v, 0, max));
    }
    default:
      return is_ref ? max : 0;
  }
}

// The rows under a vertical pass: `count` rows of `width` samples, each its
// own exact-size buffer (so reading past a row's end is a bug a sanitizer sees).
// Level 0 holds the picture's samples (8-bit or 16-bit), levels above 16-bit
// means. Not copyable: the row pointers point into the buffers.
struct LevelInput {
  LevelInput() = default;
  LevelInput(const LevelInput&) = delete;
  LevelInput& operator=(const LevelInput&) = delete;
  SampleWidth sample = SampleWidth::k8;
  std::vector<std::vector<uint8_t>> ref, dist;
  std::vector<const uint8_t*> ref_rows, dist_rows;
};

// beyond_depth: level 0's 16-bit samples drawn up to 2^16 - 1 whatever the
// bit depth (no reader passes them, but the kernels' bounds hold for any).
std::shared_ptr<LevelInput> make_level_rows(const Case& c, int level, size_t count,
                                            bool beyond_depth = false) {
  auto in = std::make_shared<LevelInput>();
  in->sample = level == 0 && c.bits == 8 ? SampleWidth::k8 : SampleWidth::k16;
  const uint32_t max = level == 0 && !beyond_depth ? (1u << c.bits) - 1 : 65535u;
  const int bps = in->sample == SampleWidth::k8 ? 1 : 2;
  std::mt19937_64 rng(c.seed);
  for (size_t k = 0; k < count; ++k) {
    std::vector<uint8_t> r(size_t(c.width) * bps), d(r.size());
    for (int x = 0; x < c.width; ++x) {
      const uint32_t u = fill_value(c.fill, true, x, int(k), max, rng);
      const uint32_t v = fill_value(c.fill, false, x, int(k), max, rng);
      if (bps == 1) {
        r[size_t(x)] = uint8_t(u);
        d[size_t(x)] = uint8_t(v);
      } else {
        vif::store_sample16(r.data(), x, uint16_t(u));
        vif::store_sample16(d.data(), x, uint16_t(v));
      }
    }
    in->ref.push_back(std::move(r));
    in->dist.push_back(std::move(d));
  }
  for (size_t k = 0; k < count; ++k) {
    in->ref_rows.push_back(in->ref[k].data());
    in->dist_rows.push_back(in->dist[k].data());
  }
  return in;
}

// Every value of a line, its edge columns included.
void put_line(Bytes& b, const EdgeLine& line, int width) {
  put(b, line.at(-kMaxHalfTaps), size_t(width) + 2 * kMaxHalfTaps);
}

std::string case_text(const Case& c, const char* level_word, int level) {
  return std::to_string(c.width) + " wide, " + std::to_string(c.bits) + "-bit, " + level_word +
         " " + std::to_string(level) + ", " + kFillNames[c.fill];
}

// Cases for a row stage: widths 1..70 and beyond, every bit depth, every level
// the stage runs at, every fill; timed: 1920 wide at 8 and 10 bits, level 0.
// case.a: the level; case.b: the gain limit's choice (statistics only).
std::vector<Case> stage_cases(uint64_t base, int first_level, int last_level, bool gain_limits) {
  std::vector<Case> all;
  std::vector<int> widths;
  for (int w = 1; w <= 70; ++w) widths.push_back(w);
  for (int w : {127, 129, 960, 1920, 1921}) widths.push_back(w);
  std::mt19937_64 rng(base);
  for (int bits : {8, 10, 12, 16})
    for (int level = first_level; level <= last_level; ++level)
      for (int w : widths)
        for (int fill = 0; fill < kFills; ++fill) {
          // Every fill at the edge widths; one drawn fill elsewhere, to keep the row quick.
          if (w > 20 && w != 1920 && fill != int(rng() % kFills)) continue;
          Case c;
          c.seed = case_seed(base, all.size());
          c.bits = bits;
          c.width = w;
          c.fill = fill;
          c.a = level;
          c.b = gain_limits ? int(rng() % 2) : 0;
          c.what = case_text(c, "level", level) + (c.b ? ", gain limit 1" : "");
          all.push_back(c);
        }
  for (int bits : {8, 10}) {
    Case c;
    c.seed = case_seed(base + 1, all.size());
    c.bits = bits;
    c.width = 1920;
    c.a = first_level;
    c.timed = true;
    c.what = case_text(c, "level", first_level) + ", timed";
    all.push_back(c);
  }
  return all;
}

// ---- vif.vertical_moments: the five lines of one row at `level`.
Prepared vertical_moments_case(const Case& c) {
  const int level = c.a;
  const std::span<const uint16_t> taps = vif::level_taps(level);
  // Every other 16-bit random case of level 0 with samples beyond the bit depth.
  const bool beyond = level == 0 && c.bits > 8 && !c.timed && c.fill == kRandom && (c.seed & 1);
  const std::shared_ptr<const LevelInput> in = make_level_rows(c, level, taps.size(), beyond);
  const vif::Rounding mean = vif::vertical_mean_rounding(level, c.bits);
  const vif::Rounding square = vif::vertical_square_rounding(level, c.bits);
  const int w = c.width;
  auto run = [in, taps, mean, square, w](auto stage) {
    MomentLines out(w);
    stage(std::span<const uint8_t* const>(in->ref_rows),
          std::span<const uint8_t* const>(in->dist_rows), in->sample, w, taps, mean, square, out);
    Bytes b;
    for (const EdgeLine* line : {&out.mu1, &out.mu2, &out.xx, &out.yy, &out.xy})
      put_line(b, *line, w);
    return b;
  };
  Prepared p;
  p.twin = [run] { return run(vif::cpu::vertical_moments); };
  p.reference = [run] { return run(vif::vertical_moments); };
  return p;
}

// ---- vif.vertical_moments_pair: the five lines of two adjacent rows at
// `level` from taps.size() + 1 rows, against two calls of the reference (one
// case in eight under lopsided taps, the int16 kernels' general taps).
std::shared_ptr<const std::vector<uint16_t>> lopsided_taps(int level);

// The taps of the two-row cases: one case in four lopsided, one in four
// tilted (t[k] + 7 * (k - half): not symmetric, their sum the level's, so the
// 16-bit kernels run them too), else the level's own.
std::shared_ptr<const std::vector<uint16_t>> pair_case_taps(const Case& c, int level) {
  if (c.timed || c.seed % 4 < 2) return nullptr;
  if (c.seed % 4 == 2) return lopsided_taps(level);
  const std::span<const uint16_t> t = vif::level_taps(level);
  auto out = std::make_shared<std::vector<uint16_t>>(t.begin(), t.end());
  const int half = int(out->size() / 2);
  for (int k = 0; k < int(out->size()); ++k)
    (*out)[size_t(k)] = uint16_t((*out)[size_t(k)] + 7 * (k - half));
  return out;
}

// A two-row case's input: its taps (pair_case_taps' or the level's), the
// taps.size() + 1 seeded level rows and the level's roundings.
struct PairInput {
  std::shared_ptr<const std::vector<uint16_t>> own_taps;  // keeps `taps` alive when set
  std::span<const uint16_t> taps;
  std::shared_ptr<const LevelInput> in;
  vif::Rounding mean, square;
};

PairInput pair_input(const Case& c) {
  const int level = c.a;
  PairInput p;
  p.own_taps = pair_case_taps(c, level);
  p.taps = p.own_taps ? std::span<const uint16_t>(*p.own_taps) : vif::level_taps(level);
  const bool beyond = level == 0 && c.bits > 8 && !c.timed && c.fill == kRandom && (c.seed & 1);
  p.in = make_level_rows(c, level, p.taps.size() + 1, beyond);
  p.mean = vif::vertical_mean_rounding(level, c.bits);
  p.square = vif::vertical_square_rounding(level, c.bits);
  return p;
}

Prepared vertical_moments_pair_case(const Case& c) {
  const PairInput pi = pair_input(c);
  const auto& [lopsided, taps, in, mean, square] = pi;
  const int w = c.width;
  const size_t n = taps.size();
  const auto bytes = [w](const MomentLines& a, const MomentLines& b) {
    Bytes out;
    for (const MomentLines* lines : {&a, &b})
      for (const EdgeLine* line : {&lines->mu1, &lines->mu2, &lines->xx, &lines->yy, &lines->xy})
        put_line(out, *line, w);
    return out;
  };
  const std::span<const uint8_t*const> ref_rows(in->ref_rows), dist_rows(in->dist_rows);
  Prepared p;
  p.twin = [in, lopsided, ref_rows, dist_rows, taps, mean, square, w, bytes] {
    MomentLines a(w), b(w);
    vif::cpu::vertical_moments_pair(ref_rows, dist_rows, in->sample, w, taps, mean, square, a, b);
    return bytes(a, b);
  };
  p.reference = [in, lopsided, ref_rows, dist_rows, taps, mean, square, w, n, bytes] {
    MomentLines a(w), b(w);
    vif::vertical_moments(ref_rows.first(n), dist_rows.first(n), in->sample, w, taps, mean, square,
                          a);
    vif::vertical_moments(ref_rows.subspan(1, n), dist_rows.subspan(1, n), in->sample, w, taps,
                          mean, square, b);
    return bytes(a, b);
  };
  return p;
}

// The cases of the two-row rows: stage_cases' with two rows of work each, so
// that --bench's rates are pixels like the one-row rows'.
std::vector<Case> pair_cases(uint64_t base, int last_level, bool gain_limits) {
  std::vector<Case> all = stage_cases(base, 0, last_level, gain_limits);
  for (Case& c : all) c.height = 2;
  return all;
}

// Arbitrary values (means below 2^16) in every column of `lines`, edges included.
void fill_arbitrary(MomentLines& lines, int w, std::mt19937_64& rng) {
  for (int x = -kMaxHalfTaps; x < w + kMaxHalfTaps; ++x) {
    lines.mu1[x] = uint32_t(rng() & 0xFFFF);
    lines.mu2[x] = uint32_t(rng() & 0xFFFF);
    lines.xx[x] = uint32_t(rng());
    lines.yy[x] = uint32_t(rng());
    lines.xy[x] = uint32_t(rng());
  }
}

// ---- vif.horizontal_statistics: one row's sums, from lines the vertical
// pass made of seeded rows (edges mirrored, as the pyramid does), or from
// lines of arbitrary values (every branch of the statistic, wrapped
// differences included).
// Taps of a level made lopsided (not symmetric), for the kernels' general path.
std::shared_ptr<const std::vector<uint16_t>> lopsided_taps(int level) {
  const std::span<const uint16_t> t = vif::level_taps(level);
  auto out = std::make_shared<std::vector<uint16_t>>(t.begin(), t.end());
  for (size_t k = 0; k < out->size(); ++k) (*out)[k] = uint16_t((*out)[k] + 3 * k + 1);
  return out;
}

Prepared horizontal_statistics_case(const Case& c) {
  const int level = c.a;
  // One case in eight filters with lopsided taps (the rows under them are the level's); the
  // timed cases the level's own, which every frame runs.
  const auto lopsided = !c.timed && c.seed % 8 == 3 ? lopsided_taps(level) : nullptr;
  const std::span<const uint16_t> taps =
      lopsided ? std::span<const uint16_t>(*lopsided) : vif::level_taps(level);
  const int w = c.width;
  auto lines = std::make_shared<MomentLines>(w);
  std::mt19937_64 rng(c.seed ^ 0x5151);
  if (c.fill == kRandom && (c.seed & 1)) {
    // Arbitrary values in every column, edges included.
    fill_arbitrary(*lines, w, rng);
  } else if ((c.fill == kMax || c.fill == kAlternating) && (c.seed & 1)) {
    // The lines' extremes: every value its largest (means 2^16 - 1, moments
    // 2^32 - 1), or columns alternating between that and 0 (the x86 kernels'
    // biased 16-bit halves at both ends).
    for (int x = -kMaxHalfTaps; x < w + kMaxHalfTaps; ++x) {
      const bool high = c.fill == kMax || ((x & 1) != 0) == ((c.seed >> 1 & 1) != 0);
      lines->mu1[x] = lines->mu2[x] = high ? 0xFFFFu : 0u;
      lines->xx[x] = lines->yy[x] = lines->xy[x] = high ? 0xFFFFFFFFu : 0u;
    }
  } else {
    const std::shared_ptr<const LevelInput> in = make_level_rows(c, level, taps.size());
    vif::vertical_moments(in->ref_rows, in->dist_rows, in->sample, w, taps,
                          vif::vertical_mean_rounding(level, c.bits),
                          vif::vertical_square_rounding(level, c.bits), *lines);
    for (EdgeLine* line : {&lines->mu1, &lines->mu2, &lines->xx, &lines->yy, &lines->xy})
      vif::mirror_edge_columns(*line, w, int(taps.size() / 2));
  }
  const double gain_limit = c.b ? 1.0 : 100.0;
  auto run = [lines, lopsided, taps, w, gain_limit](auto stage) {
    const vif::LevelSums s = stage(*lines, w, taps, gain_limit);
    Bytes b;
    put(b, &s, 1);
    return b;
  };
  Prepared p;
  p.twin = [run] { return run(vif::cpu::horizontal_statistics); };
  p.reference = [run] { return run(vif::horizontal_statistics); };
  return p;
}

// Working lines of arbitrary values (means below 2^16), edge columns included:
// what earlier rows may leave there.
std::shared_ptr<const MomentLines> arbitrary_lines(int w, uint64_t seed) {
  auto lines = std::make_shared<MomentLines>(w);
  std::mt19937_64 rng(seed);
  fill_arbitrary(*lines, w, rng);
  return lines;
}

// ---- vif.row_statistics: one row's sums from seeded level rows (the
// vertical pass, the mirrored edge columns and the horizontal statistic),
// with working lines that hold arbitrary values beforehand.
Prepared row_statistics_case(const Case& c) {
  const int level = c.a;
  // One case in eight under lopsided taps (the kernels' general paths); the timed cases the
  // level's own.
  const auto lopsided = !c.timed && c.seed % 8 == 5 ? lopsided_taps(level) : nullptr;
  const std::span<const uint16_t> taps =
      lopsided ? std::span<const uint16_t>(*lopsided) : vif::level_taps(level);
  const bool beyond = level == 0 && c.bits > 8 && !c.timed && c.fill == kRandom && (c.seed & 1);
  const std::shared_ptr<const LevelInput> in = make_level_rows(c, level, taps.size(), beyond);
  const vif::Rounding mean = vif::vertical_mean_rounding(level, c.bits);
  const vif::Rounding square = vif::vertical_square_rounding(level, c.bits);
  const double gain_limit = c.b ? 1.0 : 100.0;
  const int w = c.width;
  // What earlier rows left in the lines: read only by one-column rows' edges,
  // the same for both.
  const auto before = arbitrary_lines(w, c.seed ^ 0x7070);
  auto run = [in, lopsided, taps, mean, square, gain_limit, w, before](auto stage) {
    MomentLines lines = *before;
    const vif::LevelSums s = stage(std::span<const uint8_t* const>(in->ref_rows),
                                   std::span<const uint8_t* const>(in->dist_rows), in->sample, w,
                                   taps, mean, square, gain_limit, lines);
    Bytes b;
    put(b, &s, 1);
    return b;
  };
  Prepared p;
  p.twin = [run] { return run(vif::cpu::row_statistics); };
  p.reference = [run] { return run(vif::row_statistics); };
  return p;
}

// ---- vif.row_statistics_pair: two adjacent rows' sums from taps.size() + 1
// seeded level rows, against the reference's row_statistics of each in turn
// on the same working lines (arbitrary values beforehand).
Prepared row_statistics_pair_case(const Case& c) {
  const PairInput pi = pair_input(c);
  const auto& [lopsided, taps, in, mean, square] = pi;
  const double gain_limit = c.b ? 1.0 : 100.0;
  const int w = c.width;
  const size_t n = taps.size();
  const auto before = arbitrary_lines(w, c.seed ^ 0x7272);
  const std::span<const uint8_t*const> ref_rows(in->ref_rows), dist_rows(in->dist_rows);
  const auto bytes = [](const vif::LevelSums& s) {
    Bytes b;
    put(b, &s, 1);
    return b;
  };
  Prepared p;
  p.twin = [in, lopsided, ref_rows, dist_rows, taps, mean, square, gain_limit, w, before, bytes] {
    MomentLines lines = *before;
    return bytes(vif::cpu::row_statistics_pair(ref_rows, dist_rows, in->sample, w, taps, mean,
                                               square, gain_limit, lines));
  };
  p.reference = [in, lopsided, ref_rows, dist_rows, taps, mean, square, gain_limit, w, n, before,
                 bytes] {
    MomentLines lines = *before;
    vif::LevelSums s = vif::row_statistics(ref_rows.first(n), dist_rows.first(n), in->sample, w,
                                           taps, mean, square, gain_limit, lines);
    s += vif::row_statistics(ref_rows.subspan(1, n), dist_rows.subspan(1, n), in->sample, w, taps,
                             mean, square, gain_limit, lines);
    return bytes(s);
  };
  return p;
}

// ---- vif.vertical_blur: the blur before halving `level` (the next level's taps).
Prepared vertical_blur_case(const Case& c) {
  const int level = c.a;
  const std::span<const uint16_t> taps = vif::level_taps(level + 1);
  const std::shared_ptr<const LevelInput> in = make_level_rows(c, level, taps.size());
  const vif::Rounding round = vif::rounding_by(level == 0 ? c.bits : 16);
  const int w = c.width;
  auto run = [in, taps, round, w](auto stage) {
    BlurLines out(w);
    stage(std::span<const uint8_t* const>(in->ref_rows),
          std::span<const uint8_t* const>(in->dist_rows), in->sample, w, taps, round, out);
    Bytes b;
    put_line(b, out.ref, w);
    put_line(b, out.dist, w);
    return b;
  };
  Prepared p;
  p.twin = [run] { return run(vif::cpu::vertical_blur); };
  p.reference = [run] { return run(vif::vertical_blur); };
  return p;
}

// ---- vif.horizontal_blur_even: the even columns of blurred lines (16-bit
// values, edges mirrored; kRandom with an odd seed: arbitrary edge values).
Prepared horizontal_blur_case(const Case& c) {
  const int level = c.a;
  const std::span<const uint16_t> taps = vif::level_taps(level + 1);
  const int w = c.width;
  auto lines = std::make_shared<BlurLines>(w);
  std::mt19937_64 rng(c.seed);
  for (int x = 0; x < w; ++x) {
    lines->ref[x] = fill_value(c.fill, true, x, 0, 65535, rng);
    lines->dist[x] = fill_value(c.fill, false, x, 0, 65535, rng);
  }
  if (c.fill == kRandom && (c.seed & 1)) {
    for (int f = 1; f <= kMaxHalfTaps; ++f)
      for (EdgeLine* line : {&lines->ref, &lines->dist}) {
        (*line)[-f] = uint32_t(rng() & 0xFFFF);
        (*line)[w - 1 + f] = uint32_t(rng() & 0xFFFF);
      }
  } else {
    vif::mirror_edge_columns(lines->ref, w, int(taps.size() / 2));
    vif::mirror_edge_columns(lines->dist, w, int(taps.size() / 2));
  }
  auto run = [lines, taps, w](auto stage) {
    std::vector<uint16_t> r(size_t(w / 2)), d(size_t(w / 2));
    stage(*lines, w, taps, r, d);
    Bytes b;
    put(b, r);
    put(b, d);
    return b;
  };
  Prepared p;
  p.twin = [run] { return run(vif::cpu::horizontal_blur_even); };
  p.reference = [run] { return run(vif::horizontal_blur_even); };
  return p;
}

// ---- vif.blur_row: one kept row of the halving of `level` (the next level's
// taps): the vertical blur, the mirrored edge columns and the even columns'
// horizontal blur, with working lines that hold arbitrary values beforehand.
Prepared blur_row_case(const Case& c) {
  const int level = c.a;
  const std::span<const uint16_t> taps = vif::level_taps(level + 1);
  const std::shared_ptr<const LevelInput> in = make_level_rows(c, level, taps.size());
  const vif::Rounding round = vif::rounding_by(level == 0 ? c.bits : 16);
  const int w = c.width;
  auto before = std::make_shared<BlurLines>(w);
  std::mt19937_64 rng(c.seed ^ 0x7171);
  for (int x = -kMaxHalfTaps; x < w + kMaxHalfTaps; ++x) {
    before->ref[x] = uint32_t(rng() & 0xFFFF);
    before->dist[x] = uint32_t(rng() & 0xFFFF);
  }
  auto run = [in, taps, round, w, before](auto stage) {
    BlurLines lines = *before;
    std::vector<uint16_t> r(size_t(w / 2)), d(size_t(w / 2));
    stage(std::span<const uint8_t* const>(in->ref_rows),
          std::span<const uint8_t* const>(in->dist_rows), in->sample, w, taps, round, lines,
          std::span<uint16_t>(r), std::span<uint16_t>(d));
    Bytes b;
    put(b, r);
    put(b, d);
    return b;
  };
  Prepared p;
  p.twin = [run] { return run(vif::cpu::blur_row); };
  p.reference = [run] { return run(vif::blur_row); };
  return p;
}

// ---- vif.frame: every score of a frame pair. case.fill: the pattern (ssim's
// plane fixture); case.a: the options (0: default, 1: egl=1, 2: skip_scale0,
// 3: debug with egl=1.5).
vif::VifOptions frame_options(int which) {
  vif::VifOptions o;
  o.debug = true;  // the scores are computed either way; debug only names them
  if (which == 1) o.gain_limit = 1.0;
  if (which == 2) o.skip_scale0 = true;
  if (which == 3) o.gain_limit = 1.5;
  return o;
}

Prepared frame_case(const Case& c) {
  std::mt19937_64 rng(c.seed);
  const auto pattern = test::Pattern(c.fill);
  test::OwnedPlane ref = test::make_plane(c.width, c.height, c.bits, pattern, rng);
  test::OwnedPlane dist =
      pattern == test::Pattern::kRandom || pattern == test::Pattern::kSmooth
          ? test::add_noise(ref, (1u << c.bits) / 16, rng)
          : test::make_plane(c.width, c.height, c.bits, pattern, rng, /*invert=*/true);
  struct In {
    test::OwnedPlane ref, dist;
  };
  auto in = std::make_shared<In>(In{std::move(ref), std::move(dist)});
  const int bits = c.bits;
  const vif::VifOptions o = frame_options(c.a);
  auto bytes = [](const vif::VifScores& s) {
    Bytes b;
    put(b, s.levels.data(), s.levels.size());
    put(b, s.scale.data(), s.scale.size());
    put(b, &s.vif, 1);
    put(b, &s.num, 1);
    put(b, &s.den, 1);
    put(b, s.num_scale.data(), s.num_scale.size());
    put(b, s.den_scale.data(), s.den_scale.size());
    return b;
  };
  Prepared p;
  p.twin = [in, bits, o, bytes] {
    return bytes(vif::cpu::vif_simd(in->ref.view(), in->dist.view(), bits, o));
  };
  p.reference = [in, bits, o, bytes] {
    return bytes(vif::vif_reference(in->ref.view(), in->dist.view(), bits, o));
  };
  return p;
}

const char* const kPatternNames[] = {"random", "zero", "max", "alternating", "smooth"};

std::vector<Case> frame_cases() {
  std::mt19937_64 rng(0x5eed'0f1f);
  std::vector<std::pair<int, int>> sizes = {{2, 8},   {3, 9},   {4, 8},  {5, 11},
                                            {17, 13}, {33, 16}, {64, 17}};
  for (int w = 2; w <= 70; w += 5) sizes.push_back({w, 8 + int(rng() % 13)});
  std::vector<Case> all;
  for (int bits : {8, 10, 12, 16})
    for (auto [w, h] : sizes)
      for (int pattern = 0; pattern < 5; ++pattern) {
        Case c;
        c.seed = case_seed(0x5eed'0f1f, all.size());
        c.bits = bits;
        c.width = w;
        c.height = h;
        c.fill = pattern;
        c.a = int(rng() % 4);
        if (c.a == 2 && w < 4) c.a = 0;
        c.what = std::to_string(w) + "x" + std::to_string(h) + " " + std::to_string(bits) +
                 "-bit " + kPatternNames[pattern] + ", options " + std::to_string(c.a);
        all.push_back(c);
      }
  for (int bits : {8, 10}) {
    Case c;
    c.seed = case_seed(0x5eed'0f20, all.size());
    c.bits = bits;
    c.width = 1920;
    c.height = 1080;
    c.timed = true;
    c.what = "1920x1080 " + std::to_string(bits) + "-bit random, timed";
    all.push_back(c);
  }
  return all;
}

EXACTVQ_TWIN_ROWS(vif_rows) {
  register_per_target(
      "vif.vertical_moments", [] { return stage_cases(0x5eed'0f01, 0, 3, false); },
      vertical_moments_case, /*vnni=*/true);
  register_per_target(
      "vif.vertical_moments_pair", [] { return pair_cases(0x5eed'0f07, 3, false); },
      vertical_moments_pair_case, /*vnni=*/true);
  register_per_target(
      "vif.horizontal_statistics", [] { return stage_cases(0x5eed'0f02, 0, 3, true); },
      horizontal_statistics_case, /*vnni=*/true);
  register_per_target(
      "vif.row_statistics", [] { return stage_cases(0x5eed'0f05, 0, 3, true); },
      row_statistics_case, /*vnni=*/true);
  register_per_target(
      "vif.row_statistics_pair", [] { return pair_cases(0x5eed'0f08, 3, true); },
      row_statistics_pair_case, /*vnni=*/true);
  register_per_target(
      "vif.vertical_blur", [] { return stage_cases(0x5eed'0f03, 0, 2, false); }, vertical_blur_case,
      /*vnni=*/true);
  register_per_target(
      "vif.horizontal_blur_even", [] { return stage_cases(0x5eed'0f04, 0, 2, false); },
      horizontal_blur_case, /*vnni=*/true);
  register_per_target(
      "vif.blur_row", [] { return stage_cases(0x5eed'0f06, 0, 2, false); }, blur_row_case,
      /*vnni=*/true);
  register_per_target("vif.frame", frame_cases, frame_case, /*vnni=*/true);
}

}  // namespace
}  // namespace exactvq::twins
