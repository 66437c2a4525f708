// Rows of adm's CPU SIMD routines beside its scalar reference (metrics/adm/):
// each row routine of cpu/adm_simd.h against the one it twins, and the whole
// frame's scores with the SIMD row table against adm_reference.
#include <algorithm>
#include <array>
#include <limits>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "cpu_rows.h"
#include "metrics/adm/cpu/adm_simd.h"
#include "metrics/adm/reference.h"
#include "ssim/plane_fixture.h"

namespace exactvq::twins {
namespace {

using test::Pattern;
const char* const kPatternNames[] = {"random", "zero", "max", "alternating", "smooth"};

// Values of a band row: uniform over [lo, hi], or the extremes, or zero.
enum BandFill { kUniform, kExtremes, kZeros, kSmall };
const char* const kBandFillNames[] = {"uniform", "extremes", "zeros", "small"};

template <typename T>
std::vector<T> band_values(size_t n, int64_t lo, int64_t hi, int fill, std::mt19937_64& rng) {
  std::vector<T> v(n);
  for (T& x : v) {
    switch (fill) {
      case kUniform:
        x = T(lo + int64_t(rng() % uint64_t(hi - lo + 1)));
        break;
      case kExtremes:
        x = T(rng() & 1 ? hi - int64_t(rng() % 2) : lo + int64_t(rng() % 2));
        break;
      case kZeros:
        x = T(rng() % 8 == 0 ? int64_t(rng() % 3) - 1 : 0);
        break;
      default:
        x = T(int64_t(rng() % 129) - 64);
        break;
    }
  }
  return v;
}

// ---- adm.dwt0_vertical: one output row per picture row i from rows i .. i + 3
// (wrapped). case.a: 1 for low-pass only.
Prepared dwt0_vertical_case(const Case& c) {
  std::mt19937_64 rng(c.seed);
  auto plane = std::make_shared<test::OwnedPlane>(
      test::make_plane(c.width, c.height, c.bits, Pattern(c.fill), rng));
  const bool low_only = c.a != 0;
  const auto run = [plane, low_only, bits = c.bits](bool twin) {
    const PlaneView p = plane->view();
    const size_t w = size_t(p.width);
    thread_local std::vector<int16_t> lo,
        hi;  // kept between runs: --bench times the kernels, not page faults
    lo.assign(w * size_t(p.height), 0);
    hi.assign(w * size_t(p.height), 0);
    const adm::RowKernels& k = twin ? adm::cpu::simd_row_kernels() : adm::reference_row_kernels();
    for (int i = 0; i < p.height; ++i) {
      int16_t* l = lo.data() + w * size_t(i);
      int16_t* h = low_only ? nullptr : hi.data() + w * size_t(i);
      if (bits == 8) {
        const uint8_t* rows[4];
        for (int t = 0; t < 4; ++t) rows[t] = p.row<uint8_t>((i + t) % p.height);
        k.dwt0_vertical8(rows, p.width, l, h);
      } else {
        const uint16_t* rows[4];
        for (int t = 0; t < 4; ++t) rows[t] = p.row<uint16_t>((i + t) % p.height);
        k.dwt0_vertical16(rows, p.width, bits, l, h);
      }
    }
    Bytes b;
    put(b, lo);
    put(b, hi);
    return b;
  };
  return {[run] { return run(true); }, [run] { return run(false); }};
}

std::vector<Case> dwt0_vertical_cases() {
  std::mt19937_64 rng(0x5eed'0401);
  std::vector<Case> all;
  auto add = [&](int w, int h, int bits, int fill, int low_only, bool timed = false) {
    Case c;
    c.seed = case_seed(0x5eed'0401, all.size());
    c.width = w;
    c.height = h;
    c.bits = bits;
    c.fill = fill;
    c.a = low_only;
    c.timed = timed;
    c.what = std::to_string(w) + "x" + std::to_string(h) + " " + std::to_string(bits) + "-bit " +
             kPatternNames[fill] + (low_only ? ", low-pass only" : "");
    all.push_back(c);
  };
  for (int bits = 8; bits <= 16; ++bits) {
    for (int w = 1; w <= 70; ++w) add(w, 1 + int(rng() % 6), bits, 0, int(rng() % 2));
    for (int fill = 1; fill < 5; ++fill)
      for (int w : {1, 7, 8, 9, 16, 17, 33, 64, 70, 1920}) add(w, 4, bits, fill, 0);
  }
  add(1920, 1080, 8, 0, 0, true);
  add(1920, 1080, 10, 0, 0, true);
  return all;
}

// ---- adm.dwt0_horizontal: case.width lo/hi values per row (the vertical
// pass's row length), case.height rows; case.a: 1 for low-pass only.
Prepared dwt0_horizontal_case(const Case& c) {
  std::mt19937_64 rng(c.seed);
  struct In {
    std::vector<int16_t> lo, hi;
    std::vector<std::array<int, 4>> taps;
  };
  const size_t n = size_t(c.width) * size_t(c.height);
  auto in = std::make_shared<In>(In{band_values<int16_t>(n, -32768, 32767, c.fill, rng),
                                    band_values<int16_t>(n, -32768, 32767, c.fill, rng),
                                    adm::dwt_taps(c.width)});
  const bool low_only = c.a != 0;
  const int w = c.width, rows = c.height;
  const auto run = [in, low_only, w, rows](bool twin) {
    const int ow = (w + 1) / 2;
    const size_t out = size_t(ow) * size_t(rows);
    thread_local std::vector<int16_t> a, v, h, d;
    for (auto* x : {&a, &v, &h, &d}) x->assign(out, 0);
    const adm::RowKernels& k = twin ? adm::cpu::simd_row_kernels() : adm::reference_row_kernels();
    for (int i = 0; i < rows; ++i) {
      const size_t at = size_t(ow) * size_t(i), from = size_t(w) * size_t(i);
      if (low_only)
        k.dwt0_horizontal(in->lo.data() + from, nullptr, in->taps.data(), ow, a.data() + at,
                          nullptr, nullptr, nullptr);
      else
        k.dwt0_horizontal(in->lo.data() + from, in->hi.data() + from, in->taps.data(), ow,
                          a.data() + at, v.data() + at, h.data() + at, d.data() + at);
    }
    Bytes b;
    put(b, a);
    put(b, v);
    put(b, h);
    put(b, d);
    return b;
  };
  return {[run] { return run(true); }, [run] { return run(false); }};
}

std::vector<Case> dwt0_horizontal_cases() {
  std::mt19937_64 rng(0x5eed'0402);
  std::vector<Case> all;
  auto add = [&](int w, int h, int fill, int low_only, bool timed = false) {
    Case c;
    c.seed = case_seed(0x5eed'0402, all.size());
    c.width = w;
    c.height = h;
    c.fill = fill;
    c.a = low_only;
    c.timed = timed;
    c.what = std::to_string(w) + " values x " + std::to_string(h) + " rows, " +
             kBandFillNames[fill] + (low_only ? ", low-pass only" : "");
    all.push_back(c);
  };
  for (int fill = 0; fill < 4; ++fill) {
    for (int w = 2; w <= 70; ++w) add(w, 1 + int(rng() % 4), fill, int(rng() % 2));
    for (int w : {96, 97, 129, 130, 131, 255, 256, 257, 1919, 1920})
      add(w, 3, fill, int(rng() % 2));
  }
  add(1920, 540, kUniform, 0, true);
  return all;
}

// ---- adm.dwt_s123: both passes of scales 1..3 on int32 bands: the vertical
// pass over rows i .. i + 3 (wrapped) of a case.width x case.height band,
// then the horizontal pass over its lo and hi rows. case.a: the scale.
Prepared dwt_s123_case(const Case& c) {
  std::mt19937_64 rng(c.seed);
  struct In {
    std::vector<int32_t> band;
    std::vector<std::array<int, 4>> taps;
  };
  const size_t n = size_t(c.width) * size_t(c.height);
  auto in = std::make_shared<In>(In{band_values<int32_t>(n, INT32_MIN, INT32_MAX, c.fill, rng),
                                    adm::dwt_taps(std::max(c.width, 2))});
  const int w = c.width, rows = c.height, scale = c.a;
  const auto run = [in, w, rows, scale](bool twin) {
    const adm::RowKernels& k = twin ? adm::cpu::simd_row_kernels() : adm::reference_row_kernels();
    const int ow = (w + 1) / 2;
    thread_local std::vector<int32_t> lo, hi, a, v, h, d;
    Bytes b;
    // Both passes in full, then low-pass only (hi null: lo and a alone).
    for (bool low_only : {false, true}) {
      for (auto* x : {&lo, &hi}) x->assign(size_t(w) * size_t(rows), 0);
      for (auto* x : {&a, &v, &h, &d}) x->assign(size_t(ow) * size_t(rows), 0);
      for (int i = 0; i < rows; ++i) {
        const int32_t* src[4];
        for (int t = 0; t < 4; ++t) src[t] = in->band.data() + size_t(w) * size_t((i + t) % rows);
        int32_t* l = lo.data() + size_t(w) * size_t(i);
        int32_t* hh = low_only ? nullptr : hi.data() + size_t(w) * size_t(i);
        k.dwt_vertical_s123(src, w, scale, l, hh);
        if (w < 2) continue;
        const size_t at = size_t(ow) * size_t(i);
        if (low_only)
          k.dwt_horizontal_s123(l, nullptr, in->taps.data(), ow, scale, a.data() + at, nullptr,
                                nullptr, nullptr);
        else
          k.dwt_horizontal_s123(l, hh, in->taps.data(), ow, scale, a.data() + at, v.data() + at,
                                h.data() + at, d.data() + at);
      }
      for (const auto* x : {&lo, &hi, &a, &v, &h, &d}) put(b, *x);
    }
    return b;
  };
  return {[run] { return run(true); }, [run] { return run(false); }};
}

// ---- adm.dwt_vertical_s1: scale 1's vertical pass from a case.width x case.height
// 16-bit band (scale 0's a band), over rows i .. i + 3 (wrapped).
Prepared dwt_vertical_s1_case(const Case& c) {
  std::mt19937_64 rng(c.seed);
  const size_t n = size_t(c.width) * size_t(c.height);
  auto band = std::make_shared<std::vector<int16_t>>(
      band_values<int16_t>(n, INT16_MIN, INT16_MAX, c.fill, rng));
  const int w = c.width, rows = c.height;
  const auto run = [band, w, rows](bool twin) {
    const adm::RowKernels& k = twin ? adm::cpu::simd_row_kernels() : adm::reference_row_kernels();
    Bytes b;
    // Both rows, then the low-pass row alone (hi null).
    for (bool low_only : {false, true}) {
      std::vector<int32_t> lo(size_t(w) * size_t(rows)), hi(size_t(w) * size_t(rows));
      for (int i = 0; i < rows; ++i) {
        const int16_t* src[4];
        for (int t = 0; t < 4; ++t) src[t] = band->data() + size_t(w) * size_t((i + t) % rows);
        k.dwt_vertical_s1(src, w, lo.data() + size_t(w) * size_t(i),
                          low_only ? nullptr : hi.data() + size_t(w) * size_t(i));
      }
      put(b, lo);
      put(b, hi);
    }
    return b;
  };
  return {[run] { return run(true); }, [run] { return run(false); }};
}

std::vector<Case> dwt_s123_cases() {
  std::mt19937_64 rng(0x5eed'0406);
  std::vector<Case> all;
  auto add = [&](int w, int h, int fill, int scale, bool timed = false) {
    Case c;
    c.seed = case_seed(0x5eed'0406, all.size());
    c.width = w;
    c.height = h;
    c.fill = fill;
    c.a = scale;
    c.timed = timed;
    c.what = std::to_string(w) + "x" + std::to_string(h) + " band, " + kBandFillNames[fill] +
             ", scale " + std::to_string(scale);
    all.push_back(c);
  };
  for (int scale = 1; scale <= 3; ++scale)
    for (int fill = 0; fill < 4; ++fill) {
      for (int w = 1; w <= 70; ++w) add(w, 1 + int(rng() % 4), fill, scale);
      for (int w : {255, 256, 257, 960}) add(w, 3, fill, scale);
    }
  add(960, 540, kUniform, 2, true);
  return all;
}

// ---- adm.masking_row_s0 and adm.masking_row_s123: the masking sums of each
// row of a case.width x case.height set of bands (src, masker and flattened
// masker, h v d), over the scored columns and over the whole row, without and
// with the flattened rows' sums over the orientations (MaskingRows::flat_sum_*).
// case.fill: the bands' contents; case.a: the h/v cube shift (d's is one more
// at scale 0; the same at scales 1..3).
template <typename T, typename Factor>
Prepared masking_case(const Case& c) {
  std::mt19937_64 rng(c.seed);
  struct In {
    std::vector<T> src[3], masker[3], flat[3];
    std::vector<int32_t> flat_sum;
    Factor factor[3];
  };
  auto in = std::make_shared<In>();
  const size_t n = size_t(c.width) * size_t(c.height);
  for (int b = 0; b < 3; ++b) {
    constexpr int64_t lo = std::numeric_limits<T>::min(), hi = std::numeric_limits<T>::max();
    constexpr uint64_t factor_max = std::numeric_limits<Factor>::max();
    in->src[b] = band_values<T>(n, lo, hi, c.fill, rng);
    in->masker[b] = band_values<T>(n, lo, hi, c.fill, rng);
    in->flat[b] = band_values<T>(n, lo, hi, c.fill, rng);
    in->factor[b] =
        c.fill == kExtremes ? Factor(factor_max - rng() % 2) : Factor(rng() % (factor_max + 1));
  }
  in->flat_sum.resize(n);
  for (int i = 0; i < c.height; ++i) {
    const size_t at = size_t(c.width) * size_t(i);
    adm::flat_sum_row(adm::OrientedRows<T>{{in->flat[0].data() + at, in->flat[1].data() + at,
                                            in->flat[2].data() + at}},
                      c.width, in->flat_sum.data() + at);
  }
  const int hv_shift = c.a, d_shift = sizeof(T) == 2 ? c.a + 1 : c.a;
  const auto half = [](int shift) { return shift > 0 ? int64_t{1} << (shift - 1) : 0; };
  const adm::CubeShift cube{{hv_shift, hv_shift, d_shift},
                            {half(hv_shift), half(hv_shift), half(d_shift)}};
  const int w = c.width, h = c.height;
  const auto run = [in, cube, w, h](bool twin) {
    const adm::RowKernels& k = twin ? adm::cpu::simd_row_kernels() : adm::reference_row_kernels();
    const auto rows_of = [&](const std::vector<T>(&band)[3], int i) {
      const size_t at = size_t(w) * size_t(i);
      return adm::OrientedRows<T>{{band[0].data() + at, band[1].data() + at, band[2].data() + at}};
    };
    const adm::Region g = adm::score_region(w, h);
    std::vector<int64_t> sums;
    for (int i = 0; i < h; ++i) {
      const int above = i == 0 ? (h > 1 ? 1 : 0) : i - 1;
      const int below = i == h - 1 ? h - 1 : i + 1;
      adm::MaskingRows<T> rows{rows_of(in->src, i), rows_of(in->masker, i),
                               rows_of(in->flat, above), rows_of(in->flat, i),
                               rows_of(in->flat, below)};
      for (bool with_sums : {false, true}) {
        if (with_sums) {
          const auto sum_row = [&](int r) { return in->flat_sum.data() + size_t(w) * size_t(r); };
          rows.flat_sum_above = sum_row(above);
          rows.flat_sum_row = sum_row(i);
          rows.flat_sum_below = sum_row(below);
        }
        for (auto [from, to] : {std::pair{g.left, g.right}, std::pair{0, w}}) {
          std::array<int64_t, 3> r;
          if constexpr (sizeof(T) == 2)
            r = k.masking_row_s0(rows, w, from, to, in->factor, cube);
          else
            r = k.masking_row_s123(rows, w, from, to, in->factor, cube);
          sums.insert(sums.end(), r.begin(), r.end());
        }
      }
    }
    Bytes b;
    put(b, sums);
    return b;
  };
  return {[run] { return run(true); }, [run] { return run(false); }};
}

std::vector<Case> masking_cases(uint64_t base, int max_shift) {
  std::mt19937_64 rng(base);
  std::vector<Case> all;
  auto add = [&](int w, int h, int fill, int shift, bool timed = false) {
    Case c;
    c.seed = case_seed(base, all.size());
    c.width = w;
    c.height = h;
    c.fill = fill;
    c.a = shift;
    c.timed = timed;
    c.what = std::to_string(w) + "x" + std::to_string(h) + " bands, " + kBandFillNames[fill] +
             ", cube shift " + std::to_string(shift);
    all.push_back(c);
  };
  for (int fill = 0; fill < 4; ++fill) {
    for (int w = 2; w <= 70; ++w)
      add(w, 2 + int(rng() % 4), fill, int(rng() % uint64_t(max_shift + 1)));
    for (int w : {255, 256, 257, 960}) add(w, 3, fill, 1 + int(rng() % uint64_t(max_shift)));
  }
  if (max_shift <= 8)
    add(960, 540, kSmall, 6, true);
  else
    add(480, 270, kSmall, 9, true);
  return all;
}

// ---- adm.decouple_row_s0 and adm.decouple_row_s123: the restored and additive bands of each row
// of a case.width x case.height set of bands, over the filter region's columns and over the whole
// row. case.fill: the bands' contents (kAligned: the distorted bands a multiple of the reference's,
// so that the angle test holds); case.a: the gain limit, or its numerator over case.b where
// case.b is not 0 (limits that are not integers). kEveryValue: the reference bands run through
// every int16 value (every divisor of the gain's reciprocal), the distorted ones a fraction of
// them in [-1, 1] (gains inside the clamp). kEveryValueNear: the reference bands as kEveryValue,
// the distorted ones within 3 of it or of its negation (where the restored value comes nearest the
// distorted one: the limit 1's bound, cpu/decouple_simd.cpp). kNearOneDegree: the distorted (h, v)
// vectors the reference's turned by 1 degree give or take 2^-12 of it (the angle test's edge, where
// the scale-0 kernel's float test leaves the lanes to binary64), scaled by 1/2 to 2.
constexpr int kAligned = 4;
constexpr int kEveryValue = 5;
constexpr int kEveryValueNear = 6;
constexpr int kNearOneDegree = 7;

template <typename T>
Prepared decouple_case(const Case& c) {
  std::mt19937_64 rng(c.seed);
  struct In {
    std::vector<T> ref[3], dis[3];
  };
  auto in = std::make_shared<In>();
  const size_t n = size_t(c.width) * size_t(c.height);
  for (int b = 0; b < 3; ++b) {
    if (c.fill == kEveryValue) {
      in->ref[b].resize(n);
      in->dis[b].resize(n);
      for (size_t i = 0; i < n; ++i) {
        const int64_t o = int16_t(uint16_t(i + size_t(b) * 7919));
        in->ref[b][i] = T(o);
        in->dis[b][i] = T(o * (int64_t(rng() % 65537) - 32768) / 32768);
      }
    } else if (c.fill == kEveryValueNear) {
      in->ref[b].resize(n);
      in->dis[b].resize(n);
      for (size_t i = 0; i < n; ++i) {
        const int64_t o = int16_t(uint16_t(i + size_t(b) * 7919));
        const int64_t t = (rng() % 2 ? o : -o) + int64_t(rng() % 7) - 3;
        in->ref[b][i] = T(o);
        in->dis[b][i] =
            T(std::clamp<int64_t>(t, std::numeric_limits<T>::min(), std::numeric_limits<T>::max()));
      }
    } else if (c.fill == kNearOneDegree) {
      if (b == 2) {
        in->ref[b] = band_values<T>(n, std::numeric_limits<T>::min(), std::numeric_limits<T>::max(),
                                    kUniform, rng);
        in->dis[b] = band_values<T>(n, std::numeric_limits<T>::min(), std::numeric_limits<T>::max(),
                                    kUniform, rng);
        continue;
      }
      if (b == 1) continue;  // made with h
      for (int v = 0; v < 2; ++v) {
        in->ref[v].resize(n);
        in->dis[v].resize(n);
      }
      const double reach = double(std::numeric_limits<T>::max()) / 4;
      std::uniform_real_distribution<double> unit(0.0, 1.0);
      for (size_t i = 0; i < n; ++i) {
        // (x, y) turned by theta (sine and cosine by their series: no libm here).
        const double x = (2 * unit(rng) - 1) * reach, y = (2 * unit(rng) - 1) * reach;
        const double theta =
            (rng() % 2 ? 1 : -1) * 0.017453292519943295 * (1 + (2 * unit(rng) - 1) * 0x1p-12);
        const double t2 = theta * theta;
        const double sine = theta * (1 - t2 / 6 * (1 - t2 / 20));
        const double cosine = 1 - t2 / 2 * (1 - t2 / 12);
        const double scale = 0.5 + 1.5 * unit(rng);
        const auto to_int = [](double v) {
          return T(
              std::clamp<double>(v, std::numeric_limits<T>::min(), std::numeric_limits<T>::max()));
        };
        in->ref[0][i] = to_int(x);
        in->ref[1][i] = to_int(y);
        in->dis[0][i] = to_int(scale * (x * cosine - y * sine));
        in->dis[1][i] = to_int(scale * (x * sine + y * cosine));
      }
    } else if (c.fill == kAligned) {
      const int64_t reach = std::numeric_limits<T>::max() / 3;
      in->ref[b] = band_values<T>(n, -reach, reach, kUniform, rng);
      in->dis[b].resize(n);
      for (size_t i = 0; i < n; ++i) {
        const int64_t scaled =
            int64_t(in->ref[b][i]) * int64_t(1 + rng() % 3) / 2 + int64_t(rng() % 3) - 1;
        in->dis[b][i] = T(std::clamp<int64_t>(scaled, std::numeric_limits<T>::min(),
                                              std::numeric_limits<T>::max()));
      }
    } else {
      in->ref[b] = band_values<T>(n, std::numeric_limits<T>::min(), std::numeric_limits<T>::max(),
                                  c.fill, rng);
      in->dis[b] = band_values<T>(n, std::numeric_limits<T>::min(), std::numeric_limits<T>::max(),
                                  c.fill, rng);
    }
  }
  const double gain_limit = c.b ? double(c.a) / double(c.b) : double(c.a);
  const int w = c.width, h = c.height;
  const auto run = [in, gain_limit, w, h](bool twin) {
    const adm::RowKernels& k = twin ? adm::cpu::simd_row_kernels() : adm::reference_row_kernels();
    const adm::Region g = adm::filter_region(w, h);
    Bytes out;
    for (auto [from, to] : {std::pair{g.left, g.right}, std::pair{0, w}}) {
      thread_local std::vector<T> restored[3], additive[3];
      for (int b = 0; b < 3; ++b) {
        restored[b].assign(size_t(w) * size_t(h), 0);
        additive[b].assign(size_t(w) * size_t(h), 0);
      }
      for (int i = 0; i < h; ++i) {
        const size_t at = size_t(w) * size_t(i);
        const auto rows = [&](const std::vector<T>(&band)[3]) {
          return adm::OrientedRows<T>{
              {band[0].data() + at, band[1].data() + at, band[2].data() + at}};
        };
        const auto out_rows = [&](std::vector<T>(&band)[3]) {
          return adm::OrientedRowsOut<T>{
              {band[0].data() + at, band[1].data() + at, band[2].data() + at}};
        };
        if constexpr (sizeof(T) == 2)
          k.decouple_row_s0(rows(in->ref), rows(in->dis), from, to, gain_limit, out_rows(restored),
                            out_rows(additive));
        else
          k.decouple_row_s123(rows(in->ref), rows(in->dis), from, to, gain_limit,
                              out_rows(restored), out_rows(additive));
      }
      for (int b = 0; b < 3; ++b) {
        put(out, restored[b]);
        put(out, additive[b]);
      }
    }
    return out;
  };
  return {[run] { return run(true); }, [run] { return run(false); }};
}

std::vector<Case> decouple_cases(uint64_t base, int timed_width) {
  std::mt19937_64 rng(base);
  std::vector<Case> all;
  auto add = [&](int w, int h, int fill, int gain_limit, bool timed = false, int over = 0) {
    Case c;
    c.seed = case_seed(base, all.size());
    c.width = w;
    c.height = h;
    c.fill = fill;
    c.a = gain_limit;
    c.b = over;
    c.timed = timed;
    c.what = std::to_string(w) + "x" + std::to_string(h) + " bands, " +
             (fill == kNearOneDegree    ? "near one degree apart"
              : fill == kEveryValue     ? "every int16 value"
              : fill == kEveryValueNear ? "every int16 value, distorted near it"
              : fill == kAligned        ? "aligned"
                                        : kBandFillNames[fill]) +
             ", gain limit " + std::to_string(gain_limit) +
             (over ? "/" + std::to_string(over) : "");
    all.push_back(c);
  };
  for (int fill = 0; fill <= kAligned; ++fill) {
    for (int w = 1; w <= 70; ++w)
      add(w, 1 + int(rng() % 4), fill, rng() % 2 ? 100 : 1 + int(rng() % 3));
    for (int w : {255, 256, 257, 960}) add(w, 3, fill, rng() % 2 ? 100 : 1);
    for (int w : {64, 65, 97}) add(w, 3, fill, 1);  // the limit 1's 2N columns a step
    // Limits that are not integers (1.5, 12.34, 99.9).
    for (auto [num, den] : {std::pair{3, 2}, std::pair{1234, 100}, std::pair{999, 10}})
      for (int w : {17, 64, 257}) add(w, 3, fill, num, false, den);
  }
  for (int w : {1, 15, 16, 17, 64, 255, 960}) add(w, 33, kNearOneDegree, 100);
  add(97, 5, kNearOneDegree, 999, false, 10);
  for (int gain_limit : {1, 100}) {
    add(256, 257, kEveryValue, gain_limit);
    add(256, 257, kEveryValueNear, gain_limit);
  }
  add(timed_width, timed_width * 9 / 16, kAligned, 100, true);
  add(timed_width, timed_width * 9 / 16, kAligned, 1, true);  // VMAF v1.0.16's limit
  return all;
}

// ---- adm.csf_row_s0 and adm.csf_row_s123: the CSF and flattened rows of a
// case.width x case.height band over columns [left, right) drawn from the
// seed. case.fill: the contents; case.a: at scale 0, 0 for the h/v shift and
// rounding (15, 16384), 1 for d's (17, 65535).
template <typename T, typename Factor>
Prepared csf_case(const Case& c) {
  std::mt19937_64 rng(c.seed);
  struct In {
    std::vector<T> src;
    Factor factor;
    int left, right;
  };
  const size_t n = size_t(c.width) * size_t(c.height);
  constexpr uint64_t factor_max = std::numeric_limits<Factor>::max();
  auto in = std::make_shared<In>();
  in->src =
      band_values<T>(n, std::numeric_limits<T>::min(), std::numeric_limits<T>::max(), c.fill, rng);
  in->factor = c.b                   ? Factor(c.b - 1)
               : c.fill == kExtremes ? Factor(factor_max - rng() % 2)
                                     : Factor(rng() % (factor_max + 1));
  in->left = int(rng() % uint64_t(c.width + 1));
  in->right = in->left + int(rng() % uint64_t(c.width - in->left + 1));
  const int w = c.width, h = c.height, shift = c.a ? 17 : 15;
  const int32_t round = c.a ? 65535 : 16384;
  const auto run = [in, w, h, shift, round](bool twin) {
    const adm::RowKernels& k = twin ? adm::cpu::simd_row_kernels() : adm::reference_row_kernels();
    thread_local std::vector<T> csf, flt;
    csf.assign(size_t(w) * size_t(h), 0);
    flt.assign(size_t(w) * size_t(h), 0);
    for (int i = 0; i < h; ++i) {
      const size_t at = size_t(w) * size_t(i);
      for (auto [from, to] : {std::pair{in->left, in->right}, std::pair{0, w}}) {
        if constexpr (sizeof(T) == 2)
          k.csf_row_s0(in->src.data() + at, from, to, in->factor, shift, round, csf.data() + at,
                       flt.data() + at);
        else
          k.csf_row_s123(in->src.data() + at, from, to, in->factor, csf.data() + at,
                         flt.data() + at);
      }
    }
    Bytes b;
    put(b, csf);
    put(b, flt);
    return b;
  };
  return {[run] { return run(true); }, [run] { return run(false); }};
}

std::vector<Case> csf_cases(uint64_t base, int timed_width) {
  std::mt19937_64 rng(base);
  std::vector<Case> all;
  auto add = [&](int w, int h, int fill, int d_band, bool timed = false, int64_t factor = -1) {
    Case c;
    c.seed = case_seed(base, all.size());
    c.width = w;
    c.height = h;
    c.fill = fill;
    c.a = d_band;
    c.b = int(factor + 1);
    c.timed = timed;
    c.what = std::to_string(w) + "x" + std::to_string(h) + " band, " + kBandFillNames[fill] +
             (d_band ? ", d's shift" : "") +
             (factor >= 0 ? ", factor " + std::to_string(factor) : "");
    all.push_back(c);
  };
  for (int fill = 0; fill < 4; ++fill) {
    for (int w = 1; w <= 70; ++w) add(w, 1 + int(rng() % 4), fill, int(rng() % 2));
    for (int w : {255, 256, 257, 960}) add(w, 3, fill, int(rng() % 2));
  }
  // Scale 0: factors at the edges of the CSF's int16 forms (2^15 - 1, 2^15, 2^15 + 1,
  // 2^16 - 1) and libvmaf's constants (rows of other routines ignore them).
  const std::vector<int64_t> factors =
      timed_width == 960 ? std::vector<int64_t>{0, 1, 32767, 32768, 32769, 36453, 49417, 65535}
                         : std::vector<int64_t>{};
  for (int64_t factor : factors)
    for (int fill : {int(kUniform), int(kExtremes)})
      for (int d_band : {0, 1}) add(257, 3, fill, d_band, false, factor);
  add(timed_width, timed_width * 9 / 16, kUniform, 0, true);
  return all;
}

// ---- adm.denominator_row_s0: the sums of |o|^3 of each row of a
// case.width x case.height set of bands over columns [left, right) drawn from
// the seed and over the whole row. case.fill: the contents.
Prepared denominator_s0_case(const Case& c) {
  std::mt19937_64 rng(c.seed);
  struct In {
    std::vector<int16_t> band[3];
    int left, right;
  };
  const size_t n = size_t(c.width) * size_t(c.height);
  auto in = std::make_shared<In>();
  for (auto& b : in->band) b = band_values<int16_t>(n, -32768, 32767, c.fill, rng);
  in->left = int(rng() % uint64_t(c.width + 1));
  in->right = in->left + int(rng() % uint64_t(c.width - in->left + 1));
  const int w = c.width, h = c.height;
  const auto run = [in, w, h](bool twin) {
    const adm::RowKernels& k = twin ? adm::cpu::simd_row_kernels() : adm::reference_row_kernels();
    std::vector<uint64_t> sums;
    for (int i = 0; i < h; ++i) {
      const size_t at = size_t(w) * size_t(i);
      const adm::OrientedRows<int16_t> rows{
          {in->band[0].data() + at, in->band[1].data() + at, in->band[2].data() + at}};
      for (auto [from, to] : {std::pair{in->left, in->right}, std::pair{0, w}}) {
        const std::array<uint64_t, 3> r = k.denominator_row_s0(rows, from, to);
        sums.insert(sums.end(), r.begin(), r.end());
      }
    }
    Bytes b;
    put(b, sums);
    return b;
  };
  return {[run] { return run(true); }, [run] { return run(false); }};
}

// ---- adm.denominator_row_s123: the same at scales 1..3 on int32 bands: the scale
// (its square shift), the cube shift and its rounding drawn from the seed.
Prepared denominator_s123_case(const Case& c) {
  std::mt19937_64 rng(c.seed);
  struct In {
    std::vector<int32_t> band[3];
    int left, right, scale, cube_shift;
  };
  const size_t n = size_t(c.width) * size_t(c.height);
  auto in = std::make_shared<In>();
  for (auto& b : in->band) b = band_values<int32_t>(n, INT32_MIN, INT32_MAX, c.fill, rng);
  in->left = int(rng() % uint64_t(c.width + 1));
  in->right = in->left + int(rng() % uint64_t(c.width - in->left + 1));
  in->scale = 1 + int(rng() % 3);
  in->cube_shift = int(rng() % 13);
  const int w = c.width, h = c.height;
  const auto run = [in, w, h](bool twin) {
    const adm::RowKernels& k = twin ? adm::cpu::simd_row_kernels() : adm::reference_row_kernels();
    const uint64_t round = in->cube_shift ? uint64_t{1} << (in->cube_shift - 1) : 0;
    std::vector<uint64_t> sums;
    for (int i = 0; i < h; ++i) {
      const size_t at = size_t(w) * size_t(i);
      const adm::OrientedRows<int32_t> rows{
          {in->band[0].data() + at, in->band[1].data() + at, in->band[2].data() + at}};
      for (auto [from, to] : {std::pair{in->left, in->right}, std::pair{0, w}}) {
        const std::array<uint64_t, 3> r =
            k.denominator_row_s123(rows, from, to, in->scale, in->cube_shift, round);
        sums.insert(sums.end(), r.begin(), r.end());
      }
    }
    Bytes b;
    put(b, sums);
    return b;
  };
  return {[run] { return run(true); }, [run] { return run(false); }};
}

// ---- adm.flat_sum_row_s0 and adm.flat_sum_row_s123: each row of a case.width x
// case.height set of flattened bands summed over the orientations. case.fill: the contents.
template <typename T>
Prepared flat_sum_case(const Case& c) {
  std::mt19937_64 rng(c.seed);
  struct In {
    std::vector<T> band[3];
  };
  const size_t n = size_t(c.width) * size_t(c.height);
  auto in = std::make_shared<In>();
  for (auto& b : in->band)
    b = band_values<T>(n, std::numeric_limits<T>::min(), std::numeric_limits<T>::max(), c.fill,
                       rng);
  const int w = c.width, h = c.height;
  const auto run = [in, w, h](bool twin) {
    const adm::RowKernels& k = twin ? adm::cpu::simd_row_kernels() : adm::reference_row_kernels();
    std::vector<int32_t> sums(size_t(w) * size_t(h));
    for (int i = 0; i < h; ++i) {
      const size_t at = size_t(w) * size_t(i);
      const adm::OrientedRows<T> rows{
          {in->band[0].data() + at, in->band[1].data() + at, in->band[2].data() + at}};
      if constexpr (sizeof(T) == 2)
        k.flat_sum_row_s0(rows, w, sums.data() + at);
      else
        k.flat_sum_row_s123(rows, w, sums.data() + at);
    }
    Bytes b;
    put(b, sums);
    return b;
  };
  return {[run] { return run(true); }, [run] { return run(false); }};
}

// ---- adm.scores: a frame pair's scores with the SIMD rows against
// adm_reference. case.fill: the reference's pattern (random and smooth get a
// noisy distorted copy, the others the inverse); case.a: 1 for egl = 1.
Prepared scores_case(const Case& c) {
  std::mt19937_64 rng(c.seed);
  const Pattern pattern = Pattern(c.fill);
  struct In {
    test::OwnedPlane ref, dist;
  };
  test::OwnedPlane ref = test::make_plane(c.width, c.height, c.bits, pattern, rng);
  test::OwnedPlane dist =
      pattern == Pattern::kRandom || pattern == Pattern::kSmooth
          ? test::add_noise(ref, (1u << c.bits) / 16, rng)
          : test::make_plane(c.width, c.height, c.bits, pattern, rng, /*invert=*/true);
  auto in = std::make_shared<In>(In{std::move(ref), std::move(dist)});
  adm::AdmOptions o;
  if (c.a) o.enhn_gain_limit = 1.0;
  const int bits = c.bits;
  const auto run = [in, o, bits](bool twin) {
    const adm::AdmScores s = twin ? adm::adm_scores(in->ref.view(), in->dist.view(), bits, o,
                                                    adm::cpu::simd_row_kernels())
                                  : adm::adm_reference(in->ref.view(), in->dist.view(), bits, o);
    Bytes b;
    put(b, &s, 1);
    return b;
  };
  return {[run] { return run(true); }, [run] { return run(false); }};
}

std::vector<Case> scores_cases() {
  std::mt19937_64 rng(0x5eed'0403);
  std::vector<Case> all;
  auto add = [&](int w, int h, int bits, int fill, int egl1, bool timed = false) {
    Case c;
    c.seed = case_seed(0x5eed'0403, all.size());
    c.width = w;
    c.height = h;
    c.bits = bits;
    c.fill = fill;
    c.a = egl1;
    c.timed = timed;
    c.what = std::to_string(w) + "x" + std::to_string(h) + " " + std::to_string(bits) + "-bit " +
             kPatternNames[fill] + (egl1 ? ", egl 1" : "");
    all.push_back(c);
  };
  for (int bits : {8, 10, 12, 16})
    for (int fill = 0; fill < 5; ++fill)
      for (int i = 0; i < 3; ++i)
        add(33 + int(rng() % 60), 33 + int(rng() % 40), bits, fill, int(rng() % 2));
  add(33, 33, 8, 0, 0);
  add(255, 97, 10, 0, 1);
  add(1920, 1080, 8, 0, 0, true);
  return all;
}

EXACTVQ_TWIN_ROWS(adm_rows) {
  register_per_target("adm.dwt0_vertical", dwt0_vertical_cases, dwt0_vertical_case);
  register_per_target("adm.dwt0_horizontal", dwt0_horizontal_cases, dwt0_horizontal_case);
  register_per_target("adm.dwt_s123", dwt_s123_cases, dwt_s123_case);
  register_per_target(
      "adm.dwt_vertical_s1", [] { return csf_cases(0x5eed'040f, 960); }, dwt_vertical_s1_case);
  register_per_target(
      "adm.masking_row_s0", [] { return masking_cases(0x5eed'0404, 8); },
      masking_case<int16_t, uint16_t>);
  register_per_target(
      "adm.masking_row_s123", [] { return masking_cases(0x5eed'0407, 12); },
      masking_case<int32_t, uint32_t>);
  register_per_target(
      "adm.csf_row_s0", [] { return csf_cases(0x5eed'0408, 960); }, csf_case<int16_t, uint16_t>);
  register_per_target(
      "adm.csf_row_s123", [] { return csf_cases(0x5eed'0409, 480); }, csf_case<int32_t, uint32_t>);
  // Sizes and contents as the CSF's.
  register_per_target(
      "adm.denominator_row_s0", [] { return csf_cases(0x5eed'040a, 960); }, denominator_s0_case);
  register_per_target(
      "adm.flat_sum_row_s0", [] { return csf_cases(0x5eed'040d, 960); }, flat_sum_case<int16_t>);
  register_per_target(
      "adm.flat_sum_row_s123", [] { return csf_cases(0x5eed'040e, 480); }, flat_sum_case<int32_t>);
  register_per_target(
      "adm.denominator_row_s123", [] { return csf_cases(0x5eed'040c, 480); },
      denominator_s123_case);
  register_per_target(
      "adm.decouple_row_s0", [] { return decouple_cases(0x5eed'0405, 960); },
      decouple_case<int16_t>);
  register_per_target(
      "adm.decouple_row_s123", [] { return decouple_cases(0x5eed'040b, 480); },
      decouple_case<int32_t>);
  register_per_target("adm.scores", scores_cases, scores_case);
}

}  // namespace
}  // namespace exactvq::twins
