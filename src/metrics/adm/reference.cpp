#include "metrics/adm/reference.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <vector>

#include <fmt/format.h>

#include "core/error.h"
#include "metrics/adm/band.h"
#include "metrics/adm/csf.h"
#include "metrics/adm/csf_factors.h"
#include "metrics/adm/decouple.h"
#include "metrics/adm/denominator.h"
#include "metrics/adm/dwt.h"
#include "metrics/adm/masking.h"
#include "metrics/adm/row_kernels.h"
#include "metrics/adm/scale_shifts.h"

namespace exactvq::adm {

namespace {

template <typename T>
OrientedRows<T> rows_of(const Oriented<T>& o, int i) {
  return {{o.band[0].row(i), o.band[1].row(i), o.band[2].row(i)}};
}
template <typename T>
OrientedRowsOut<T> rows_of(Oriented<T>& o, int i) {
  return {{o.band[0].row(i), o.band[1].row(i), o.band[2].row(i)}};
}
template <typename T>
OrientedRows<T> detail_rows(const Subbands<T>& s, int i) {
  return {{s.h.row(i), s.v.row(i), s.d.row(i)}};
}

// The masker's CSF and flattened CSF rows around the row being scored: three
// rows of each orientation, picture row r in slot r % 3, made when first read.
// Columns outside the filter region are never written and stay zero, as are
// rows outside it, as the whole bands of the CSF would be.
template <typename T>
class CsfRows {
 public:
  // Forget the rows held (a new masker), at band width w.
  void start(int w) {
    if (w != width_)
      for (int b = 0; b < 3; ++b) {
        csf_[b].assign(size_t(3) * size_t(w), T{0});
        flat_[b].assign(size_t(3) * size_t(w), T{0});
      }
    width_ = w;
    held_[0] = held_[1] = held_[2] = -1;
  }
  // Row r, made by make(r, csf, flat) (rows of the three orientations) unless held.
  template <typename MakeRow>
  void need(int r, MakeRow&& make) {
    const int slot = r % 3;
    if (held_[slot] == r) return;
    make(r, rows(csf_, slot), rows(flat_, slot));
    held_[slot] = r;
  }
  OrientedRows<T> csf(int r) const { return rows(csf_, r % 3); }
  OrientedRows<T> flat(int r) const { return rows(flat_, r % 3); }

 private:
  OrientedRowsOut<T> rows(std::vector<T> (&band)[3], int slot) {
    const size_t at = size_t(slot) * size_t(width_);
    return {{band[0].data() + at, band[1].data() + at, band[2].data() + at}};
  }
  OrientedRows<T> rows(const std::vector<T> (&band)[3], int slot) const {
    const size_t at = size_t(slot) * size_t(width_);
    return {{band[0].data() + at, band[1].data() + at, band[2].data() + at}};
  }
  std::vector<T> csf_[3], flat_[3];
  int width_ = -1;
  int held_[3] = {-1, -1, -1};
};

// The working images of one scale.
template <typename T>
struct ScaleImages {
  Subbands<T> ref, dis;
  Oriented<T> restored, additive;
  CsfRows<T> masker;  // the masker's CSF, a few rows at a time
};

template <typename T, typename DecoupleRow>
void decouple(ScaleImages<T>& s, double gain_limit, DecoupleRow row_fn) {
  const int w = s.ref.h.width, h = s.ref.h.height;
  s.restored.resize(w, h);
  s.additive.resize(w, h);
  const Region g = filter_region(w, h);
  for (int i = g.top; i < g.bottom; ++i)
    row_fn(detail_rows(s.ref, i), detail_rows(s.dis, i), g.left, g.right, gain_limit,
           rows_of(s.restored, i), rows_of(s.additive, i));
}

// The masking sums of `src` against the CSF of `masker`, per orientation, each
// row's sum rounded and shifted by ceil(log2 h) first. The masker's CSF is
// made row by row as the scored rows reach it, by csf_row(a row of the
// masker's orientation b, b, columns [left, right), csf out, flat out), over
// the filter region (zero outside it): each row once, while it is still in the cache.
template <typename T, typename Factor, typename CsfRow, typename MaskRow>
std::array<int64_t, 3> masking_sums(ScaleImages<T>& s, const Oriented<T>& src,
                                    const Oriented<T>& masker, CsfRow csf_row,
                                    const Factor factor[3], const CubeShift& cube, MaskRow row_fn) {
  const int w = src.band[0].width, h = src.band[0].height;
  const Region g = score_region(w, h);
  const Region fg = filter_region(w, h);
  const int row_shift = ceil_log2(h);
  const int64_t row_round = half_of_power(row_shift);
  CsfRows<T>& csf = s.masker;
  csf.start(w);
  const auto make = [&](int r, OrientedRowsOut<T> csf_out, OrientedRowsOut<T> flat_out) {
    for (int b = 0; b < 3; ++b) {
      if (r < fg.top || r >= fg.bottom) {
        std::fill(csf_out.band[b], csf_out.band[b] + w, T{0});
        std::fill(flat_out.band[b], flat_out.band[b] + w, T{0});
      } else {
        csf_row(masker.band[b].row(r), b, fg.left, fg.right, csf_out.band[b], flat_out.band[b]);
      }
    }
  };
  std::array<int64_t, 3> total{0, 0, 0};
  for (int i = g.top; i < g.bottom; ++i) {
    const int above = i == 0 ? 1 : i - 1;
    const int below = i == h - 1 ? h - 1 : i + 1;
    csf.need(above, make);
    csf.need(i, make);
    csf.need(below, make);
    const MaskingRows<T> rows{rows_of(src, i), csf.csf(i), csf.flat(above), csf.flat(i),
                              csf.flat(below)};
    const std::array<int64_t, 3> row = row_fn(rows, w, g.left, g.right, factor, cube);
    for (int b = 0; b < 3; ++b) total[b] += (row[b] + row_round) >> row_shift;
  }
  return total;
}

// ---- scale 0 (16-bit bands) ----

template <typename Sample>
void dwt_scale0(const RowKernels& k, const PlaneView& p, int bitdepth, bool low_only,
                Subbands<int16_t>& out) {
  const int w = p.width, h = p.height;
  const auto rows_taps = dwt_taps(h);
  const auto col_taps = dwt_taps(w);
  const int ow = (w + 1) / 2, oh = (h + 1) / 2;
  out.resize(ow, oh);
  std::vector<int16_t> lo(static_cast<size_t>(w)), hi(static_cast<size_t>(w));
  for (int i = 0; i < oh; ++i) {
    const Sample* rows[4];
    for (int t = 0; t < 4; ++t) rows[t] = p.row<Sample>(rows_taps[i][t]);
    if constexpr (sizeof(Sample) == 1)
      k.dwt0_vertical8(rows, w, lo.data(), low_only ? nullptr : hi.data());
    else
      k.dwt0_vertical16(rows, w, bitdepth, lo.data(), low_only ? nullptr : hi.data());
    if (low_only)
      k.dwt0_horizontal(lo.data(), nullptr, col_taps.data(), ow, out.a.row(i), nullptr, nullptr,
                        nullptr);
    else
      k.dwt0_horizontal(lo.data(), hi.data(), col_taps.data(), ow, out.a.row(i), out.v.row(i),
                        out.h.row(i), out.d.row(i));
  }
}

void dwt_scale0(const RowKernels& k, const PlaneView& p, int bitdepth, bool low_only,
                Subbands<int16_t>& out) {
  if (p.bytes_per_sample == 1)
    dwt_scale0<uint8_t>(k, p, bitdepth, low_only, out);
  else
    dwt_scale0<uint16_t>(k, p, bitdepth, low_only, out);
}

std::array<uint64_t, 3> denominator_sums_s0(const RowKernels& k, const Subbands<int16_t>& ref) {
  const int w = ref.h.width, h = ref.h.height;
  const Region g = score_region(w, h);
  const int shift = denominator_shift_s0(g);
  const uint64_t round = shift > 0 ? uint64_t{1} << (shift - 1) : 0;
  std::array<uint64_t, 3> total{0, 0, 0};
  for (int i = g.top; i < g.bottom; ++i) {
    const std::array<uint64_t, 3> row = k.denominator_row_s0(detail_rows(ref, i), g.left, g.right);
    for (int b = 0; b < 3; ++b) total[b] += (row[b] + round) >> shift;
  }
  return total;
}

// The masking sums of src against the CSF of masker at scale 0.
std::array<int64_t, 3> numerator_sums_s0(const RowKernels& k, ScaleImages<int16_t>& s,
                                         const Oriented<int16_t>& src,
                                         const Oriented<int16_t>& masker, const CsfFactors& f) {
  const int w = src.band[0].width;
  const CubeShift cube = masking_cube_s0(w);
  static constexpr int kShift[3] = {15, 15, 17};
  static constexpr int32_t kRound[3] = {16384, 16384, 65535};  // libvmaf's 65535, not 65536
  const auto csf_row = [&](const int16_t* row, int b, int left, int right, int16_t* csf,
                           int16_t* flat) {
    k.csf_row_s0(row, left, right, f.scale0_fixed[b], kShift[b], kRound[b], csf, flat);
  };
  return masking_sums(s, src, masker, csf_row, f.scale0_fixed, cube, k.masking_row_s0);
}

ScaleSums sums_scale0(const RowKernels& k, ScaleImages<int16_t>& s, const CsfFactors& f,
                      const AdmOptions& o) {
  ScaleSums out;
  decouple(s, o.enhn_gain_limit, k.decouple_row_s0);
  const std::array<uint64_t, 3> den = denominator_sums_s0(k, s.ref);
  const std::array<int64_t, 3> num = numerator_sums_s0(k, s, s.restored, s.additive, f);
  std::array<int64_t, 3> aim{0, 0, 0};
  if (!o.skip_aim) aim = numerator_sums_s0(k, s, s.additive, s.restored, f);
  for (int b = 0; b < 3; ++b) {
    out.den[b] = den[b];
    out.num[b] = num[b];
    out.aim_num[b] = aim[b];
  }
  return out;
}

// ---- scales 1..3 (32-bit bands) ----

// `out` must not hold `src`.
void dwt_scale_s123(const RowKernels& k, const BandImage<int32_t>& src, int scale,
                    Subbands<int32_t>& out) {
  const int w = src.width, h = src.height;
  const auto rows_taps = dwt_taps(h);
  const auto col_taps = dwt_taps(w);
  const int ow = (w + 1) / 2, oh = (h + 1) / 2;
  out.resize(ow, oh);
  std::vector<int32_t> lo(static_cast<size_t>(w)), hi(static_cast<size_t>(w));
  for (int i = 0; i < oh; ++i) {
    const int32_t* rows[4];
    for (int t = 0; t < 4; ++t) rows[t] = src.row(rows_taps[i][t]);
    k.dwt_vertical_s123(rows, w, scale, lo.data(), hi.data());
    k.dwt_horizontal_s123(lo.data(), hi.data(), col_taps.data(), ow, scale, out.a.row(i),
                          out.v.row(i), out.h.row(i), out.d.row(i));
  }
}

std::array<uint64_t, 3> denominator_sums_s123(const RowKernels& k, const Subbands<int32_t>& ref,
                                              int scale) {
  const int w = ref.h.width, h = ref.h.height;
  const Region g = score_region(w, h);
  const int cube_shift = ceil_log2(g.right - g.left);
  const uint64_t cube_round = static_cast<uint64_t>(half_of_power(cube_shift));
  const int row_shift = ceil_log2(g.bottom - g.top);
  const uint64_t row_round = static_cast<uint64_t>(half_of_power(row_shift));
  std::array<uint64_t, 3> total{0, 0, 0};
  for (int i = g.top; i < g.bottom; ++i) {
    const std::array<uint64_t, 3> row =
        k.denominator_row_s123(detail_rows(ref, i), g.left, g.right, scale, cube_shift, cube_round);
    for (int b = 0; b < 3; ++b) total[b] += (row[b] + row_round) >> row_shift;
  }
  return total;
}

// The masking sums of src against the CSF of masker at scales 1..3.
std::array<int64_t, 3> numerator_sums_s123(const RowKernels& k, ScaleImages<int32_t>& s,
                                           const Oriented<int32_t>& src,
                                           const Oriented<int32_t>& masker, int scale,
                                           const CsfFactors& f) {
  const int w = src.band[0].width;
  const CubeShift cube = masking_cube_s123(w);
  const uint32_t factor[3] = {f.fixed_hv[scale], f.fixed_hv[scale], f.fixed_d[scale]};
  const auto csf_row = [&](const int32_t* row, int b, int left, int right, int32_t* csf,
                           int32_t* flat) {
    k.csf_row_s123(row, left, right, factor[b], csf, flat);
  };
  return masking_sums(s, src, masker, csf_row, factor, cube, k.masking_row_s123);
}

ScaleSums sums_scale_s123(const RowKernels& k, ScaleImages<int32_t>& s, int scale,
                          const CsfFactors& f, const AdmOptions& o) {
  ScaleSums out;
  decouple(s, o.enhn_gain_limit, k.decouple_row_s123);
  const std::array<uint64_t, 3> den = denominator_sums_s123(k, s.ref, scale);
  const std::array<int64_t, 3> num = numerator_sums_s123(k, s, s.restored, s.additive, scale, f);
  std::array<int64_t, 3> aim{0, 0, 0};
  if (!o.skip_aim) aim = numerator_sums_s123(k, s, s.additive, s.restored, scale, f);
  for (int b = 0; b < 3; ++b) {
    out.den[b] = den[b];
    out.num[b] = num[b];
    out.aim_num[b] = aim[b];
  }
  return out;
}

void widen(const BandImage<int16_t>& b, BandImage<int32_t>& out) {
  out.resize(b.width, b.height);
  std::copy(b.samples.begin(), b.samples.end(), out.samples.begin());
}

// A thread's images, kept from frame to frame: one set a scale, so that each
// keeps its size and is neither allocated nor cleared again while the
// picture size stays (BandImage::resize).
struct Workspace {
  ScaleImages<int16_t> s0;
  ScaleImages<int32_t> s[3];            // scales 1..3
  BandImage<int32_t> ref_low, dis_low;  // scale 0's a bands, widened
};

}  // namespace

void check_adm_size(int width, int height, const char* what) {
  if (width < kMinAdmSide || height < kMinAdmSide)
    throw InputError(
        fmt::format("{}: feature adm needs pictures of at least {}x{} luma samples, got {}x{} "
                    "(libvmaf's ADM reads "
                    "outside the picture below that, and crashes up to 16 samples a side)",
                    what, kMinAdmSide, kMinAdmSide, width, height));
}

const RowKernels& reference_row_kernels() {
  static constexpr RowKernels kReference{
      dwt0_vertical,       dwt0_vertical,   dwt0_horizontal,   dwt_vertical_s123,
      dwt_horizontal_s123, decouple_row_s0, decouple_row_s123, csf_row_s0,
      csf_row_s123,        masking_row_s0,  masking_row_s123,  denominator_row_s0,
      denominator_row_s123};
  return kReference;
}

AdmScores adm_reference(const PlaneView& ref, const PlaneView& dist, int bitdepth,
                        const AdmOptions& o) {
  return adm_scores(ref, dist, bitdepth, o, reference_row_kernels());
}

AdmSums adm_integer_sums(const PlaneView& ref, const PlaneView& dist, int bitdepth,
                         const AdmOptions& o, const RowKernels& k) {
  check_adm_size(ref.width, ref.height, "adm reference");
  if (dist.width != ref.width || dist.height != ref.height)
    throw InputError(fmt::format("adm reference: distorted picture is {}x{}, reference {}x{}",
                                 dist.width, dist.height, ref.width, ref.height));
  if (bitdepth < 8 || bitdepth > 16 || ref.bytes_per_sample != (bitdepth > 8 ? 2 : 1) ||
      dist.bytes_per_sample != ref.bytes_per_sample)
    throw InputError(
        fmt::format("adm reference: bit depth {} with {}-byte samples is not supported", bitdepth,
                    ref.bytes_per_sample));
  const CsfFactors f = csf_factors(o);

  AdmSums sums{};
  thread_local Workspace work;
  ScaleImages<int16_t>& s0 = work.s0;
  dwt_scale0(k, ref, bitdepth, o.skip_scale0, s0.ref);
  dwt_scale0(k, dist, bitdepth, o.skip_scale0, s0.dis);
  if (!o.skip_scale0) sums[0] = sums_scale0(k, s0, f, o);

  widen(s0.ref.a, work.ref_low);
  widen(s0.dis.a, work.dis_low);
  const BandImage<int32_t>* ref_low = &work.ref_low;
  const BandImage<int32_t>* dis_low = &work.dis_low;
  for (int scale = 1; scale < 4; ++scale) {
    ScaleImages<int32_t>& s = work.s[scale - 1];
    dwt_scale_s123(k, *ref_low, scale, s.ref);
    dwt_scale_s123(k, *dis_low, scale, s.dis);
    sums[size_t(scale)] = sums_scale_s123(k, s, scale, f, o);
    ref_low = &s.ref.a;
    dis_low = &s.dis.a;
  }
  return sums;
}

AdmScores adm_scores(const PlaneView& ref, const PlaneView& dist, int bitdepth, const AdmOptions& o,
                     const RowKernels& k) {
  return adm_scores_from_sums(adm_integer_sums(ref, dist, bitdepth, o, k), ref.width, ref.height,
                              o);
}

}  // namespace exactvq::adm
