// The psnr_hvs error sum of a plane as a Highway kernel, the twin of
// plane_error_sum_reference (reference.cpp). A lane is a block: the blocks of a
// row of blocks are taken a vector's width at a time, each lane doing the
// reference's operations on its block in the reference's order (the variance
// sums, the transform, the masking sum, the terms), so each lane's values are
// the reference's bits. The terms are then added to the plane's one binary32
// sum block by block, in the reference's order, outside the vectors.
#include "metrics/psnr_hvs/cpu/error_sum_simd.h"

#include <cmath>

#include "metrics/psnr_hvs/reference.h"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "metrics/psnr_hvs/cpu/error_sum_simd.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

HWY_BEFORE_NAMESPACE();
namespace exactvq::psnr_hvs::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

#if HWY_TARGET == HWY_SCALAR
// One-lane vectors gain nothing: the reference is the kernel.
float PlaneErrorSum(const PlaneView& ref, const PlaneView& dist, int plane) {
  return plane_error_sum_reference(ref, dist, plane);
}
#else

using DI = hn::ScalableTag<int32_t>;
using DF = hn::Rebind<float, DI>;
using VI = hn::Vec<DI>;
using VF = hn::Vec<DF>;
constexpr size_t kMaxLanes = hn::MaxLanes(DI());

// Lane-major blocks: coefficient k of lane l at [k * lanes + l].
struct Blocks {
  HWY_ALIGN int32_t ref[kCoefficients * kMaxLanes];
  HWY_ALIGN int32_t dist[kCoefficients * kMaxLanes];
  HWY_ALIGN int32_t scratch[kCoefficients * kMaxLanes];
  HWY_ALIGN float terms[kCoefficients * kMaxLanes];
  HWY_ALIGN float energy_ref[kMaxLanes];
  HWY_ALIGN float energy_dist[kMaxLanes];
};

// a / 2 toward zero: adds the sign bit before the arithmetic shift.
HWY_INLINE VI Half(VI a) {
  const DI di;
  const hn::RebindToUnsigned<DI> du;
  return hn::ShiftRight<1>(hn::Add(a, hn::BitCast(di, hn::ShiftRight<31>(hn::BitCast(du, a)))));
}

// (a * c + 2^(shift - 1)) >> shift in 32-bit lanes.
template <int kShift>
HWY_INLINE VI Lift(VI a, int32_t c) {
  const DI di;
  return hn::ShiftRight<kShift>(
      hn::Add(hn::Mul(a, hn::Set(di, c)), hn::Set(di, int32_t{1} << (kShift - 1))));
}

// fdct8 (definition.h) on lanes: x and y step `stride` vectors apart.
HWY_INLINE void Fdct8(int32_t* y, const int32_t* x, size_t stride, size_t lanes) {
  const DI di;
  VI t0 = hn::Load(di, x + 0 * stride), t4 = hn::Load(di, x + 1 * stride);
  VI t2 = hn::Load(di, x + 2 * stride), t6 = hn::Load(di, x + 3 * stride);
  VI t7 = hn::Load(di, x + 4 * stride), t3 = hn::Load(di, x + 5 * stride);
  VI t5 = hn::Load(di, x + 6 * stride), t1 = hn::Load(di, x + 7 * stride);
  t1 = hn::Sub(t0, t1);
  const VI t1h = Half(t1);
  t0 = hn::Sub(t0, t1h);
  t4 = hn::Add(t4, t5);
  const VI t4h = Half(t4);
  t5 = hn::Sub(t5, t4h);
  t3 = hn::Sub(t2, t3);
  t2 = hn::Sub(t2, Half(t3));
  t6 = hn::Add(t6, t7);
  const VI t6h = Half(t6);
  t7 = hn::Sub(t6h, t7);
  t0 = hn::Add(t0, t6h);
  t6 = hn::Sub(t0, t6);
  t2 = hn::Sub(t4h, t2);
  t4 = hn::Sub(t2, t4);
  t0 = hn::Sub(t0, Lift<15>(t4, 13573));
  t4 = hn::Add(t4, Lift<14>(t0, 11585));
  t0 = hn::Sub(t0, Lift<15>(t4, 13573));
  t6 = hn::Sub(t6, Lift<15>(t2, 21895));
  t2 = hn::Add(t2, Lift<14>(t6, 15137));
  t6 = hn::Sub(t6, Lift<15>(t2, 21895));
  t3 = hn::Add(t3, Lift<15>(t5, 19195));
  t5 = hn::Add(t5, Lift<14>(t3, 11585));
  t3 = hn::Sub(t3, Lift<13>(t5, 7489));
  t7 = hn::Sub(Half(t5), t7);
  t5 = hn::Sub(t5, t7);
  t3 = hn::Sub(t1h, t3);
  t1 = hn::Sub(t1, t3);
  t7 = hn::Add(t7, Lift<15>(t1, 3227));
  t1 = hn::Sub(t1, Lift<15>(t7, 6393));
  t7 = hn::Add(t7, Lift<15>(t1, 3227));
  t5 = hn::Add(t5, Lift<13>(t3, 2485));
  t3 = hn::Sub(t3, Lift<15>(t5, 18205));
  t5 = hn::Add(t5, Lift<13>(t3, 2485));
  hn::Store(t0, di, y + 0 * lanes);
  hn::Store(t1, di, y + 1 * lanes);
  hn::Store(t2, di, y + 2 * lanes);
  hn::Store(t3, di, y + 3 * lanes);
  hn::Store(t4, di, y + 4 * lanes);
  hn::Store(t5, di, y + 5 * lanes);
  hn::Store(t6, di, y + 6 * lanes);
  hn::Store(t7, di, y + 7 * lanes);
}

// fdct8x8 on lane-major blocks, through `scratch`.
HWY_INLINE void Fdct8x8(int32_t* block, int32_t* scratch, size_t lanes) {
  for (size_t i = 0; i < kBlock; ++i)
    Fdct8(scratch + kBlock * i * lanes, block + i * lanes, kBlock * lanes, lanes);
  for (size_t i = 0; i < kBlock; ++i)
    Fdct8(block + kBlock * i * lanes, scratch + i * lanes, kBlock * lanes, lanes);
}

// Lane v of `block`'s sample (i, j), as binary32.
HWY_INLINE VF SampleAt(const int32_t* block, int i, int j, size_t lanes) {
  return hn::ConvertTo(DF(), hn::Load(DI(), block + size_t(i * kBlock + j) * lanes));
}

// The sum over quarter (qi, qj) of the block (4x4 samples from row 4 * qi,
// column 4 * qj) of f(sample), in raster order: each accumulator sees the
// reference's order. (A function a quarter, not an array of four vectors:
// SVE's sizeless vectors cannot be array elements.)
template <typename F>
HWY_INLINE VF QuarterSum(const int32_t* block, int qi, int qj, size_t lanes, F f) {
  VF sum = hn::Zero(DF());
  for (int i = 4 * qi; i < 4 * qi + 4; ++i)
    for (int j = 4 * qj; j < 4 * qj + 4; ++j) sum = hn::Add(sum, f(SampleAt(block, i, j, lanes)));
  return sum;
}

// variance_ratio on lanes.
HWY_INLINE VF VarianceRatio(const int32_t* block, size_t lanes) {
  const DF df;
  VF mean = hn::Zero(df);
  for (int i = 0; i < kBlock; ++i)
    for (int j = 0; j < kBlock; ++j) mean = hn::Add(mean, SampleAt(block, i, j, lanes));
  mean = hn::Div(mean, hn::Set(df, 64.0f));
  VF variance = hn::Zero(df);
  for (int i = 0; i < kBlock; ++i)
    for (int j = 0; j < kBlock; ++j) {
      const VF e = hn::Sub(SampleAt(block, i, j, lanes), mean);
      variance = hn::Add(variance, hn::Mul(e, e));
    }
  variance = hn::Mul(variance, hn::Set(df, kBlockVarianceScale));
  // Quarter q = (i >= 4) + 2 * (j >= 4), as the reference numbers them.
  const auto quarter_variance = [&](int qi, int qj) {
    const VF quarter_mean =
        hn::Div(QuarterSum(block, qi, qj, lanes, [](VF v) { return v; }), hn::Set(df, 16.0f));
    const VF sum = QuarterSum(block, qi, qj, lanes, [&](VF v) {
      const VF e = hn::Sub(v, quarter_mean);
      return hn::Mul(e, e);
    });
    return hn::Mul(sum, hn::Set(df, kQuarterVarianceScale));
  };
  const VF quarters = hn::Add(
      hn::Add(hn::Add(quarter_variance(0, 0), quarter_variance(1, 0)), quarter_variance(0, 1)),
      quarter_variance(1, 1));
  // Where the variance is 0 the ratio stays 0 (the division's lane is discarded).
  return hn::IfThenElse(hn::Gt(variance, hn::Zero(df)), hn::Div(quarters, variance), variance);
}

// The masking sum of transformed lanes times the variance ratio, binary32.
HWY_INLINE VF MaskedEnergy(const int32_t* coeffs, VF ratio, const PlaneWeights& w, size_t lanes) {
  const DI di;
  const DF df;
  VF energy = hn::Zero(df);
  for (size_t k = 1; k < kCoefficients; ++k) {
    const VI c = hn::Load(di, coeffs + k * lanes);
    energy = hn::Add(energy, hn::Mul(hn::ConvertTo(df, hn::Mul(c, c)), hn::Set(df, w.mask[k])));
  }
  return hn::Mul(energy, ratio);
}

// The terms of `lanes` blocks whose samples are in b.ref and b.dist.
void BlockTerms(Blocks& b, const PlaneWeights& w, size_t lanes) {
  const DI di;
  const DF df;
  const VF ratio_ref = VarianceRatio(b.ref, lanes), ratio_dist = VarianceRatio(b.dist, lanes);
  Fdct8x8(b.ref, b.scratch, lanes);
  Fdct8x8(b.dist, b.scratch, lanes);
  hn::Store(MaskedEnergy(b.ref, ratio_ref, w, lanes), df, b.energy_ref);
  hn::Store(MaskedEnergy(b.dist, ratio_dist, w, lanes), df, b.energy_dist);
  // The thresholds, a binary64 square root each, as the reference forms them.
  HWY_ALIGN float threshold[kMaxLanes];
  for (size_t l = 0; l < lanes; ++l) {
    const float r = float(std::sqrt(double(b.energy_ref[l])) / 32.0);
    const float d = float(std::sqrt(double(b.energy_dist[l])) / 32.0);
    threshold[l] = d > r ? d : r;
  }
  const VF t = hn::Load(df, threshold);
  for (size_t k = 0; k < kCoefficients; ++k) {
    const VI diff = hn::Sub(hn::Load(di, b.ref + k * lanes), hn::Load(di, b.dist + k * lanes));
    VF err = hn::ConvertTo(df, hn::Abs(diff));
    if (k != 0) {
      const VF masked = hn::Div(t, hn::Set(df, w.mask[k]));
      err = hn::IfThenZeroElse(hn::Lt(err, masked), hn::Sub(err, masked));
    }
    const VF weighted = hn::Mul(err, hn::Set(df, w.csf[k]));
    hn::Store(hn::Mul(weighted, weighted), df, b.terms + k * lanes);
  }
}

template <typename Sample>
float PlaneErrorSumOf(const PlaneView& ref, const PlaneView& dist, int plane) {
  const size_t lanes = hn::Lanes(DI());
  const PlaneWeights w = plane_weights(plane);
  const int across = blocks_along(ref.width);
  Blocks b;
  float sum = 0;
  for (int y = 0; y < ref.height - (kBlock - 1); y += kStep)
    for (int first = 0; first < across; first += int(lanes)) {
      // Lanes past the row's last block repeat it; their terms are not added.
      const int count = across - first < int(lanes) ? across - first : int(lanes);
      for (size_t l = 0; l < lanes; ++l) {
        const int x = kStep * (first + (int(l) < count ? int(l) : count - 1));
        for (int i = 0; i < kBlock; ++i) {
          const Sample* r = ref.row<Sample>(y + i) + x;
          const Sample* d = dist.row<Sample>(y + i) + x;
          for (int j = 0; j < kBlock; ++j) {
            b.ref[size_t(i * kBlock + j) * lanes + l] = int32_t(r[j]);
            b.dist[size_t(i * kBlock + j) * lanes + l] = int32_t(d[j]);
          }
        }
      }
      BlockTerms(b, w, lanes);
      for (int l = 0; l < count; ++l)
        for (size_t k = 0; k < kCoefficients; ++k) sum += b.terms[k * lanes + size_t(l)];
    }
  return sum;
}

float PlaneErrorSum(const PlaneView& ref, const PlaneView& dist, int plane) {
  return ref.bytes_per_sample == 1 ? PlaneErrorSumOf<uint8_t>(ref, dist, plane)
                                   : PlaneErrorSumOf<uint16_t>(ref, dist, plane);
}

#endif  // HWY_TARGET == HWY_SCALAR

}  // namespace exactvq::psnr_hvs::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace exactvq::psnr_hvs {

HWY_EXPORT(PlaneErrorSum);

float plane_error_sum(const PlaneView& ref, const PlaneView& dist, int plane) {
  return HWY_DYNAMIC_DISPATCH(PlaneErrorSum)(ref, dist, plane);
}

}  // namespace exactvq::psnr_hvs
#endif  // HWY_ONCE
