// Rows of SpEED's CPU SIMD routine beside its scalar reference (metrics/speed/):
// the covariance sums of the 25 shifted windows of a decimated plane.
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "cpu_rows.h"
#include "metrics/speed/covariance.h"

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

EXACTVQ_TWIN_ROWS(speed_rows) {
  register_per_target("speed.covariance_sums", covariance_cases, covariance_case);
}

}  // namespace
}  // namespace exactvq::twins
