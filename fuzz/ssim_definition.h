// spec/ssim.md transcribed per pixel with no reuse and no shortcuts, as the scoring
// fuzzer's oracle: slow (81 taps a pixel) and meant for tiny planes only.
#pragma once

#include <cstdint>

#include "core/picture.h"
#include "metrics/ssim/fixed_point.h"

namespace exactvq::fuzz {

struct DefinitionScore {
  ssim::ExactSum exact;  // the `exact` sum of every pixel's term
  double raster = 0;     // libvmaf's sequential binary64 sum / sum of weights
};

inline uint64_t sample_at(const PlaneView& p, int x, int y) {
  return p.bytes_per_sample == 1 ? p.row<uint8_t>(y)[x] : p.row<uint16_t>(y)[x];
}

inline DefinitionScore definition_score(const PlaneView& r, const PlaneView& d, int bitdepth) {
  static constexpr uint64_t g[9] = {2, 9, 28, 55, 68, 55, 28, 9, 2};
  const double k1 = 0.01 * 0.01, k2 = 0.03 * 0.03;
  const double md = double((uint64_t{1} << bitdepth) - 1);
  DefinitionScore out;
  double sum = 0, sumw = 0;
  for (int y = 0; y < r.height; ++y) {
    for (int x = 0; x < r.width; ++x) {
      uint64_t mux = 0, muy = 0, x2 = 0, xy = 0, y2 = 0, w = 0;
      for (int kv = 0; kv < 9; ++kv) {
        const int row = y - 4 + kv;
        if (row < 0 || row >= r.height) continue;
        uint64_t hm = 0, hn = 0, hxx = 0, hxy = 0, hyy = 0, hw = 0;
        for (int kh = 0; kh < 9; ++kh) {
          const int col = x - 4 + kh;
          if (col < 0 || col >= r.width) continue;
          const uint64_t s = sample_at(r, col, row), t = sample_at(d, col, row);
          hm += g[kh] * s;
          hn += g[kh] * t;
          hxx += g[kh] * s * s;
          hxy += g[kh] * s * t;
          hyy += g[kh] * t * t;
          hw += g[kh];
        }
        mux += g[kv] * hm;
        muy += g[kv] * hn;
        x2 += g[kv] * hxx;
        xy += g[kv] * hxy;
        y2 += g[kv] * hyy;
        w += g[kv] * hw;
      }
      const double wd = double(w);
      const double c1 = (((md * md) * k1) * wd) * wd;
      const double c2 = (((md * md) * k2) * wd) * wd;
      const double mx2 = double(mux) * double(mux);
      const double mxy = double(mux) * double(muy);
      const double my2 = double(muy) * double(muy);
      const double a = 2 * mxy + c1;
      const double b = c2 + 2 * (double(xy) * wd - mxy);
      const double c = (mx2 + my2) + c1;
      const double dd = ((((double(x2) * wd - mx2) + double(y2) * wd) - my2) + c2);
      const double term = ((wd * a) * b) / (c * dd);
      out.exact.add(term, w);
      sum += term;
      sumw += wd;
    }
  }
  out.raster = sum / sumw;
  return out;
}

}  // namespace exactvq::fuzz
