// The blur before each halving of vif's pyramid (the twins of
// vif::vertical_blur and vif::horizontal_blur_even) as Highway kernels: every
// sum in uint32 lanes, the reference's uint32 sums with their wrap; the
// horizontal pass takes the even columns of two vectors. On x86 the vertical
// pass runs in int16 lanes instead, two rows a multiply-add
// (VerticalBlurPairs).
#include "metrics/vif/cpu/vif_simd.h"

#include <vector>

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "metrics/vif/cpu/blur.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include "metrics/vif/cpu/row_pairs-inl.h"

HWY_BEFORE_NAMESPACE();
namespace exactvq::vif::cpu::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

#if HWY_TARGET == HWY_SCALAR
// Keeps the one-lane target to the reference, as the other vif kernels do.
void VerticalBlur(std::span<const uint8_t* const> ref_rows,
                  std::span<const uint8_t* const> dist_rows, SampleWidth sample, int width,
                  std::span<const uint16_t> taps, Rounding round, BlurLines& out) {
  vif::vertical_blur(ref_rows, dist_rows, sample, width, taps, round, out);
}
void HorizontalBlurEven(const BlurLines& lines, int width, std::span<const uint16_t> taps,
                        std::span<uint16_t> ref_out, std::span<uint16_t> dist_out) {
  vif::horizontal_blur_even(lines, width, taps, ref_out, dist_out);
}
#else

using D32 = hn::ScalableTag<uint32_t>;
using V32 = hn::Vec<D32>;

template <typename Sample>
HWY_INLINE V32 LoadSamples(D32 d, const uint8_t* row, int x) {
  const hn::Rebind<Sample, D32> ds;
  return hn::PromoteTo(d, hn::LoadU(ds, reinterpret_cast<const Sample*>(row) + x));
}

template <typename Sample>
int VerticalBlurLanes(const uint8_t* const* ref_rows, const uint8_t* const* dist_rows, int x,
                      int width, std::span<const uint16_t> taps, Rounding round, BlurLines& out) {
  const D32 d;
  const int lanes = int(hn::Lanes(d));
  const V32 add = hn::Set(d, round.add), low16 = hn::Set(d, 0xFFFFu);
  for (; x + lanes <= width; x += lanes) {
    V32 r = hn::Zero(d), s = hn::Zero(d);
    for (size_t k = 0; k < taps.size(); ++k) {
      const V32 t = hn::Set(d, uint32_t{taps[k]});
      r = hn::Add(r, hn::Mul(t, LoadSamples<Sample>(d, ref_rows[k], x)));
      s = hn::Add(s, hn::Mul(t, LoadSamples<Sample>(d, dist_rows[k], x)));
    }
    hn::StoreU(hn::And(hn::ShiftRightSame(hn::Add(r, add), round.shift), low16), d, out.ref.at(x));
    hn::StoreU(hn::And(hn::ShiftRightSame(hn::Add(s, add), round.shift), low16), d, out.dist.at(x));
  }
  return x;
}

#if HWY_ARCH_X86 && HWY_TARGET != HWY_EMU128
// Two rows a multiply-add (row_pairs-inl.h says why x86 only).
using namespace row_pairs;  // the helpers of row_pairs-inl.h, made for these kernels

// Lanes(D16) samples of a level row from column x, biased by -2^15 to int16.
template <typename Sample>
HWY_INLINE V16 LoadBiased(const uint8_t* row, int x) {
  const D16 d16;
  const DU16 du16;
  hn::Vec<DU16> v;
  if constexpr (sizeof(Sample) == 1) {
    v = hn::PromoteTo(du16, hn::LoadU(hn::Rebind<uint8_t, DU16>(), row + x));
  } else {
    v = hn::LoadU(du16, reinterpret_cast<const uint16_t*>(row) + x);  // little-endian host
  }
  return hn::BitCast(d16, hn::Xor(v, hn::Set(du16, uint16_t{0x8000})));
}

// The blur's running sums of one pair of rows (r0, r1 of the reference, s0,
// s1 of the distorted picture) under the tap pair t: the lower and upper
// interleaved halves apart.
template <bool kVnni>
HWY_INLINE void AddRowPair(V16 r0, V16 r1, V16 s0, V16 s1, V16 t, VS32& r_l, VS32& r_u, VS32& s_l,
                           VS32& s_u) {
  const D16 d16;
  r_l = MulAddPairs<kVnni>(hn::InterleaveLower(d16, r0, r1), t, r_l);
  r_u = MulAddPairs<kVnni>(hn::InterleaveUpper(d16, r0, r1), t, r_u);
  s_l = MulAddPairs<kVnni>(hn::InterleaveLower(d16, s0, s1), t, s_l);
  s_u = MulAddPairs<kVnni>(hn::InterleaveUpper(d16, s0, s1), t, s_u);
}

// Two vectors of a blurred line from column x: the sums (lower and upper
// halves) plus `add`, in column order, shifted by the rounding and cut to 16 bits.
HWY_INLINE void StoreBlurred(VS32 l, VS32 u, V32 add, int shift, int x, EdgeLine& line) {
  const D32 d;
  const int lanes = int(hn::Lanes(d));
  const V32 low16 = hn::Set(d, 0xFFFFu);
  V32 a, b;
  InColumnOrder(hn::Add(hn::BitCast(d, l), add), hn::Add(hn::BitCast(d, u), add), a, b);
  hn::StoreU(hn::And(hn::ShiftRightSame(a, shift), low16), d, line.at(x));
  hn::StoreU(hn::And(hn::ShiftRightSame(b, shift), low16), d, line.at(x + lanes));
}

// Where the vertical passes below put a row's blurred lines: the uint32 lines
// (`lines`), or with ref16 set the horizontal pass's packed lines (biased by
// -2^15 to int16, column c at index c + half).
struct BlurSink {
  BlurLines* lines = nullptr;
  int16_t* ref16 = nullptr;
  int16_t* dist16 = nullptr;
  int half = 0;
  // Columns [x, x + Lanes(D16)) of the reference's (dist = false) or the
  // distorted picture's line from the sums' lower and upper interleaved
  // halves, plus `add`, shifted by the rounding and cut to 16 bits.
  HWY_INLINE void Put(bool dist, VS32 l, VS32 u, V32 add, int shift, int x) const {
    if (!ref16) {
      StoreBlurred(l, u, add, shift, x, dist ? lines->dist : lines->ref);
      return;
    }
    const D32 d;
    const DS32 ds;
    const V32 low16 = hn::Set(d, 0xFFFFu);
    const VS32 bias = hn::Set(ds, 32768);
    const auto value = [&](VS32 v) {
      return hn::Sub(
          hn::BitCast(ds,
                      hn::And(hn::ShiftRightSame(hn::Add(hn::BitCast(d, v), add), shift), low16)),
          bias);
    };
    // The packs join each 128-bit block's halves: its columns in order.
    hn::StoreU(hn::ReorderDemote2To(D16(), value(l), value(u)), D16(),
               (dist ? dist16 : ref16) + half + x);
  }
};

// The vertical blur in int16 lanes, two rows a multiply-add of the samples
// biased by -2^15 (each sum then lacks 2^15 * sum(taps), added back modulo
// 2^32: the reference's wrapped uint32 sum); the taps < 2^15 (kVnni:
// row_pairs::MulAddPairs). Returns the first column left.
template <typename Sample, bool kVnni>
int VerticalBlurPairs(const uint8_t* const* ref_rows, const uint8_t* const* dist_rows, int width,
                      std::span<const uint16_t> taps, Rounding round, const BlurSink& out) {
  const D32 d;
  const D16 d16;
  const DS32 ds;
  const int lanes = int(hn::Lanes(d)), lanes16 = int(hn::Lanes(d16));
  const size_t count = taps.size();
  uint32_t tap_sum = 0;
  for (const uint16_t t : taps) tap_sum += t;
  const V32 unbias = hn::Set(d, uint32_t(32768u * tap_sum) + round.add);
  const V32 low16 = hn::Set(d, 0xFFFFu);
  int x = 0;
  for (; x + lanes16 <= width; x += lanes16) {
    VS32 r_l = hn::Zero(ds), r_u = hn::Zero(ds), s_l = hn::Zero(ds), s_u = hn::Zero(ds);
    for (size_t k = 0; k < count; k += 2) {
      const size_t k1 = PairedRow(taps, k);
      const V16 t = TapPair(taps, k);
      const V16 r0 = LoadBiased<Sample>(ref_rows[k], x), r1 = LoadBiased<Sample>(ref_rows[k1], x);
      const V16 s0 = LoadBiased<Sample>(dist_rows[k], x), s1 = LoadBiased<Sample>(dist_rows[k1], x);
      AddRowPair<kVnni>(r0, r1, s0, s1, t, r_l, r_u, s_l, s_u);
    }
    out.Put(false, r_l, r_u, unbias, round.shift, x);
    out.Put(true, s_l, s_u, unbias, round.shift, x);
  }
  return x;
}

// VerticalBlurPairs for 8-bit samples under symmetric taps (an odd count n =
// 2h + 1, t_k = t_{n-1-k}): rows k and n-1-k added first (sums up to 510,
// exact in int16, no bias), the centre row alone, then two folded rows a
// multiply-add: about half the multiply-adds. Returns the first column left.
template <bool kVnni>
int VerticalBlurFolded8(const uint8_t* const* ref_rows, const uint8_t* const* dist_rows, int width,
                        std::span<const uint16_t> taps, Rounding round, const BlurSink& out) {
  const D32 d;
  const D16 d16;
  const DU16 du16;
  const DS32 ds;
  const hn::Rebind<uint8_t, DU16> d8;
  const int lanes = int(hn::Lanes(d)), lanes16 = int(hn::Lanes(d16));
  const size_t n = taps.size(), h = n / 2;
  const V32 add = hn::Set(d, round.add);
  const V32 low16 = hn::Set(d, 0xFFFFu);
  const auto load = [&](const uint8_t* row, int x) {
    return hn::BitCast(d16, hn::PromoteTo(du16, hn::LoadU(d8, row + x)));
  };
  // Folded row v (0..h) at column x.
  const auto folded = [&](const uint8_t* const* rows, size_t v, int x) {
    return v < h ? hn::Add(load(rows[v], x), load(rows[n - 1 - v], x)) : load(rows[h], x);
  };
  int x = 0;
  for (; x + lanes16 <= width; x += lanes16) {
    VS32 r_l = hn::Zero(ds), r_u = hn::Zero(ds), s_l = hn::Zero(ds), s_u = hn::Zero(ds);
    for (size_t v = 0; v <= h; v += 2) {
      // Folded rows v and v + 1 (past h: v again, under tap 0).
      const size_t v1 = v + 1 <= h ? v + 1 : v;
      const V16 t = hn::BitCast(
          d16, hn::Set(d, uint32_t{taps[v]} | (v + 1 <= h ? uint32_t{taps[v + 1]} << 16 : 0u)));
      const V16 r0 = folded(ref_rows, v, x), r1 = folded(ref_rows, v1, x);
      const V16 s0 = folded(dist_rows, v, x), s1 = folded(dist_rows, v1, x);
      AddRowPair<kVnni>(r0, r1, s0, s1, t, r_l, r_u, s_l, s_u);
    }
    out.Put(false, r_l, r_u, add, round.shift, x);
    out.Put(true, s_l, s_u, add, round.shift, x);
  }
  return x;
}
#endif  // HWY_ARCH_X86 && HWY_TARGET != HWY_EMU128

#if HWY_ARCH_X86 && HWY_TARGET != HWY_EMU128
// The vertical blur's columns [0, x) by the int16 kernels into `out`, for
// taps each below 2^15; returns x (0 for other taps).
int VerticalBlurInPairs(std::span<const uint8_t* const> ref_rows,
                        std::span<const uint8_t* const> dist_rows, SampleWidth sample, int width,
                        std::span<const uint16_t> taps, Rounding round, const BlurSink& out) {
  bool taps16 = true;
  for (const uint16_t t : taps) taps16 = taps16 && t < 32768;
  if (!taps16) return 0;
  bool symmetric = taps.size() % 2 == 1;
  for (size_t k = 0; k < taps.size() / 2; ++k)
    symmetric = symmetric && taps[k] == taps[taps.size() - 1 - k];
  return WithVnniChoice([&]<bool kVnni>() {
    if (sample == SampleWidth::k8 && symmetric)
      return VerticalBlurFolded8<kVnni>(ref_rows.data(), dist_rows.data(), width, taps, round, out);
    return sample == SampleWidth::k8
               ? VerticalBlurPairs<uint8_t, kVnni>(ref_rows.data(), dist_rows.data(), width, taps,
                                                   round, out)
               : VerticalBlurPairs<uint16_t, kVnni>(ref_rows.data(), dist_rows.data(), width, taps,
                                                    round, out);
  });
}
#endif

void VerticalBlur(std::span<const uint8_t* const> ref_rows,
                  std::span<const uint8_t* const> dist_rows, SampleWidth sample, int width,
                  std::span<const uint16_t> taps, Rounding round, BlurLines& out) {
  int x = 0;
#if HWY_ARCH_X86 && HWY_TARGET != HWY_EMU128
  x = VerticalBlurInPairs(ref_rows, dist_rows, sample, width, taps, round, BlurSink{&out});
#endif
  x = sample == SampleWidth::k8 ? VerticalBlurLanes<uint8_t>(ref_rows.data(), dist_rows.data(), x,
                                                             width, taps, round, out)
                                : VerticalBlurLanes<uint16_t>(ref_rows.data(), dist_rows.data(), x,
                                                              width, taps, round, out);
  for (; x < width; ++x) {
    uint32_t r = 0, s = 0;
    for (size_t k = 0; k < taps.size(); ++k) {
      r += taps[k] * sample_at(ref_rows[k], sample, x);
      s += taps[k] * sample_at(dist_rows[k], sample, x);
    }
    out.ref[x] = uint16_t((r + round.add) >> round.shift);
    out.dist[x] = uint16_t((s + round.add) >> round.shift);
  }
}

// Columns c, c + 2, ..., of a line: the even lanes of two vectors from c. For
// outputs j < width / 2 the last (odd, dropped) lane read is at most column
// width - 1 + half: an edge column, inside the line.
HWY_INLINE V32 EvenColumns(D32 d, const EdgeLine& line, int c) {
  const int lanes = int(hn::Lanes(d));
  return hn::ConcatEven(d, hn::LoadU(d, line.at(c + lanes)), hn::LoadU(d, line.at(c)));
}

#if HWY_ARCH_X86 && HWY_TARGET != HWY_EMU128
// The horizontal blur's even columns by pairs of taps, multiply-adds of the
// lines' values biased by -2^15 (each sum then lacks 2^15 * sum(taps), added
// back modulo 2^32; sums below 2^32 for 16-bit values); the taps < 2^15
// (kVnni: row_pairs::MulAddPairs). Output j's dword lane reads columns
// 2j - half + 2p and the next, p = 0..pairs-1: from the packed line's start
// (column -half), offset 2j + 2p, which stays below the packed columns for
// whole vectors of outputs. Returns the first output left.
template <bool kVnni>
int HorizontalBlurPairsOf(const int16_t* ref16, const int16_t* dist16, int width,
                          std::span<const uint16_t> taps, std::span<uint16_t> ref_out,
                          std::span<uint16_t> dist_out) {
  const D32 d;
  const D16 d16;
  const hn::Rebind<uint16_t, D32> du16;
  const hn::RebindToSigned<D32> di;
  const int lanes = int(hn::Lanes(d));
  const int n = width / 2;
  const size_t pairs = (taps.size() + 1) / 2;
  V16 tap_pairs[kMaxHalfTaps + 1];
  uint32_t tap_sum = 0;
  for (size_t p = 0; p < pairs; ++p) tap_pairs[p] = TapPair(taps, 2 * p);
  for (const uint16_t t : taps) tap_sum += t;
  const V32 unbias = hn::Set(d, uint32_t(32768u * tap_sum) + 32768u);
  const auto blur = [&](const int16_t* line, int j) {
    VS32 sum = hn::Zero(DS32());
    for (size_t p = 0; p < pairs; ++p)
      sum = MulAddPairs<kVnni>(hn::LoadU(d16, line + 2 * j + 2 * int(p)), tap_pairs[p], sum);
    // v >> 16 < 2^16: as int32 it demotes to uint16 unchanged.
    return hn::DemoteTo(du16,
                        hn::BitCast(di, hn::ShiftRight<16>(hn::Add(hn::BitCast(d, sum), unbias))));
  };
  int j = 0;
  for (; j + lanes <= n; j += lanes) {
    hn::StoreU(blur(ref16, j), du16, ref_out.data() + j);
    hn::StoreU(blur(dist16, j), du16, dist_out.data() + j);
  }
  return j;
}

// HorizontalBlurPairsOf of the blurred lines, packed first.
template <bool kVnni>
int HorizontalBlurPairs(const BlurLines& lines, int width, std::span<const uint16_t> taps,
                        std::span<uint16_t> ref_out, std::span<uint16_t> dist_out) {
  const int half = int(taps.size() / 2);
  thread_local std::vector<int16_t> ref16, dist16;
  SplitLine(lines.ref, -half, width + 2 * half, 0, ref16, nullptr);
  SplitLine(lines.dist, -half, width + 2 * half, 0, dist16, nullptr);
  return HorizontalBlurPairsOf<kVnni>(ref16.data(), dist16.data(), width, taps, ref_out, dist_out);
}
#endif  // HWY_ARCH_X86 && HWY_TARGET != HWY_EMU128

void HorizontalBlurEven(const BlurLines& lines, int width, std::span<const uint16_t> taps,
                        std::span<uint16_t> ref_out, std::span<uint16_t> dist_out) {
  const D32 d;
  const hn::Rebind<uint16_t, D32> d16;
  const hn::RebindToSigned<D32> di;
  const int lanes = int(hn::Lanes(d));
  const int half = int(taps.size() / 2);
  const int n = width / 2;
  const V32 add = hn::Set(d, 32768u);
  int j = 0;
#if HWY_ARCH_X86 && HWY_TARGET != HWY_EMU128
  bool taps16 = taps.size() % 2 == 1 && taps.size() <= 2 * kMaxHalfTaps + 1;
  for (const uint16_t t : taps) taps16 = taps16 && t < 32768;
  if (taps16) {
    j = WithVnniChoice([&]<bool kVnni>() {
      return HorizontalBlurPairs<kVnni>(lines, width, taps, ref_out, dist_out);
    });
  }
#endif
  for (; j + lanes <= n; j += lanes) {
    V32 r = hn::Zero(d), s = hn::Zero(d);
    for (size_t k = 0; k < taps.size(); ++k) {
      const int c = 2 * j - half + int(k);
      const V32 t = hn::Set(d, uint32_t{taps[k]});
      r = hn::Add(r, hn::Mul(t, EvenColumns(d, lines.ref, c)));
      s = hn::Add(s, hn::Mul(t, EvenColumns(d, lines.dist, c)));
    }
    // v >> 16 < 2^16: as int32 it demotes to uint16 unchanged.
    hn::StoreU(hn::DemoteTo(d16, hn::BitCast(di, hn::ShiftRight<16>(hn::Add(r, add)))), d16,
               ref_out.data() + j);
    hn::StoreU(hn::DemoteTo(d16, hn::BitCast(di, hn::ShiftRight<16>(hn::Add(s, add)))), d16,
               dist_out.data() + j);
  }
  for (; j < n; ++j) {
    uint32_t r = 0, s = 0;
    for (size_t k = 0; k < taps.size(); ++k) {
      const int c = 2 * j - half + int(k);
      r += taps[k] * lines.ref[c];
      s += taps[k] * lines.dist[c];
    }
    ref_out[size_t(j)] = uint16_t((r + 32768) >> 16);
    dist_out[size_t(j)] = uint16_t((s + 32768) >> 16);
  }
}

#endif  // HWY_TARGET == HWY_SCALAR

// blur_row: on x86, for taps each below 2^15 in an odd count of at most 17,
// the vertical pass straight into the horizontal pass's packed lines, their
// edge columns mirrored there; else the two passes one at a time.
void BlurRow(std::span<const uint8_t* const> ref_rows, std::span<const uint8_t* const> dist_rows,
             SampleWidth sample, int width, std::span<const uint16_t> taps, Rounding round,
             BlurLines& lines, std::span<uint16_t> ref_out, std::span<uint16_t> dist_out) {
  const int half = int(taps.size() / 2);
#if HWY_ARCH_X86 && HWY_TARGET != HWY_EMU128 && HWY_TARGET != HWY_SCALAR
  // From 2 * half + 1 columns on the mirror reads only the row's own columns.
  if (taps.size() % 2 == 1 && taps.size() <= 2 * kMaxHalfTaps + 1 && width > 2 * half) {
    thread_local std::vector<int16_t> ref16, dist16;
    const int count = width + 2 * half;
    ref16.resize(size_t(count));
    dist16.resize(size_t(count));
    const int x = VerticalBlurInPairs(ref_rows, dist_rows, sample, width, taps, round,
                                      BlurSink{nullptr, ref16.data(), dist16.data(), half});
    if (x > 0) {
      const auto packed = [](uint32_t v) { return int16_t(uint16_t(v ^ 0x8000u)); };
      const auto value = [](int16_t v) { return uint32_t(uint16_t(v)) ^ 0x8000u; };
      for (int c = x; c < width; ++c) {
        uint32_t r = 0, s = 0;
        for (size_t k = 0; k < taps.size(); ++k) {
          r += taps[k] * sample_at(ref_rows[k], sample, c);
          s += taps[k] * sample_at(dist_rows[k], sample, c);
        }
        ref16[size_t(half + c)] = packed(uint16_t((r + round.add) >> round.shift));
        dist16[size_t(half + c)] = packed(uint16_t((s + round.add) >> round.shift));
      }
      for (int16_t* at : {ref16.data() + half, dist16.data() + half})
        for (int f = 1; f <= half; ++f) {
          at[-f] = at[f];
          at[width - 1 + f] = at[width - 1 - f];
        }
      int j = 0;
      bool taps16 = true;
      for (const uint16_t t : taps) taps16 = taps16 && t < 32768;
      if (taps16) {
        j = WithVnniChoice([&]<bool kVnni>() {
          return HorizontalBlurPairsOf<kVnni>(ref16.data(), dist16.data(), width, taps, ref_out,
                                              dist_out);
        });
      }
      for (; j < width / 2; ++j) {
        uint32_t r = 0, s = 0;
        for (size_t k = 0; k < taps.size(); ++k) {
          const size_t i = size_t(2 * j + int(k));  // column 2j - half + k
          r += taps[k] * value(ref16[i]);
          s += taps[k] * value(dist16[i]);
        }
        ref_out[size_t(j)] = uint16_t((r + 32768) >> 16);
        dist_out[size_t(j)] = uint16_t((s + 32768) >> 16);
      }
      return;
    }
  }
#endif
  VerticalBlur(ref_rows, dist_rows, sample, width, taps, round, lines);
  mirror_edge_columns(lines.ref, width, half);
  mirror_edge_columns(lines.dist, width, half);
  HorizontalBlurEven(lines, width, taps, ref_out, dist_out);
}

}  // namespace exactvq::vif::cpu::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace exactvq::vif::cpu {

HWY_EXPORT(VerticalBlur);
HWY_EXPORT(HorizontalBlurEven);
HWY_EXPORT(BlurRow);

void blur_row(std::span<const uint8_t* const> ref_rows, std::span<const uint8_t* const> dist_rows,
              SampleWidth sample, int width, std::span<const uint16_t> taps, Rounding round,
              BlurLines& lines, std::span<uint16_t> ref_out, std::span<uint16_t> dist_out) {
  HWY_DYNAMIC_DISPATCH(BlurRow)
  (ref_rows, dist_rows, sample, width, taps, round, lines, ref_out, dist_out);
}

void vertical_blur(std::span<const uint8_t* const> ref_rows,
                   std::span<const uint8_t* const> dist_rows, SampleWidth sample, int width,
                   std::span<const uint16_t> taps, Rounding round, BlurLines& out) {
  HWY_DYNAMIC_DISPATCH(VerticalBlur)(ref_rows, dist_rows, sample, width, taps, round, out);
}

void horizontal_blur_even(const BlurLines& lines, int width, std::span<const uint16_t> taps,
                          std::span<uint16_t> ref_out, std::span<uint16_t> dist_out) {
  HWY_DYNAMIC_DISPATCH(HorizontalBlurEven)(lines, width, taps, ref_out, dist_out);
}

}  // namespace exactvq::vif::cpu
#endif  // HWY_ONCE
