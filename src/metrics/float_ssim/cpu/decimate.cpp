// One decimation row (the twin of the reference's decimate_row) as a Highway
// kernel, one output a binary64 lane. The kernel's rows are first copied,
// edges mirrored as the reference mirrors them, into `factor` phase arrays
// each (phase p holds columns factor * j + p - size / 2), so that a tap reads
// its column for consecutive outputs with one unaligned load. Each tap's
// product is a binary32 lane, widened and added to the lane's binary64 sum in
// the reference's order (kernel rows outer, columns inner, from 0.0). Every
// read is copied before any output is stored, so `out` may alias `img` (in
// place, the reference's reads never meet an earlier output either: spec,
// "Downscaling"); the last, partial vector goes through a buffer.
#include <algorithm>
#include <vector>

#include "metrics/float_ssim/cpu/float_ssim_simd.h"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "metrics/float_ssim/cpu/decimate.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

HWY_BEFORE_NAMESPACE();
namespace exactvq::float_ssim::cpu::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

using D64 = hn::ScalableTag<double>;
using DF = hn::Rebind<float, D64>;  // binary32 lanes, as many as D64's
using V64 = hn::Vec<D64>;
using D32 = hn::ScalableTag<float>;

inline int round_up(int v, int m) { return (v + m - 1) / m * m; }

// Column `col` of a row after iqa's single reflection; 0 where even that
// falls outside (columns only the padding lanes read).
inline float mirrored(const float* row, int width, int col) {
  if (col < 0)
    col = -1 - col;
  else if (col >= width)
    col = 2 * width - 1 - col;
  return col >= 0 && col < width ? row[col] : 0.0f;
}

inline int floor_div(int a, int b) { return a >= 0 ? a / b : -((-a + b - 1) / b); }

// A kernel row's phases: phase p, sample j < len is column factor * j + p -
// half of `row`, mirrored (or 0, mirrored()). Halving deinterleaves the
// columns inside the row two vectors at a time.
void Phases(const float* row, int width, int half, int factor, int len, float* phases) {
  int j = 0;
#if HWY_TARGET != HWY_SCALAR
  if (factor == 2) {
    const D32 d;
    const int lanes = int(hn::Lanes(d));
    // Samples j .. j + lanes - 1 of both phases read columns 2 j - half .. 2 j - half + 2 lanes
    // - 1.
    for (; j < len && 2 * j - half < 0; ++j) {
      phases[j] = mirrored(row, width, 2 * j - half);
      phases[len + j] = mirrored(row, width, 2 * j + 1 - half);
    }
    for (; j + lanes <= len && 2 * j - half + 2 * lanes <= width; j += lanes) {
      const float* at = row + (2 * j - half);
      const auto lo = hn::LoadU(d, at), hi = hn::LoadU(d, at + lanes);
      hn::StoreU(hn::ConcatEven(d, hi, lo), d, phases + j);
      hn::StoreU(hn::ConcatOdd(d, hi, lo), d, phases + len + j);
    }
  }
#endif
  for (int p = 0; p < factor; ++p) {
    float* to = phases + size_t(p) * size_t(len);
    // Samples lo .. hi - 1 read columns inside the row; the others are mirrored.
    const int offset = p - half;
    const int lo = std::clamp(floor_div(-offset + factor - 1, factor), j, len);
    const int hi = std::clamp(floor_div(width - 1 - offset, factor) + 1, lo, len);
    for (int i = j; i < lo; ++i) to[i] = mirrored(row, width, factor * i + offset);
    for (int i = lo; i < hi; ++i) to[i] = row[factor * i + offset];
    for (int i = hi; i < len; ++i) to[i] = mirrored(row, width, factor * i + offset);
  }
}

void DecimateRow(const float* img, int width, int height, int y, int factor,
                 const DecimationKernel& k, int out_width, float* out) {
  const D64 d;
  const DF df;
  const int lanes = int(hn::Lanes(d));
  const int size = k.size, half = size / 2, last = half - (size % 2 == 0 ? 1 : 0);
  const int whole = round_up(out_width, lanes);
  // Phase samples j < whole + (size - 1) / factor are read.
  const int len = whole + (size - 1) / factor;
  thread_local std::vector<float> phases;
  phases.resize(size_t(size) * size_t(factor) * size_t(len));
  for (int v = -half; v <= last; ++v) {
    int r = y * factor + v;
    r = r < 0 ? -1 - r : r >= height ? 2 * height - r - 1 : r;
    Phases(img + size_t(r) * size_t(width), width, half, factor, len,
           phases.data() + size_t(v + half) * size_t(factor) * size_t(len));
  }
  // Where tap t (row v, column u) reads output 0's sample in the phases.
  thread_local std::vector<size_t> offsets;
  offsets.resize(size_t(size) * size_t(size));
  for (int v = 0, t = 0; v < size; ++v)
    for (int u = 0; u < size; ++u, ++t)
      offsets[size_t(t)] =
          (size_t(v) * size_t(factor) + size_t(u % factor)) * size_t(len) + size_t(u / factor);
  const float* taps = k.taps.data();
  const size_t* at = offsets.data();
  const size_t count = offsets.size();
  HWY_ALIGN float partial[hn::MaxLanes(df)];
  for (int x = 0; x < whole; x += lanes) {
    const float* base = phases.data() + size_t(x);
    V64 sum = hn::Zero(d);
    for (size_t t = 0; t < count; ++t)
      sum = hn::Add(sum,
                    hn::PromoteTo(d, hn::Mul(hn::LoadU(df, base + at[t]), hn::Set(df, taps[t]))));
    if (x + lanes <= out_width) {
      hn::StoreU(hn::DemoteTo(df, sum), df, out + x);
    } else {
      hn::Store(hn::DemoteTo(df, sum), df, partial);
      std::copy(partial, partial + (out_width - x), out + x);
    }
  }
}

}  // namespace exactvq::float_ssim::cpu::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace exactvq::float_ssim::cpu {

HWY_EXPORT(DecimateRow);

void decimate_row(const float* img, int width, int height, int y, int factor,
                  const DecimationKernel& k, int out_width, float* out) {
  HWY_DYNAMIC_DISPATCH(DecimateRow)(img, width, height, y, factor, k, out_width, out);
}

}  // namespace exactvq::float_ssim::cpu
#endif  // HWY_ONCE
