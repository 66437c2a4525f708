// Rows of SpEED's CPU SIMD routines beside their scalar references
// (metrics/speed/): the covariance sums and the sums of the 25 shifted windows
// of a decimated plane, the filters' vertical pass and the conversion of a plane.
#include <algorithm>
#include <cstdlib>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "cpu_rows.h"
#include "metrics/speed/covariance.h"
#include "metrics/speed/plane_kernels.h"
#include "metrics/speed/reference.h"
#include "padded_plane.h"

namespace exactvq::twins {
namespace {

// ---- speed.covariance_sums: case.width x case.height window sums over a plane
// of (width + 4) x (height + 4) floats, rows case.a floats longer than needed.
// case.fill: random values of a range (the decimated planes' values lie within
// about +-300), constant planes (sums of zeros), values with huge and tiny
// magnitudes, or a plane that is 0 but for one sample.
enum CovarianceFill { kSmallRandom, kWideRandom, kConstant, kExtremes, kOneSample };
const char* const kCovarianceFillNames[] = {"random in +-300", "random in +-1e6", "constant",
                                            "huge and tiny", "one sample"};

Prepared covariance_case(const Case& c) {
  struct In {
    std::vector<float> plane;
    float means[speed::kWindows];
    size_t stride;
  };
  auto in = std::make_shared<In>();
  in->stride = size_t(c.width) + 4 + size_t(c.a);
  in->plane.assign(in->stride * size_t(c.height + 4), 0.0f);
  std::mt19937_64 rng(c.seed);
  std::uniform_real_distribution<float> small(-300.0f, 300.0f), wide(-1e6f, 1e6f);
  const float constant = small(rng);
  for (size_t i = 0; i < in->plane.size(); ++i) {
    switch (c.fill) {
      case kSmallRandom:
        in->plane[i] = small(rng);
        break;
      case kWideRandom:
        in->plane[i] = wide(rng);
        break;
      case kConstant:
        in->plane[i] = constant;
        break;
      case kExtremes:
        in->plane[i] = (rng() & 1 ? 1e30f : 1e-30f) * (rng() & 2 ? -1.0f : 1.0f);
        break;
      default:
        break;
    }
  }
  if (c.fill == kOneSample) in->plane[size_t(rng() % in->plane.size())] = small(rng);
  // Means as the reference forms them (sum / count in binary32) would do as
  // well as any: the routine takes them as given.
  for (float& m : in->means) m = c.fill == kConstant ? constant : small(rng);
  const int w = c.width, h = c.height;
  Prepared p;
  p.twin = [in, w, h] {
    std::vector<double> sums(speed::kCovariancePairs);
    speed::covariance_sums(in->plane.data(), in->stride, w, h, in->means, sums.data());
    Bytes b;
    put(b, sums);
    return b;
  };
  p.reference = [in, w, h] {
    std::vector<double> sums(speed::kCovariancePairs);
    speed::covariance_sums_reference(in->plane.data(), in->stride, w, h, in->means, sums.data());
    Bytes b;
    put(b, sums);
    return b;
  };
  return p;
}

// ---- speed.window_sums: the 25 windows' sums over the same planes as
// speed.covariance_sums', with the floats past the plane the twin may read
// (set to a value that would show if a window took it).
Prepared window_sums_case(const Case& c) {
  struct In {
    std::vector<float> plane;
    size_t stride;
  };
  auto in = std::make_shared<In>();
  in->stride = size_t(c.width) + 4 + size_t(c.a);
  const size_t samples = in->stride * size_t(c.height + 4);
  in->plane.assign(samples + speed::kWindowSumsOverread, 1e30f);
  std::mt19937_64 rng(c.seed);
  std::uniform_real_distribution<float> small(-300.0f, 300.0f), wide(-1e6f, 1e6f);
  const float constant = small(rng);
  for (size_t i = 0; i < samples; ++i) {
    switch (c.fill) {
      case kSmallRandom:
        in->plane[i] = small(rng);
        break;
      case kWideRandom:
        in->plane[i] = wide(rng);
        break;
      case kConstant:
        in->plane[i] = constant;
        break;
      case kExtremes:
        in->plane[i] = (rng() & 1 ? 1e30f : 1e-30f) * (rng() & 2 ? -1.0f : 1.0f);
        break;
      default:
        in->plane[i] = 0.0f;
        break;
    }
  }
  if (c.fill == kOneSample) in->plane[size_t(rng() % samples)] = small(rng);
  const int w = c.width, h = c.height;
  const auto run = [in, w, h](speed::WindowSums f) {
    std::vector<float> sums(speed::kWindows);
    f(in->plane.data(), in->stride, w, h, sums.data());
    Bytes b;
    put(b, sums);
    return b;
  };
  Prepared p;
  p.twin = [run] { return run(speed::window_sums); };
  p.reference = [run] { return run(speed::window_sums_reference); };
  return p;
}

std::vector<Case> covariance_cases() {
  std::mt19937_64 rng(0x5eed'0501);
  std::vector<Case> all;
  auto add = [&](int w, int h, int pad, int fill, bool timed = false) {
    Case c;
    c.seed = case_seed(0x5eed'0501, all.size());
    c.width = w;
    c.height = h;
    c.a = pad;
    c.fill = fill;
    c.timed = timed;
    c.what = std::to_string(w) + "x" + std::to_string(h) + " window, pad " + std::to_string(pad) +
             ", " + kCovarianceFillNames[fill];
    all.push_back(c);
  };
  for (int w = 1; w <= 40; ++w) add(w, 1 + int(rng() % 12), int(rng() % 5), kSmallRandom);
  for (int fill : {kSmallRandom, kWideRandom, kConstant, kExtremes, kOneSample})
    for (int w : {1, 6, 31, 116}) add(w, 1 + int(rng() % 30), int(rng() % 3), fill);
  add(116, 61, 0, kSmallRandom, true);   // 1080p's window
  add(236, 131, 0, kSmallRandom, true);  // 4K's
  return all;
}

// ---- speed.filter_columns: case.a taps over case.width columns of case.a rows
// (each its own buffer, so rows may repeat as the mirrored ones do), the output
// row padded past w with a value the routine must not change. case.fill: the
// rows' values (those of converted planes, wide ones, huge and tiny ones that
// overflow and underflow, signed zeros); the taps are a Gaussian's or random
// of either sign.
enum FilterFill { kPlaneValues, kWideValues, kHugeAndTiny, kSignedZeros };
const char* const kFilterFillNames[] = {"values in +-128", "values in +-1e6", "huge and tiny",
                                        "signed zeros"};

Prepared filter_columns_case(const Case& c) {
  struct In {
    std::vector<float> taps;
    std::vector<std::vector<float>> rows;
    std::vector<const float*> pointers;
  };
  auto in = std::make_shared<In>();
  std::mt19937_64 rng(c.seed);
  std::uniform_real_distribution<float> plane(-128.0f, 128.0f), wide(-1e6f, 1e6f), unit(-1, 1);
  const int taps = c.a;
  in->taps.resize(size_t(taps));
  for (int t = 0; t < taps; ++t)
    in->taps[size_t(t)] = c.b ? unit(rng) : 1.0f / float(1 + std::abs(t - taps / 2));
  // Fewer distinct rows than taps where c.height says so: the mirrored rows
  // at a plane's edge are the same row read twice.
  const int distinct = std::max(1, std::min(taps, c.height));
  in->rows.resize(size_t(distinct));
  for (auto& row : in->rows) {
    row.resize(size_t(c.width) + 3);
    for (float& v : row) {
      switch (c.fill) {
        case kPlaneValues:
          v = plane(rng);
          break;
        case kWideValues:
          v = wide(rng);
          break;
        case kHugeAndTiny:
          v = (rng() & 1 ? 3e38f : 1e-40f) * (rng() & 2 ? -1.0f : 1.0f);
          break;
        default:
          v = rng() & 1 ? -0.0f : 0.0f;
          break;
      }
    }
  }
  for (int t = 0; t < taps; ++t) in->pointers.push_back(in->rows[size_t(t % distinct)].data());
  const int w = c.width;
  const auto run = [in, taps, w](speed::FilterColumns f) {
    std::vector<float> out(size_t(w) + 5, 7.5f);
    f(in->taps.data(), taps, in->pointers.data(), w, out.data());
    Bytes b;
    put(b, out);
    return b;
  };
  Prepared p;
  p.twin = [run] { return run(speed::filter_columns_simd); };
  p.reference = [run] { return run(speed::filter_columns); };
  return p;
}

std::vector<Case> filter_columns_cases() {
  std::mt19937_64 rng(0x5eed'0502);
  std::vector<Case> all;
  auto add = [&](int w, int taps, int distinct, int fill, bool random_taps, bool timed = false) {
    Case c;
    c.seed = case_seed(0x5eed'0502, all.size());
    c.width = w;
    c.height = distinct;
    c.a = taps;
    c.b = random_taps;
    c.fill = fill;
    c.timed = timed;
    c.what = std::to_string(w) + " columns, " + std::to_string(taps) + " taps over " +
             std::to_string(distinct) + " rows, " + kFilterFillNames[fill] +
             (random_taps ? ", random taps" : "");
    all.push_back(c);
  };
  for (int w = 1; w <= 70; ++w) add(w, 1 + 2 * int(rng() % 6), 128, kPlaneValues, rng() & 1);
  for (int fill : {kPlaneValues, kWideValues, kHugeAndTiny, kSignedZeros})
    for (int taps : {1, 3, 9, 17, 33, 127, 128})
      for (int w : {5, 33, 130})
        add(w, taps, int(rng() % 2 ? 128 : 1 + rng() % 4), fill, rng() & 1);
  add(960, 9, 128, kPlaneValues, false, true);   // 1080p chroma's anti-alias pass
  add(1920, 9, 128, kPlaneValues, false, true);  // 1080p luma's
  add(60, 3, 128, kPlaneValues, false, true);    // the local mean's, 1080p chroma
  return all;
}

// ---- speed.load_plane: a case.width x case.height plane of case.bits samples
// (rows padded with samples the routine must not read) into floats, rows
// case.a floats longer than the plane, the padding kept. case.fill: random
// samples, every code in turn, or the extremes 0 and the largest code.
enum LoadFill { kRandomSamples, kEveryCode, kExtremeCodes };
const char* const kLoadFillNames[] = {"random samples", "every code", "0 and the largest code"};

Prepared load_plane_case(const Case& c) {
  auto plane = std::make_shared<PaddedPlane>(c.width, c.height, c.bits, 7, 3);
  std::mt19937_64 rng(c.seed);
  const uint32_t top = (1u << c.bits) - 1;
  uint32_t code = 0;
  for (int y = 0; y < c.height; ++y)
    for (int x = 0; x < c.width; ++x) {
      uint32_t v = uint32_t(rng()) & top;
      if (c.fill == kEveryCode) v = code++ & top;
      if (c.fill == kExtremeCodes) v = rng() & 1 ? top : 0;
      plane->set(x, y, v);
    }
  plane->poison(top);
  const size_t stride = size_t(c.width) + size_t(c.a);
  const int w = c.width, h = c.height, bits = c.bits;
  const auto run = [plane, stride, w, h, bits](auto load) {
    std::vector<float> out(stride * size_t(h), -1.5f);
    load(plane->view, w, h, bits, out.data(), stride);
    Bytes b;
    put(b, out);
    return b;
  };
  Prepared p;
  p.twin = [run] { return run(speed::load_plane_simd); };
  p.reference = [run] { return run(speed::load_plane); };
  return p;
}

std::vector<Case> load_plane_cases() {
  std::mt19937_64 rng(0x5eed'0503);
  std::vector<Case> all;
  auto add = [&](int w, int h, int bits, int pad, int fill, bool timed = false) {
    Case c;
    c.seed = case_seed(0x5eed'0503, all.size());
    c.width = w;
    c.height = h;
    c.bits = bits;
    c.a = pad;
    c.fill = fill;
    c.timed = timed;
    c.what = std::to_string(w) + "x" + std::to_string(h) + " " + std::to_string(bits) +
             "-bit plane, pad " + std::to_string(pad) + ", " + kLoadFillNames[fill];
    all.push_back(c);
  };
  for (int bits : {8, 10, 12, 16}) {
    for (int w = 1; w <= 40; ++w) add(w, 1 + int(rng() % 4), bits, int(rng() % 3), kRandomSamples);
    for (int fill : {kRandomSamples, kEveryCode, kExtremeCodes}) add(257, 5, bits, 1, fill);
    add(256, 1 << (bits - 8), bits, 0, kEveryCode);  // each code once
  }
  add(960, 540, 8, 0, kRandomSamples, true);  // 1080p chroma
  add(960, 540, 10, 0, kRandomSamples, true);
  return all;
}

// ---- speed.filter_sample_columns: case.a taps over case.width columns of
// case.height distinct rows of case.bits samples (rows repeat past them, as the
// mirrored rows at a plane's edge do), the output padded as filter_columns'.
// case.fill: random samples, or the extremes 0 and the largest code.
Prepared filter_sample_columns_case(const Case& c) {
  struct In {
    std::vector<float> taps;
    std::vector<std::vector<uint8_t>> rows;
    std::vector<const uint8_t*> pointers;
  };
  auto in = std::make_shared<In>();
  std::mt19937_64 rng(c.seed);
  std::uniform_real_distribution<float> unit(-1, 1);
  const int taps = c.a;
  for (int t = 0; t < taps; ++t)
    in->taps.push_back(c.b ? unit(rng) : 1.0f / float(1 + std::abs(t - taps / 2)));
  const uint32_t top = (1u << c.bits) - 1;
  const int bytes = c.bits > 8 ? 2 : 1;
  in->rows.resize(size_t(std::max(1, std::min(taps, c.height))));
  for (auto& row : in->rows) {
    row.resize((size_t(c.width) + 3) * size_t(bytes));
    for (size_t i = 0; i < row.size() / size_t(bytes); ++i) {
      const uint32_t v = c.fill == kExtremeCodes ? (rng() & 1 ? top : 0) : uint32_t(rng()) & top;
      if (bytes == 1)
        row[i] = uint8_t(v);
      else
        reinterpret_cast<uint16_t*>(row.data())[i] = uint16_t(v);
    }
  }
  for (int t = 0; t < taps; ++t)
    in->pointers.push_back(in->rows[size_t(t) % in->rows.size()].data());
  const int w = c.width, bits = c.bits;
  const auto run = [in, taps, w, bits](speed::FilterSampleColumns f) {
    std::vector<float> out(size_t(w) + 5, 7.5f);
    f(in->taps.data(), taps, in->pointers.data(), bits, w, out.data());
    Bytes b;
    put(b, out);
    return b;
  };
  Prepared p;
  p.twin = [run] { return run(speed::filter_sample_columns_simd); };
  p.reference = [run] { return run(speed::filter_sample_columns); };
  return p;
}

std::vector<Case> filter_sample_columns_cases() {
  std::mt19937_64 rng(0x5eed'0504);
  std::vector<Case> all;
  auto add = [&](int w, int taps, int distinct, int bits, int fill, bool random_taps,
                 bool timed = false) {
    Case c;
    c.seed = case_seed(0x5eed'0504, all.size());
    c.width = w;
    c.height = distinct;
    c.bits = bits;
    c.a = taps;
    c.b = random_taps;
    c.fill = fill;
    c.timed = timed;
    c.what = std::to_string(w) + " columns of " + std::to_string(bits) + "-bit samples, " +
             std::to_string(taps) + " taps over " + std::to_string(distinct) + " rows, " +
             kLoadFillNames[fill] + (random_taps ? ", random taps" : "");
    all.push_back(c);
  };
  for (int bits : {8, 10, 12, 16}) {
    for (int w = 1; w <= 70; ++w)
      add(w, 1 + 2 * int(rng() % 6), 128, bits, kRandomSamples, rng() & 1);
    for (int fill : {kRandomSamples, kExtremeCodes})
      for (int taps : {1, 3, 9, 33, 128})
        add(130, taps, int(rng() % 2 ? 128 : 1 + rng() % 4), bits, fill, rng() & 1);
  }
  add(960, 9, 128, 8, kRandomSamples, false, true);  // 1080p chroma's anti-alias pass
  add(960, 9, 128, 10, kRandomSamples, false, true);
  return all;
}

EXACTVQ_TWIN_ROWS(speed_rows) {
  register_per_target("speed.covariance_sums", covariance_cases, covariance_case);
  register_per_target("speed.window_sums", covariance_cases, window_sums_case);
  register_per_target("speed.filter_columns", filter_columns_cases, filter_columns_case);
  register_per_target("speed.load_plane", load_plane_cases, load_plane_case);
  register_per_target("speed.filter_sample_columns", filter_sample_columns_cases,
                      filter_sample_columns_case);
}

}  // namespace
}  // namespace exactvq::twins
