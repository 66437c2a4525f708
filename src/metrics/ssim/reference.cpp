#include "metrics/ssim/reference.h"

#include <algorithm>
#include <array>
#include <cassert>
#include <type_traits>
#include <vector>

#include "metrics/ssim/raster_sum.h"
#include "metrics/ssim/taps.h"
#include "metrics/ssim/term.h"

namespace exactvq::ssim {

namespace {

// Widths from the bounds of spec/ssim.md at b bits (the taps sum to 2^8):
//   per sample   s, d < 2^b;  s*s, s*d, d*d < 2^2b                 -> uint32_t
//   horizontal   m, n < 2^(b+8);  xx, xy, yy < 2^(2b+8)            -> uint32_t, Wide
//   vertical     mux, muy < 2^(b+16);  x2, xy, y2 < 2^(2b+16)      -> uint32_t, Wide
// Wide, the type of the second-order moments, is uint32_t for 8-bit samples
// (2^32 bounds them) and uint64_t above. Every sum below adds non-negative terms
// whose total obeys its bound, so no partial sum overflows its type.
template <typename Sample>
using Wide = std::conditional_t<sizeof(Sample) == 1, uint32_t, uint64_t>;

// Per-sample values the horizontal filter sums.
struct SampleRow {
  std::vector<uint32_t> s, d, ss, sd, dd;

  void resize(size_t width) {
    for (auto* v : {&s, &d, &ss, &sd, &dd}) v->resize(width);
  }
};

// The five moments of a row of windows (horizontal sums, or a whole window after
// the vertical pass), for the output columns of a region.
template <typename W>
struct MomentRow {
  std::vector<uint32_t> m, n;
  std::vector<W> xx, xy, yy;

  void resize(size_t width) {
    for (auto* v : {&m, &n}) v->resize(width);
    for (auto* v : {&xx, &xy, &yy}) v->resize(width);
  }
};

// The filter at one position, leaving out the taps k outside [k_begin, k_end).
// p[k] is the input under tap k.
template <typename Out, typename In>
inline Out filter_truncated(const In* const* p, int k_begin, int k_end) {
  Out sum = 0;
  for (int k = k_begin; k < k_end; ++k) sum += Out{kTap[size_t(k)]} * Out{*p[k]};
  return sum;
}

// All nine taps; they are symmetric, so five multiplies suffice.
template <typename Out, typename In>
inline Out filter_full(In p0, In p1, In p2, In p3, In p4, In p5, In p6, In p7, In p8) {
  return Out{kTap[0]} * (Out{p0} + Out{p8}) + Out{kTap[1]} * (Out{p1} + Out{p7}) +
         Out{kTap[2]} * (Out{p2} + Out{p6}) + Out{kTap[3]} * (Out{p3} + Out{p5}) +
         Out{kTap[4]} * Out{p4};
}

// Horizontal filter of one sample row `in` (in[x] is column x) into out[x] for
// x in [x0, x1) of a line of `width` samples.
template <typename Out, typename In>
void filter_row(const In* __restrict in, Out* __restrict out, int width, int x0, int x1) {
  // Columns whose window lies inside the row take all nine taps.
  const int inner_begin = std::clamp(kRadius, x0, x1);
  const int inner_end = std::clamp(width - kRadius, inner_begin, x1);
  auto edge = [&](int x) {
    // Only taps inside the row get a pointer: one before `in` would be undefined.
    const In* taps[kTaps] = {};
    for (int k = 0; k < kTaps; ++k)
      if (x - kRadius + k >= 0 && x - kRadius + k < width) taps[k] = in + (x - kRadius + k);
    out[x] =
        filter_truncated<Out>(taps, std::max(0, kRadius - x), std::min(kTaps, width + kRadius - x));
  };
  for (int x = x0; x < inner_begin; ++x) edge(x);
  const In* c = in + inner_begin;  // the sample under the centre tap
  Out* o = out + inner_begin;
  // A signed index: c[i - 4] with an unsigned i wraps around the address space.
  const ptrdiff_t count = inner_end - inner_begin;
  for (ptrdiff_t i = 0; i < count; ++i)
    o[i] = filter_full<Out>(c[i - 4], c[i - 3], c[i - 2], c[i - 1], c[i], c[i + 1], c[i + 2],
                            c[i + 3], c[i + 4]);
  for (int x = inner_end; x < x1; ++x) edge(x);
}

// Vertical filter: rows[k] is the horizontal moment row under tap k, or null
// where the window leaves the plane.
template <typename T>
void filter_column(const T* const (&rows)[kTaps], T* __restrict out, size_t n) {
  bool full = true;
  for (const T* r : rows) full = full && r != nullptr;
  if (full) {
    const T *r0 = rows[0], *r1 = rows[1], *r2 = rows[2], *r3 = rows[3], *r4 = rows[4],
            *r5 = rows[5], *r6 = rows[6], *r7 = rows[7], *r8 = rows[8];
    for (size_t i = 0; i < n; ++i)
      out[i] = filter_full<T>(r0[i], r1[i], r2[i], r3[i], r4[i], r5[i], r6[i], r7[i], r8[i]);
    return;
  }
  std::fill(out, out + n, T{0});
  for (int k = 0; k < kTaps; ++k) {
    if (!rows[k]) continue;
    const T g = kTap[size_t(k)];
    const T* r = rows[k];
    for (size_t i = 0; i < n; ++i) out[i] += g * r[i];
  }
}

// One plane row's horizontal moments for output columns [x0, x1).
template <typename Sample>
void horizontal_pass(const Sample* ref, const Sample* dist, int width, int x0, int x1,
                     SampleRow& samples, MomentRow<Wide<Sample>>& out) {
  // The samples the windows read, [a, b), stored from index 0 of `samples`.
  const int a = std::max(0, x0 - kRadius), b = std::min(width, x1 + kRadius);
  for (int x = a; x < b; ++x) {
    const uint32_t s = ref[x], d = dist[x];
    const size_t i = size_t(x - a);
    samples.s[i] = s;
    samples.d[i] = d;
    samples.ss[i] = s * s;
    samples.sd[i] = s * d;
    samples.dd[i] = d * d;
  }
  // Shift both sides so that index x means column x.
  filter_row(samples.s.data() - a, out.m.data() - x0, width, x0, x1);
  filter_row(samples.d.data() - a, out.n.data() - x0, width, x0, x1);
  filter_row<Wide<Sample>>(samples.ss.data() - a, out.xx.data() - x0, width, x0, x1);
  filter_row<Wide<Sample>>(samples.sd.data() - a, out.xy.data() - x0, width, x0, x1);
  filter_row<Wide<Sample>>(samples.dd.data() - a, out.yy.data() - x0, width, x0, x1);
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
  using Row = MomentRow<Wide<Sample>>;
  std::array<Row, kTaps> ring;  // horizontal moments of plane row r live in slot r % 9
  for (auto& row : ring) row.resize(n);
  SampleRow samples;
  samples.resize(n + 2 * kRadius);
  Row window;  // the vertical pass: one output row's window moments
  window.resize(n);
  std::vector<uint64_t> column_weight(n);
  for (int x = region.x0; x < region.x1; ++x)
    column_weight[size_t(x - region.x0)] = kept_weight(x, width);

  int next_row = std::max(0, region.y0 - kRadius);  // next plane row to filter
  for (int y = region.y0; y < region.y1; ++y) {
    const int r_end = std::min(height, y + kRadius + 1);
    for (; next_row < r_end; ++next_row)
      horizontal_pass(ref.row<Sample>(next_row), dist.row<Sample>(next_row), width, region.x0,
                      region.x1, samples, ring[size_t(next_row % kTaps)]);

    // Vertical pass over the rows of the window that lie in the plane.
    auto rows_of = [&](auto member) {
      using T = typename std::remove_reference_t<decltype(ring[0].*member)>::value_type;
      const T* rows[kTaps];
      for (int k = 0; k < kTaps; ++k) {
        const int r = y - kRadius + k;
        rows[k] = (r >= 0 && r < height) ? (ring[size_t(r % kTaps)].*member).data() : nullptr;
      }
      filter_column(rows, (window.*member).data(), n);
    };
    rows_of(&Row::m);
    rows_of(&Row::n);
    rows_of(&Row::xx);
    rows_of(&Row::xy);
    rows_of(&Row::yy);

    const uint64_t row_weight = kept_weight(y, height);
    for (size_t i = 0; i < n; ++i) {
      const Moments mo{window.m[i],  window.n[i],  window.xx[i],
                       window.xy[i], window.yy[i], column_weight[i] * row_weight};
      sink(ssim_term(mo, constants), mo.w);
    }
  }
}

template <typename Sink>
void dispatch(const PlaneView& ref, const PlaneView& dist, int bitdepth, Rect region, Sink&& sink) {
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

double raster_sum(const PlaneView& ref, const PlaneView& dist, int bitdepth) {
  double sum = 0.0;
  dispatch(ref, dist, bitdepth, whole(ref),
           [&](double term, uint64_t) { sum = add_in_raster_order(sum, &term, 1); });
  return sum;
}

double score_raster(const PlaneView& ref, const PlaneView& dist, int bitdepth) {
  return raster_sum(ref, dist, bitdepth) /
         static_cast<double>(plane_weight_sum(ref.width, ref.height));
}

}  // namespace exactvq::ssim
