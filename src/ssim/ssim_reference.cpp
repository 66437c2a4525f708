#include "ssim/ssim_reference.h"

#include <algorithm>
#include <array>
#include <cassert>
#include <vector>

#include "ssim/taps.h"
#include "ssim/term.h"

namespace exactvq::ssim {

namespace {

// The five moments of one row of windows, for the output columns of a region.
// Horizontal sums: m, n < 2^24 and xx, xy, yy < 2^40; after the vertical pass
// m, n < 2^32 and xx, xy, yy < 2^48 (spec/ssim.md): uint64_t holds all of them.
struct MomentRow {
  std::vector<uint64_t> m, n, xx, xy, yy;

  void resize(size_t width) {
    for (auto* v : {&m, &n, &xx, &xy, &yy}) v->resize(width);
  }
};

// Per-sample values the horizontal filter sums: s, d, s*s, s*d, d*d (each < 2^32).
struct SampleRow {
  std::vector<uint64_t> s, d, ss, sd, dd;

  void resize(size_t width) {
    for (auto* v : {&s, &d, &ss, &sd, &dd}) v->resize(width);
  }
};

// The filter at one column, leaving out the taps k outside [k_begin, k_end).
// `p` points at the sample under the centre tap.
inline uint64_t filter_truncated(const uint64_t* p, int k_begin, int k_end) {
  uint64_t sum = 0;
  for (int k = k_begin; k < k_end; ++k) sum += kTap[size_t(k)] * p[k - kRadius];
  return sum;
}

// The full nine-tap filter; the taps are symmetric, so five multiplies suffice.
inline uint64_t filter_full(const uint64_t* p) {
  return kTap[0] * (p[-4] + p[4]) + kTap[1] * (p[-3] + p[3]) + kTap[2] * (p[-2] + p[2]) +
         kTap[3] * (p[-1] + p[1]) + kTap[4] * p[0];
}

// One plane row's horizontal moments for output columns [x0, x1).
template <typename Sample>
void horizontal_pass(const Sample* ref, const Sample* dist, int plane_width, int x0, int x1,
                     SampleRow& samples, MomentRow& out) {
  // Samples the windows read: [a, b), kept in `samples` from index 0.
  const int a = std::max(0, x0 - kRadius), b = std::min(plane_width, x1 + kRadius);
  for (int x = a; x < b; ++x) {
    const uint64_t s = ref[x], d = dist[x];
    const size_t i = size_t(x - a);
    samples.s[i] = s;
    samples.d[i] = d;
    samples.ss[i] = s * s;
    samples.sd[i] = s * d;
    samples.dd[i] = d * d;
  }
  const std::vector<uint64_t>* in[5] = {&samples.s, &samples.d, &samples.ss, &samples.sd,
                                        &samples.dd};
  std::vector<uint64_t>* res[5] = {&out.m, &out.n, &out.xx, &out.xy, &out.yy};
  // Columns whose window lies inside the row take all nine taps.
  const int inner_begin = std::clamp(kRadius, x0, x1);
  const int inner_end = std::clamp(plane_width - kRadius, inner_begin, x1);
  for (int j = 0; j < 5; ++j) {
    const uint64_t* __restrict p = in[j]->data() - a;  // p[x]: the sample at column x
    uint64_t* __restrict o = res[j]->data() - x0;       // o[x]: output column x
    for (int x = x0; x < inner_begin; ++x)
      o[x] = filter_truncated(p + x, std::max(0, kRadius - x),
                              std::min(kTaps, plane_width + kRadius - x));
    const uint64_t* __restrict pi = p + inner_begin;
    uint64_t* __restrict oi = o + inner_begin;
    const size_t inner = size_t(inner_end - inner_begin);
    for (size_t i = 0; i < inner; ++i) oi[i] = filter_full(pi + i);
    for (int x = inner_end; x < x1; ++x)
      o[x] = filter_truncated(p + x, std::max(0, kRadius - x),
                              std::min(kTaps, plane_width + kRadius - x));
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
  const size_t n = static_cast<size_t>(out_width);

  const TermConstants constants = term_constants(bitdepth);
  std::array<MomentRow, kTaps> ring;  // horizontal moments of plane row r live in slot r % 9
  for (auto& row : ring) row.resize(n);
  SampleRow samples;
  samples.resize(n + 2 * kRadius);
  MomentRow window;  // the vertical pass: one output row's moments
  window.resize(n);
  std::vector<uint64_t> column_weight(n);
  for (int x = region.x0; x < region.x1; ++x)
    column_weight[size_t(x - region.x0)] = kept_weight(x, width);

  int next_row = std::max(0, region.y0 - kRadius);  // next plane row to filter
  for (int y = region.y0; y < region.y1; ++y) {
    const int r_begin = std::max(0, y - kRadius);
    const int r_end = std::min(height, y + kRadius + 1);
    for (; next_row < r_end; ++next_row)
      horizontal_pass(ref.row<Sample>(next_row), dist.row<Sample>(next_row), width, region.x0,
                      region.x1, samples, ring[size_t(next_row % kTaps)]);

    // Vertical pass: the rows of the window present in the plane, with their taps.
    for (int j = 0; j < 5; ++j) {
      auto column = [j](MomentRow& r) -> std::vector<uint64_t>& {
        std::vector<uint64_t>* cols[5] = {&r.m, &r.n, &r.xx, &r.xy, &r.yy};
        return *cols[j];
      };
      uint64_t* __restrict o = column(window).data();
      if (r_end - r_begin == kTaps) {
        const uint64_t* p[kTaps];
        for (int k = 0; k < kTaps; ++k) p[k] = column(ring[size_t((r_begin + k) % kTaps)]).data();
        for (size_t i = 0; i < n; ++i)
          o[i] = kTap[0] * (p[0][i] + p[8][i]) + kTap[1] * (p[1][i] + p[7][i]) +
                 kTap[2] * (p[2][i] + p[6][i]) + kTap[3] * (p[3][i] + p[5][i]) +
                 kTap[4] * p[4][i];
      } else {
        std::fill(o, o + n, uint64_t{0});
        for (int r = r_begin; r < r_end; ++r) {
          const uint64_t g = kTap[size_t(r - y + kRadius)];
          const uint64_t* p = column(ring[size_t(r % kTaps)]).data();
          for (size_t i = 0; i < n; ++i) o[i] += g * p[i];
        }
      }
    }

    const uint64_t row_weight = kept_weight(y, height);
    for (size_t i = 0; i < n; ++i) {
      const Moments mo{window.m[i], window.n[i], window.xx[i], window.xy[i], window.yy[i],
                       column_weight[i] * row_weight};
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
