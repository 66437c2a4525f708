// Rows of the CPU SSIM scorer over whole planes, one sum mode a row, per SIMD
// target: `exact` (cpu::exact_sum of the plane: stage by stage or fused, the
// automatic strip width or a forced one) and `raster` (cpu::raster_sum) against
// the scalar reference's. Their timed cases are the planes whose rates are
// reported: 1080p at 8, 10 and 16 bits and 4K at 8, the fused pipeline and
// strip widths beside the defaults; ssim.plane_sums (cpu_plane_rows.cpp) tests
// the same routines on many more shapes.
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "cpu_rows.h"
#include "metrics/ssim/cpu/ssim_simd.h"
#include "metrics/ssim/reference.h"
#include "ssim/plane_fixture.h"

namespace exactvq::twins {
namespace {

using test::Pattern;

enum class Mode { kExact, kRaster };

// case.fill: the pattern; case.a: 1 for the fused pipeline; case.b: the `exact`
// sums' strip width (0: automatic).
Prepared whole_plane_case(const Case& c, Mode mode) {
  struct In {
    test::OwnedPlane ref, dist;
  };
  std::mt19937_64 rng(c.seed);
  const Pattern pattern = Pattern(c.fill);
  test::OwnedPlane ref = test::make_plane(c.width, c.height, c.bits, pattern, rng);
  test::OwnedPlane dist =
      pattern == Pattern::kRandom || pattern == Pattern::kSmooth
          ? test::add_noise(ref, (1u << c.bits) / 16, rng)
          : test::make_plane(c.width, c.height, c.bits, pattern, rng, /*invert=*/true);
  auto in = std::make_shared<In>(In{std::move(ref), std::move(dist)});
  const bool fused = c.a != 0;
  const int bits = c.bits, strip = c.b;
  Prepared p;
  p.twin = [in, mode, fused, bits, strip] {
    const bool was = cpu::fused_window_terms();
    cpu::use_fused_window_terms(fused);
    cpu::use_strip_columns(strip);
    const PlaneView r = in->ref.view(), d = in->dist.view();
    Bytes b;
    if (mode == Mode::kExact) {
      const ssim::ExactSum sum = cpu::exact_sum(r, d, bits, ssim::whole(r));
      put(b, &sum.sum_q, 1);
      put(b, &sum.sum_w, 1);
    } else {
      const double sum = cpu::raster_sum(r, d, bits);
      put(b, &sum, 1);
    }
    cpu::use_fused_window_terms(was);
    cpu::use_strip_columns(0);
    return b;
  };
  p.reference = [in, mode, bits] {
    const PlaneView r = in->ref.view(), d = in->dist.view();
    Bytes b;
    if (mode == Mode::kExact) {
      const ssim::ExactSum sum = ssim::exact_sum(r, d, bits, ssim::whole(r));
      put(b, &sum.sum_q, 1);
      put(b, &sum.sum_w, 1);
    } else {
      const double sum = ssim::raster_sum(r, d, bits);
      put(b, &sum, 1);
    }
    return b;
  };
  return p;
}

std::vector<Case> whole_plane_cases(Mode mode) {
  std::vector<Case> all;
  auto add = [&](int w, int h, int bits, Pattern pattern, int fused, int strip, bool timed) {
    Case c;
    // One seed a plane: its variants score the same pair.
    c.seed =
        case_seed(mode == Mode::kExact ? 0x5eed'0106 : 0x5eed'0107, size_t(w) * 17 + size_t(bits));
    c.width = w;
    c.height = h;
    c.bits = bits;
    c.fill = int(pattern);
    c.a = fused;
    c.b = strip;
    c.timed = timed;
    c.what = std::to_string(w) + "x" + std::to_string(h) + " " + std::to_string(bits) + "-bit " +
             (pattern == Pattern::kSmooth ? "smooth, noisy" : "random") + (fused ? ", fused" : "") +
             (strip ? ", strips of " + std::to_string(strip) : "");
    all.push_back(c);
  };
  for (int bits : {8, 10, 16}) add(37, 23, bits, Pattern::kRandom, 0, 0, false);
  for (int bits : {8, 10, 16}) add(1920, 1080, bits, Pattern::kSmooth, 0, 0, true);
  add(3840, 2160, 8, Pattern::kSmooth, 0, 0, true);
  for (int bits : {8, 10}) add(1920, 1080, bits, Pattern::kSmooth, 1, 0, true);
  if (mode == Mode::kExact)  // raster keeps whole rows: no strips
    for (int strip : {64, 256, 1920}) add(1920, 1080, 8, Pattern::kSmooth, 0, strip, true);
  return all;
}

Row whole_plane_row(const char* name, Mode mode) {
  Row r;
  r.name = name;
  r.cases = [mode] { return whole_plane_cases(mode); };
  r.prepare = [mode](const Case& c) { return whole_plane_case(c, mode); };
  r.reference_key = name;
  return r;
}

EXACTVQ_TWIN_ROWS(ssim_whole_plane_rows) {
  register_per_target(whole_plane_row("ssim.exact_plane", Mode::kExact));
  register_per_target(whole_plane_row("ssim.raster_plane", Mode::kRaster));
}

}  // namespace
}  // namespace exactvq::twins
