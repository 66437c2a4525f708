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

// Three rows of `count` oriented images of one width, picture row r in slot
// r % 3, each made when first asked for: the rows around the row being scored.
// Columns a row's maker leaves alone stay zero (they are never written).
template <typename T>
class HeldRows {
 public:
  // Forget the rows held (new contents), for `count` images of width w.
  void start(int w, int count) {
    if (w != width_ || count != count_) {
      rows_.assign(size_t(count), {});
      for (auto& image : rows_)
        for (auto& band : image) band.assign(size_t(3) * size_t(w), T{0});
    }
    width_ = w;
    count_ = count;
    held_[0] = held_[1] = held_[2] = -1;
  }
  // Row r made by make(r) unless held; make writes it through out(image, r).
  template <typename MakeRow>
  void need(int r, MakeRow&& make) {
    if (held_[r % 3] == r) return;
    make(r);
    held_[r % 3] = r;
  }
  OrientedRowsOut<T> out(int image, int r) {
    auto& im = rows_[size_t(image)];
    const size_t at = size_t(r % 3) * size_t(width_);
    return {{im[0].data() + at, im[1].data() + at, im[2].data() + at}};
  }
  OrientedRows<T> in(int image, int r) const {
    const auto& im = rows_[size_t(image)];
    const size_t at = size_t(r % 3) * size_t(width_);
    return {{im[0].data() + at, im[1].data() + at, im[2].data() + at}};
  }

 private:
  std::vector<std::array<std::vector<T>, 3>> rows_;
  int width_ = -1, count_ = -1;
  int held_[3] = {-1, -1, -1};
};

// Images of HeldRows: the DWT's detail bands (h, v, d) of the reference and
// the distorted, the decoupled parts, and the CSF and flattened CSF of a masker.
enum : int { kRefDetails = 0, kDisDetails = 1 };
enum : int { kRestored = 0, kAdditive = 1 };
enum : int { kCsf = 0, kFlat = 1 };

// The DWT's taps (dwt_taps) of a source's rows and columns and its vertical
// pass's lo and hi rows, made again only when the source's size changes; the
// two pictures' DWTs share them (each row's lo and hi are used up before the next).
template <typename T>
struct DwtScratch {
  std::vector<std::array<int, 4>> row_taps, col_taps;
  std::vector<T> lo, hi;
  int width = -1, height = -1;
  // For a width x height source.
  DwtScratch& fit(int w, int h) {
    if (w != width || h != height) {
      row_taps = dwt_taps(h);
      col_taps = dwt_taps(w);
      lo.assign(size_t(w), T{0});
      hi.assign(size_t(w), T{0});
      width = w;
      height = h;
    }
    return *this;
  }
};

// The working images of one scale: the DWT's low-pass bands whole (the next
// scale's input), every other band's rows three at a time.
template <typename T>
struct ScaleImages {
  DwtScratch<T> dwt;  // for the DWT of the scale's source
  BandImage<T> ref_a, dis_a;
  HeldRows<T> details;          // the reference's and the distorted's h, v, d
  HeldRows<T> decoupled;        // restored and additive parts
  HeldRows<T> masker_additive;  // CSF of the additive part: the numerator's masker
  HeldRows<T> masker_restored;  // CSF of the restored part: AIM's masker
  // Each masker's flattened rows summed over the orientations (flat_sum_row),
  // in the maskers' slots (3 rows of the band's width).
  std::vector<int32_t> flat_sum_additive, flat_sum_restored;
};

// A scale's w x h bands from its DWT on, and its numerator's and AIM's
// masking sums, per orientation, each row's sum rounded and shifted by
// ceil(log2 h) first. The DWT's rows are made in order (the a bands whole,
// the detail bands three rows at a time, the denominator's rows summed as
// they are made), and the restored and additive parts (over the filter
// region, zero outside it) and the CSF of each (the other's masker, over the
// filter region, zero outside it) as the scored rows reach them: each row
// once, while the rows around the scored one are still in the cache. The
// row routines: dwt(i, ref a row, dis a row, ref h v d rows, dis h v d rows,
// whether the h v d rows are read), output row i of both pictures' DWT (the
// detail rows are left unmade where nothing reads them: outside the filter
// region's rows, which hold the scored ones); denominator(i, ref h v d rows),
// for the scored rows;
// decouple(ref rows, dis rows, begin, end, restored out, additive out);
// csf(row of orientation b, b, begin, end, csf out, flat out);
// flat_sum(flat rows, width, out): flat_sum_row's sums over the orientations;
// mask(masking rows, width, begin, end), the row's cube sums.
template <typename T, typename Dwt, typename Denominator, typename Decouple, typename Csf,
          typename FlatSum, typename Mask>
void scale_sums(ScaleImages<T>& s, int w, int h, bool skip_aim, Dwt dwt, Denominator denominator,
                Decouple decouple, Csf csf, FlatSum flat_sum, Mask mask,
                std::array<int64_t, 3>& num, std::array<int64_t, 3>& aim) {
  const Region g = score_region(w, h);
  const Region fg = filter_region(w, h);
  const int row_shift = ceil_log2(h);
  const int64_t row_round = half_of_power(row_shift);
  const auto inside = [&](int r) { return r >= fg.top && r < fg.bottom; };
  const auto zero_row = [&](OrientedRowsOut<T> rows) {
    for (T* band : rows.band) std::fill(band, band + w, T{0});
  };
  s.ref_a.resize(w, h);
  s.dis_a.resize(w, h);
  s.details.start(w, 2);
  int made = 0;  // the DWT's rows made so far
  const auto dwt_to = [&](int r) {
    for (; made <= r; ++made) {
      s.details.need(made, [&](int i) {
        dwt(i, s.ref_a.row(i), s.dis_a.row(i), s.details.out(kRefDetails, i),
            s.details.out(kDisDetails, i), inside(i));
      });
      if (made >= g.top && made < g.bottom) denominator(made, s.details.in(kRefDetails, made));
    }
  };
  s.decoupled.start(w, 2);
  s.masker_additive.start(w, 2);
  s.masker_restored.start(w, 2);
  s.flat_sum_additive.resize(size_t(3) * size_t(w));
  s.flat_sum_restored.resize(size_t(3) * size_t(w));
  const auto sum_row = [&](std::vector<int32_t>& sums, int r) {
    return sums.data() + size_t(r % 3) * size_t(w);
  };
  // Rows are asked for in increasing order (but for row 1, row 0's mirror,
  // before row 0), so the three detail rows made last hold the one asked for.
  const auto decouple_row = [&](int r) {
    dwt_to(r);
    if (!inside(r)) {
      zero_row(s.decoupled.out(kRestored, r));
      zero_row(s.decoupled.out(kAdditive, r));
      return;
    }
    decouple(s.details.in(kRefDetails, r), s.details.in(kDisDetails, r), fg.left, fg.right,
             s.decoupled.out(kRestored, r), s.decoupled.out(kAdditive, r));
  };
  const auto csf_row = [&](HeldRows<T>& masker, std::vector<int32_t>& sums, int part, int r) {
    if (!inside(r)) {
      zero_row(masker.out(kCsf, r));
      zero_row(masker.out(kFlat, r));
    } else {
      const OrientedRows<T> src = s.decoupled.in(part, r);
      const OrientedRowsOut<T> c = masker.out(kCsf, r), f = masker.out(kFlat, r);
      for (int b = 0; b < 3; ++b) csf(src.band[b], b, fg.left, fg.right, c.band[b], f.band[b]);
    }
    flat_sum(masker.in(kFlat, r), w, sum_row(sums, r));
  };
  const auto csf_of_additive = [&](int r) {
    csf_row(s.masker_additive, s.flat_sum_additive, kAdditive, r);
  };
  const auto csf_of_restored = [&](int r) {
    csf_row(s.masker_restored, s.flat_sum_restored, kRestored, r);
  };
  num = {0, 0, 0};
  aim = {0, 0, 0};
  for (int i = g.top; i < g.bottom; ++i) {
    const int above = i == 0 ? 1 : i - 1;
    const int below = i == h - 1 ? h - 1 : i + 1;
    // Rows i - 1, i and i + 1 (or their mirrors): three slots, none evicting another.
    for (int r : {above, i, below}) {
      s.decoupled.need(r, decouple_row);
      s.masker_additive.need(r, csf_of_additive);
      if (!skip_aim) s.masker_restored.need(r, csf_of_restored);
    }
    const auto add_row = [&](int part, const HeldRows<T>& masker, std::vector<int32_t>& sums,
                             std::array<int64_t, 3>& total) {
      const MaskingRows<T> rows{s.decoupled.in(part, i), masker.in(kCsf, i),
                                masker.in(kFlat, above), masker.in(kFlat, i),
                                masker.in(kFlat, below), sum_row(sums, above),
                                sum_row(sums, i),        sum_row(sums, below)};
      const std::array<int64_t, 3> row = mask(rows, w, g.left, g.right);
      for (int b = 0; b < 3; ++b) total[b] += (row[b] + row_round) >> row_shift;
    };
    add_row(kRestored, s.masker_additive, s.flat_sum_additive, num);
    if (!skip_aim) add_row(kAdditive, s.masker_restored, s.flat_sum_restored, aim);
  }
  dwt_to(h - 1);  // the rest of the a bands, and of the denominator
}

// ---- scale 0 (16-bit bands) ----

// Scale 0's DWT of one picture, an output row at a time (dwt.h's passes).
template <typename Sample>
class Dwt0 {
 public:
  Dwt0(const RowKernels& k, const PlaneView& p, int bitdepth, DwtScratch<int16_t>& scratch)
      : k_(k), p_(p), bitdepth_(bitdepth), x_(scratch.fit(p.width, p.height)) {}
  // Row i: a into `a`; h, v, d into *details, or none of them where details is null.
  void row(int i, int16_t* a, const OrientedRowsOut<int16_t>* details) {
    const Sample* rows[4];
    for (int t = 0; t < 4; ++t) rows[t] = p_.row<Sample>(x_.row_taps[size_t(i)][t]);
    int16_t* hi = details ? x_.hi.data() : nullptr;
    if constexpr (sizeof(Sample) == 1)
      k_.dwt0_vertical8(rows, p_.width, x_.lo.data(), hi);
    else
      k_.dwt0_vertical16(rows, p_.width, bitdepth_, x_.lo.data(), hi);
    const int ow = (p_.width + 1) / 2;
    if (details)
      k_.dwt0_horizontal(x_.lo.data(), hi, x_.col_taps.data(), ow, a, details->band[1],
                         details->band[0], details->band[2]);
    else
      k_.dwt0_horizontal(x_.lo.data(), nullptr, x_.col_taps.data(), ow, a, nullptr, nullptr,
                         nullptr);
  }

 private:
  const RowKernels& k_;
  const PlaneView& p_;
  int bitdepth_;
  DwtScratch<int16_t>& x_;
};

// Scale 0's a band alone (the scale itself skipped).
template <typename Sample>
void low_pass_scale0(const RowKernels& k, const PlaneView& p, int bitdepth, BandImage<int16_t>& a,
                     DwtScratch<int16_t>& scratch) {
  Dwt0<Sample> dwt(k, p, bitdepth, scratch);
  a.resize((p.width + 1) / 2, (p.height + 1) / 2);
  for (int i = 0; i < a.height; ++i) dwt.row(i, a.row(i), nullptr);
}
void low_pass_scale0(const RowKernels& k, const PlaneView& p, int bitdepth, BandImage<int16_t>& a,
                     DwtScratch<int16_t>& scratch) {
  if (p.bytes_per_sample == 1)
    low_pass_scale0<uint8_t>(k, p, bitdepth, a, scratch);
  else
    low_pass_scale0<uint16_t>(k, p, bitdepth, a, scratch);
}

template <typename Sample>
ScaleSums sums_scale0(const RowKernels& k, ScaleImages<int16_t>& s, const PlaneView& ref,
                      const PlaneView& dist, int bitdepth, const CsfFactors& f,
                      const AdmOptions& o) {
  const int w = (ref.width + 1) / 2, h = (ref.height + 1) / 2;
  Dwt0<Sample> dwt_ref(k, ref, bitdepth, s.dwt), dwt_dis(k, dist, bitdepth, s.dwt);
  const auto dwt = [&](int i, int16_t* ref_a, int16_t* dis_a, OrientedRowsOut<int16_t> ref_details,
                       OrientedRowsOut<int16_t> dis_details, bool details_read) {
    dwt_ref.row(i, ref_a, details_read ? &ref_details : nullptr);
    dwt_dis.row(i, dis_a, details_read ? &dis_details : nullptr);
  };
  const Region g = score_region(w, h);
  const int den_shift = denominator_shift_s0(g);
  const uint64_t den_round = den_shift > 0 ? uint64_t{1} << (den_shift - 1) : 0;
  std::array<uint64_t, 3> den{0, 0, 0};
  const auto denominator = [&](int, OrientedRows<int16_t> ref_details) {
    const std::array<uint64_t, 3> row = k.denominator_row_s0(ref_details, g.left, g.right);
    for (int b = 0; b < 3; ++b) den[b] += (row[b] + den_round) >> den_shift;
  };
  const CubeShift cube = masking_cube_s0(w);
  static constexpr int kShift[3] = {15, 15, 17};
  static constexpr int32_t kRound[3] = {16384, 16384, 65535};  // libvmaf's 65535, not 65536
  const double gain_limit = o.enhn_gain_limit;
  const auto decouple = [&](OrientedRows<int16_t> r, OrientedRows<int16_t> d, int begin, int end,
                            OrientedRowsOut<int16_t> restored, OrientedRowsOut<int16_t> additive) {
    k.decouple_row_s0(r, d, begin, end, gain_limit, restored, additive);
  };
  const auto csf = [&](const int16_t* row, int b, int begin, int end, int16_t* c, int16_t* flat) {
    k.csf_row_s0(row, begin, end, f.scale0_fixed[b], kShift[b], kRound[b], c, flat);
  };
  const auto mask = [&](const MaskingRows<int16_t>& rows, int width, int begin, int end) {
    return k.masking_row_s0(rows, width, begin, end, f.scale0_fixed, cube);
  };
  std::array<int64_t, 3> num, aim;
  scale_sums(s, w, h, o.skip_aim, dwt, denominator, decouple, csf, k.flat_sum_row_s0, mask, num,
             aim);
  ScaleSums out;
  for (int b = 0; b < 3; ++b) {
    out.den[b] = den[b];
    out.num[b] = num[b];
    out.aim_num[b] = aim[b];
  }
  return out;
}

ScaleSums sums_scale0(const RowKernels& k, ScaleImages<int16_t>& s, const PlaneView& ref,
                      const PlaneView& dist, int bitdepth, const CsfFactors& f,
                      const AdmOptions& o) {
  if (ref.bytes_per_sample == 1) return sums_scale0<uint8_t>(k, s, ref, dist, bitdepth, f, o);
  return sums_scale0<uint16_t>(k, s, ref, dist, bitdepth, f, o);
}

// ---- scales 1..3 (32-bit bands) ----

// The DWT of scales 1..3 of one picture, an output row at a time, from scale
// 0's 16-bit a band at scale 1, the 32-bit one of the scale before at scales 2 and 3.
template <typename Src>
class DwtS123 {
 public:
  DwtS123(const RowKernels& k, const BandImage<Src>& src, int scale, DwtScratch<int32_t>& scratch)
      : k_(k), src_(src), scale_(scale), x_(scratch.fit(src.width, src.height)) {}
  // Row i: a into `a`; h, v, d into *details, or none of them where details is null.
  void row(int i, int32_t* a, const OrientedRowsOut<int32_t>* details) {
    const Src* rows[4];
    for (int t = 0; t < 4; ++t) rows[t] = src_.row(x_.row_taps[size_t(i)][t]);
    int32_t* hi = details ? x_.hi.data() : nullptr;
    if constexpr (sizeof(Src) == 2)
      k_.dwt_vertical_s1(rows, src_.width, x_.lo.data(), hi);
    else
      k_.dwt_vertical_s123(rows, src_.width, scale_, x_.lo.data(), hi);
    const int ow = (src_.width + 1) / 2;
    if (details)
      k_.dwt_horizontal_s123(x_.lo.data(), hi, x_.col_taps.data(), ow, scale_, a, details->band[1],
                             details->band[0], details->band[2]);
    else
      k_.dwt_horizontal_s123(x_.lo.data(), nullptr, x_.col_taps.data(), ow, scale_, a, nullptr,
                             nullptr, nullptr);
  }

 private:
  const RowKernels& k_;
  const BandImage<Src>& src_;
  int scale_;
  DwtScratch<int32_t>& x_;
};

// `s` must not hold the sources.
template <typename Src>
ScaleSums sums_scale_s123(const RowKernels& k, ScaleImages<int32_t>& s,
                          const BandImage<Src>& ref_low, const BandImage<Src>& dis_low, int scale,
                          const CsfFactors& f, const AdmOptions& o) {
  const int w = (ref_low.width + 1) / 2, h = (ref_low.height + 1) / 2;
  DwtS123<Src> dwt_ref(k, ref_low, scale, s.dwt), dwt_dis(k, dis_low, scale, s.dwt);
  const auto dwt = [&](int i, int32_t* ref_a, int32_t* dis_a, OrientedRowsOut<int32_t> ref_details,
                       OrientedRowsOut<int32_t> dis_details, bool details_read) {
    dwt_ref.row(i, ref_a, details_read ? &ref_details : nullptr);
    dwt_dis.row(i, dis_a, details_read ? &dis_details : nullptr);
  };
  const Region g = score_region(w, h);
  const int den_cube_shift = ceil_log2(g.right - g.left);
  const uint64_t den_cube_round = static_cast<uint64_t>(half_of_power(den_cube_shift));
  const int den_row_shift = ceil_log2(g.bottom - g.top);
  const uint64_t den_row_round = static_cast<uint64_t>(half_of_power(den_row_shift));
  std::array<uint64_t, 3> den{0, 0, 0};
  const auto denominator = [&](int, OrientedRows<int32_t> ref_details) {
    const std::array<uint64_t, 3> row =
        k.denominator_row_s123(ref_details, g.left, g.right, scale, den_cube_shift, den_cube_round);
    for (int b = 0; b < 3; ++b) den[b] += (row[b] + den_row_round) >> den_row_shift;
  };
  const CubeShift cube = masking_cube_s123(w);
  const uint32_t factor[3] = {f.fixed_hv[scale], f.fixed_hv[scale], f.fixed_d[scale]};
  const double gain_limit = o.enhn_gain_limit;
  const auto decouple = [&](OrientedRows<int32_t> r, OrientedRows<int32_t> d, int begin, int end,
                            OrientedRowsOut<int32_t> restored, OrientedRowsOut<int32_t> additive) {
    k.decouple_row_s123(r, d, begin, end, gain_limit, restored, additive);
  };
  const auto csf = [&](const int32_t* row, int b, int begin, int end, int32_t* c, int32_t* flat) {
    k.csf_row_s123(row, begin, end, factor[b], c, flat);
  };
  const auto mask = [&](const MaskingRows<int32_t>& rows, int width, int begin, int end) {
    return k.masking_row_s123(rows, width, begin, end, factor, cube);
  };
  std::array<int64_t, 3> num, aim;
  scale_sums(s, w, h, o.skip_aim, dwt, denominator, decouple, csf, k.flat_sum_row_s123, mask, num,
             aim);
  ScaleSums out;
  for (int b = 0; b < 3; ++b) {
    out.den[b] = den[b];
    out.num[b] = num[b];
    out.aim_num[b] = aim[b];
  }
  return out;
}

// A thread's images, kept from frame to frame: one set a scale, so that each
// keeps its size and is neither allocated nor cleared again while the
// picture size stays (BandImage::resize).
struct Workspace {
  ScaleImages<int16_t> s0;
  ScaleImages<int32_t> s[3];  // scales 1..3
};

}  // namespace

void check_adm_size(int width, int height, const char* what) {
  if (width < kMinAdmSide || height < kMinAdmSide)
    throw PictureError(
        fmt::format("{}: feature adm needs pictures of at least {}x{} luma samples, got {}x{} "
                    "(libvmaf's ADM reads "
                    "outside the picture below that, and crashes up to 16 samples a side)",
                    what, kMinAdmSide, kMinAdmSide, width, height));
}

const RowKernels& reference_row_kernels() {
  static constexpr RowKernels kReference{
      dwt0_vertical,        dwt0_vertical,   dwt0_horizontal,   dwt_vertical_s123,
      dwt_horizontal_s123,  decouple_row_s0, decouple_row_s123, csf_row_s0,
      csf_row_s123,         masking_row_s0,  masking_row_s123,  denominator_row_s0,
      denominator_row_s123, flat_sum_row_s0, flat_sum_row_s123, dwt_vertical_s1};
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
    throw PictureError(
        fmt::format("adm reference: bit depth {} with {}-byte samples is not supported", bitdepth,
                    ref.bytes_per_sample));
  const CsfFactors f = csf_factors(o);

  AdmSums sums{};
  thread_local Workspace work;
  ScaleImages<int16_t>& s0 = work.s0;
  if (o.skip_scale0) {
    low_pass_scale0(k, ref, bitdepth, s0.ref_a, s0.dwt);
    low_pass_scale0(k, dist, bitdepth, s0.dis_a, s0.dwt);
  } else {
    sums[0] = sums_scale0(k, s0, ref, dist, bitdepth, f, o);
  }
  for (int scale = 1; scale < 4; ++scale) {
    ScaleImages<int32_t>& s = work.s[scale - 1];
    if (scale == 1)
      sums[1] = sums_scale_s123(k, s, s0.ref_a, s0.dis_a, scale, f, o);
    else
      sums[size_t(scale)] =
          sums_scale_s123(k, s, work.s[scale - 2].ref_a, work.s[scale - 2].dis_a, scale, f, o);
  }
  return sums;
}

AdmScores adm_scores(const PlaneView& ref, const PlaneView& dist, int bitdepth, const AdmOptions& o,
                     const RowKernels& k) {
  return adm_scores_from_sums(adm_integer_sums(ref, dist, bitdepth, o, k), ref.width, ref.height,
                              o);
}

}  // namespace exactvq::adm
