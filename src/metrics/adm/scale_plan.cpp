#include "metrics/adm/scale_plan.h"

#include <cstdint>

#include "metrics/adm/band.h"
#include "metrics/adm/csf_factors.h"
#include "metrics/adm/scale_shifts.h"

namespace exactvq::adm {

stages::ScalePlan scale_plan(int width, int height, int scale, const CsfFactors& f) {
  int w = width, h = height;
  for (int n = 0; n <= scale; ++n) {
    w = (w + 1) / 2;
    h = (h + 1) / 2;
  }
  const auto rect = [](const Region& r) { return stages::Rect{r.top, r.bottom, r.left, r.right}; };
  stages::ScalePlan p;
  p.width = w;
  p.height = h;
  const Region g = score_region(w, h);
  p.filter = rect(filter_region(w, h));
  p.scored = rect(g);
  CubeShift cube;
  if (scale == 0) {
    p.den_row_shift = denominator_shift_s0(g);
    p.den_row_round = p.den_row_shift > 0 ? uint64_t{1} << (p.den_row_shift - 1) : 0;
    for (int b = 0; b < 3; ++b) p.factor[b] = f.scale0_fixed[b];
    cube = masking_cube_s0(w);
  } else {
    p.den_cube_shift = ceil_log2(g.right - g.left);
    p.den_cube_round = static_cast<uint64_t>(half_of_power(p.den_cube_shift));
    p.den_row_shift = ceil_log2(g.bottom - g.top);
    p.den_row_round = static_cast<uint64_t>(half_of_power(p.den_row_shift));
    p.factor[0] = p.factor[1] = f.fixed_hv[scale];
    p.factor[2] = f.fixed_d[scale];
    cube = masking_cube_s123(w);
  }
  for (int b = 0; b < 3; ++b) {
    p.cube_shift[b] = cube.shift[b];
    p.cube_round[b] = cube.round[b];
  }
  p.mask_row_shift = ceil_log2(h);
  p.mask_row_round = half_of_power(p.mask_row_shift);
  return p;
}

}  // namespace exactvq::adm
