#include "ssim/ssim_reference.h"

#include <algorithm>
#include <array>
#include <cassert>
#include <vector>

#include "ssim/taps.h"
#include "ssim/term.h"

namespace exactvq::ssim {

namespace {

// Horizontal moments of one row, for the output columns of a region.
struct HorizontalRow {
  std::vector<uint32_t> m, n;       // sum g*s, sum g*d: < 2^24
  std::vector<uint64_t> xx, xy, yy;  // sum g*s*s ...: < 2^40

  void resize(size_t width) {
    m.resize(width);
    n.resize(width);
    xx.resize(width);
    xy.resize(width);
    yy.resize(width);
  }
};

template <typename Sample>
void horizontal_pass(const Sample* ref, const Sample* dist, int plane_width, int x0, int x1,
                     HorizontalRow& out) {
  for (int x = x0; x < x1; ++x) {
    // Taps whose sample x - kRadius + k falls outside the row are left out.
    const int k_begin = std::max(0, kRadius - x);
    const int k_end = std::min(kTaps, plane_width + kRadius - x);
    uint32_t m = 0, n = 0;
    uint64_t xx = 0, xy = 0, yy = 0;
    for (int k = k_begin; k < k_end; ++k) {
      const uint32_t s = ref[x - kRadius + k];
      const uint32_t d = dist[x - kRadius + k];
      const uint32_t g = kTap[k];
      m += g * s;
      n += g * d;
      xx += uint64_t{g * s} * s;  // g*s < 2^24: the 32-bit product cannot overflow
      xy += uint64_t{g * s} * d;
      yy += uint64_t{g * d} * d;
    }
    const size_t i = size_t(x - x0);
    out.m[i] = m;
    out.n[i] = n;
    out.xx[i] = xx;
    out.xy[i] = xy;
    out.yy[i] = yy;
  }
}

// Calls sink(term, w) for every output pixel of `region`, rows top to bottom,
// each row left to right (libvmaf's raster order).
template <typename Sample, typename Sink>
void for_each_term(const PlaneView& ref, const PlaneView& dist, int bitdepth, Rect region,
                   Sink&& sink) {
  assert(ref.width == dist.width && ref.height == dist.height);
  const int width = ref.width, height = ref.height;
  const int out_width = region.x1 - region.x0;
  if (out_width <= 0 || region.y1 <= region.y0) return;

  const TermConstants constants = term_constants(bitdepth);
  std::array<HorizontalRow, kTaps> ring;  // row r lives in slot r % kTaps
  for (auto& row : ring) row.resize(size_t(out_width));
  std::vector<uint64_t> column_weight(static_cast<size_t>(out_width));
  for (int x = region.x0; x < region.x1; ++x)
    column_weight[size_t(x - region.x0)] = kept_weight(x, width);

  int next_row = std::max(0, region.y0 - kRadius);  // next input row to filter
  for (int y = region.y0; y < region.y1; ++y) {
    const int r_begin = std::max(0, y - kRadius);
    const int r_end = std::min(height, y + kRadius + 1);
    for (; next_row < r_end; ++next_row)
      horizontal_pass(ref.row<Sample>(next_row), dist.row<Sample>(next_row), width, region.x0,
                      region.x1, ring[size_t(next_row % kTaps)]);
    const uint64_t row_weight = kept_weight(y, height);

    for (int i = 0; i < out_width; ++i) {
      Moments mo{0, 0, 0, 0, 0, column_weight[size_t(i)] * row_weight};
      for (int r = r_begin; r < r_end; ++r) {
        const HorizontalRow& h = ring[size_t(r % kTaps)];
        const uint64_t g = kTap[size_t(r - y + kRadius)];
        mo.mux += g * h.m[size_t(i)];
        mo.muy += g * h.n[size_t(i)];
        mo.x2 += g * h.xx[size_t(i)];
        mo.xy += g * h.xy[size_t(i)];
        mo.y2 += g * h.yy[size_t(i)];
      }
      sink(ssim_term(mo, constants), mo.w);
    }
  }
}

template <typename Sink>
void dispatch(const PlaneView& ref, const PlaneView& dist, int bitdepth, Rect region,
              Sink&& sink) {
  if (ref.bytes_per_sample == 1)
    for_each_term<uint8_t>(ref, dist, bitdepth, region, sink);
  else
    for_each_term<uint16_t>(ref, dist, bitdepth, region, sink);
}

}  // namespace

ExactSum exact_sum(const PlaneView& ref, const PlaneView& dist, int bitdepth, Rect region) {
  ExactSum sum;
  dispatch(ref, dist, bitdepth, region, [&sum](double term, uint64_t w) { sum.add(term, w); });
  return sum;
}

double score_exact(const PlaneView& ref, const PlaneView& dist, int bitdepth) {
  return exact_sum(ref, dist, bitdepth, whole(ref)).score();
}

double score_raster(const PlaneView& ref, const PlaneView& dist, int bitdepth) {
  double sum = 0.0, sum_w = 0.0;
  dispatch(ref, dist, bitdepth, whole(ref), [&](double term, uint64_t w) {
    sum += term;
    sum_w += static_cast<double>(w);
  });
  return sum / sum_w;
}

}  // namespace exactvq::ssim
