// Rows of the CPU's whole-plane routines, per SIMD target: the SSIM plane scorer
// (metrics/ssim/cpu/ssim_simd.h: exact sums of whole planes and of a split into
// row bands and tiles, raster sums; stage by stage and fused) against the scalar
// reference, and psnr's sum of squared errors against sse_reference (strides
// wider than the row, unaligned starts, padding it must not read).
#include <algorithm>
#include <random>
#include <vector>

#include "cpu_rows.h"
#include "metrics/psnr/sse.h"
#include "metrics/ssim/cpu/ssim_simd.h"
#include "metrics/ssim/reference.h"
#include "padded_plane.h"
#include "ssim/plane_fixture.h"

namespace exactvq::twins {
namespace {

using test::Pattern;

// ---- ssim plane sums. case.fill: the pattern; case.a: 1 for the fused pipeline;
// case.b: the `exact` sums' strip width (0: automatic); the split is drawn from
// the seed.
struct PlanePair {
  test::OwnedPlane ref, dist;
  int xs = 0, ys = 0;
};

Prepared plane_case(const Case& c) {
  std::mt19937_64 rng(c.seed);
  const Pattern pattern = Pattern(c.fill);
  test::OwnedPlane ref = test::make_plane(c.width, c.height, c.bits, pattern, rng);
  // Distorted: noisy, or the inverse (max against zero at the extremes).
  test::OwnedPlane dist =
      pattern == Pattern::kRandom || pattern == Pattern::kSmooth
          ? test::add_noise(ref, (1u << c.bits) / 16, rng)
          : test::make_plane(c.width, c.height, c.bits, pattern, rng, /*invert=*/true);
  auto in = std::make_shared<PlanePair>(PlanePair{std::move(ref), std::move(dist)});
  in->ys = int(rng() % uint64_t(c.height + 1));
  in->xs = int(rng() % uint64_t(c.width + 1));
  const bool fused = c.a != 0;
  const int bits = c.bits, strip = c.b;
  Prepared p;
  p.twin = [in, fused, bits, strip] {
    const bool was = cpu::fused_window_terms();
    cpu::use_fused_window_terms(fused);
    cpu::use_strip_columns(strip);
    const PlaneView r = in->ref.view(), d = in->dist.view();
    const ssim::ExactSum whole = cpu::exact_sum(r, d, bits, ssim::whole(r));
    ssim::ExactSum parts;
    for (ssim::Rect rect :
         {ssim::Rect{0, 0, in->xs, in->ys}, ssim::Rect{in->xs, 0, r.width, in->ys},
          ssim::Rect{0, in->ys, r.width, r.height}})
      parts += cpu::exact_sum(r, d, bits, rect);
    const double raster = cpu::raster_sum(r, d, bits);
    cpu::use_fused_window_terms(was);
    cpu::use_strip_columns(0);
    Bytes b;
    put(b, &whole.sum_q, 1);
    put(b, &whole.sum_w, 1);
    put(b, &parts.sum_q, 1);
    put(b, &parts.sum_w, 1);
    put(b, &raster, 1);
    return b;
  };
  p.reference = [in, bits] {
    const PlaneView r = in->ref.view(), d = in->dist.view();
    const ssim::ExactSum whole = ssim::exact_sum(r, d, bits, ssim::whole(r));
    const double raster = ssim::raster_sum(r, d, bits);
    Bytes b;
    for (int i = 0; i < 2; ++i) {
      put(b, &whole.sum_q, 1);
      put(b, &whole.sum_w, 1);
    }
    put(b, &raster, 1);
    return b;
  };
  return p;
}

const char* const kPatternNames[] = {"random", "zero", "max", "alternating", "smooth"};

std::vector<Case> plane_cases() {
  std::mt19937_64 rng(0x5eed'0103);
  std::vector<std::pair<int, int>> sizes = {{1, 1},   {1, 9},   {9, 1},     {5, 7},
                                            {17, 13}, {129, 6}, {1920, 10}, {3840, 9}};
  for (int w = 1; w <= 70; w += 3) sizes.push_back({w, 1 + int(rng() % 20)});
  std::vector<Case> all;
  for (int bits : {8, 10, 12, 16})
    for (auto [w, h] : sizes)
      for (int pattern = 0; pattern < 5; ++pattern)
        for (int fused : {0, 1}) {
          Case c;
          c.seed = case_seed(0x5eed'0103, all.size());
          c.bits = bits;
          c.width = w;
          c.height = h;
          c.fill = pattern;
          c.a = fused;
          c.what = std::to_string(w) + "x" + std::to_string(h) + " " + std::to_string(bits) +
                   "-bit " + kPatternNames[pattern] + (fused ? ", fused" : ", stage by stage");
          all.push_back(c);
        }
  // Narrow strips forced: one column, odd widths, strips meeting inside vectors.
  for (int bits : {8, 10, 16})
    for (auto [w, h] : {std::pair{33, 9}, std::pair{70, 12}, std::pair{300, 7}})
      for (int strip : {1, 7, 16, 40})
        for (int pattern : {0, 2}) {
          Case c;
          c.seed = case_seed(0x5eed'0105, all.size());
          c.bits = bits;
          c.width = w;
          c.height = h;
          c.fill = pattern;
          c.b = strip;
          c.what = std::to_string(w) + "x" + std::to_string(h) + " " + std::to_string(bits) +
                   "-bit " + kPatternNames[pattern] + ", strips of " + std::to_string(strip);
          all.push_back(c);
        }
  for (int bits : {8, 10})
    for (int fused : {0, 1}) {
      Case c;
      c.seed = case_seed(0x5eed'0104, all.size());
      c.bits = bits;
      c.width = 1920;
      c.height = 1080;
      c.a = fused;
      c.timed = true;
      c.what = "1920x1080 " + std::to_string(bits) + "-bit random" +
               (fused ? ", fused" : ", stage by stage");
      all.push_back(c);
    }
  return all;
}

// ---- psnr's SSE. case.fill: the contents; case.a: padding after each row;
// case.b: the first sample's offset into the buffer.
enum SseFill { kRandom, kZeroVsMax, kMaxVsZero, kEqual, kNearMax };
const char* const kSseFillNames[] = {"random", "zero against max", "max against zero", "equal",
                                     "near max"};

Prepared sse_case(const Case& c) {
  struct In {
    PaddedPlane a, b;
  };
  auto in = std::make_shared<In>(In{PaddedPlane(c.width, c.height, c.bits, c.a, c.b),
                                    PaddedPlane(c.width, c.height, c.bits, c.a, c.b)});
  std::mt19937_64 rng(c.seed);
  const uint32_t max = (1u << c.bits) - 1;
  for (int y = 0; y < c.height; ++y)
    for (int x = 0; x < c.width; ++x) {
      uint32_t u = 0, v = 0;
      switch (c.fill) {
        case kRandom:
          u = uint32_t(rng() % (max + 1));
          v = uint32_t(rng() % (max + 1));
          break;
        case kZeroVsMax:
          v = max;
          break;
        case kMaxVsZero:
          u = max;
          break;
        case kEqual:
          u = v = uint32_t(rng() % (max + 1));
          break;
        default:
          u = max - uint32_t(rng() % 3);
          v = uint32_t(rng() % 3);
          break;
      }
      in->a.set(x, y, u);
      in->b.set(x, y, v);
    }
  in->a.poison(max);
  in->b.poison(0);
  const int h = c.height;
  // The whole plane, and a band of rows inside it.
  Prepared p;
  p.twin = [in, h] {
    const uint64_t all = psnr::sse(in->a.view, in->b.view, 0, h);
    const uint64_t band = h > 1 ? psnr::sse(in->a.view, in->b.view, 1, h) : 0;
    Bytes b;
    put(b, &all, 1);
    put(b, &band, 1);
    return b;
  };
  p.reference = [in, h] {
    const uint64_t all = psnr::sse_reference(in->a.view, in->b.view, 0, h);
    const uint64_t band = h > 1 ? psnr::sse_reference(in->a.view, in->b.view, 1, h) : 0;
    Bytes b;
    put(b, &all, 1);
    put(b, &band, 1);
    return b;
  };
  return p;
}

std::vector<Case> sse_cases() {
  std::mt19937_64 rng(0x5eed'0010);
  std::vector<Case> all;
  auto add = [&](int w, int h, int bits, int pad, int offset, int fill, bool timed = false) {
    Case c;
    c.seed = case_seed(0x5eed'0010, all.size());
    c.width = w;
    c.height = h;
    c.bits = bits;
    c.a = pad;
    c.b = offset;
    c.fill = fill;
    c.timed = timed;
    c.what = std::to_string(w) + "x" + std::to_string(h) + " " + std::to_string(bits) +
             "-bit, pad " + std::to_string(pad) + ", offset " + std::to_string(offset) + ", " +
             kSseFillNames[fill];
    all.push_back(c);
  };
  for (int bits = 8; bits <= 16; ++bits) {
    for (int w = 1; w <= 70; ++w)
      add(w, 1 + int(rng() % 4), bits, int(rng() % 5), int(rng() % 3), kRandom);
    for (int fill : {kZeroVsMax, kMaxVsZero, kEqual, kNearMax})
      for (int w : {1, 15, 16, 17, 33, 64, 70}) add(w, 3, bits, 1, 1, fill);
    for (int w : {1920, 3840})
      for (int fill : {kRandom, kZeroVsMax}) add(w, 2, bits, int(rng() % 9), int(rng() % 3), fill);
  }
  // Rows whose samples add up past the 8-bit chunk (16384), which then splits
  // inside a row; and the widest rows at maximal error, the chunking's worst case.
  for (int fill : {kRandom, kZeroVsMax})
    for (int w : {1000, 4097, 16385}) add(w, 21, 8, 3, 1, fill);
  add(kMaxDimension, 1, 8, 0, 1, kZeroVsMax);
  add(kMaxDimension, 1, 16, 3, 0, kMaxVsZero);
  add(1920, 1080, 8, 0, 0, kRandom, true);
  add(1920, 1080, 10, 0, 0, kRandom, true);
  return all;
}

EXACTVQ_TWIN_ROWS(cpu_plane_rows) {
  register_per_target("ssim.plane_sums", plane_cases, plane_case);
  register_per_target("psnr.sse_rows", sse_cases, sse_case);
}

}  // namespace
}  // namespace exactvq::twins
