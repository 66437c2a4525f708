#include "metrics/speed/device_plan.h"

#include <bit>
#include <cmath>
#include <cstring>
#include <vector>

#include <fmt/format.h>

#include "core/error.h"

namespace exactvq::speed {

namespace {

// No resampling: speed_prescale within 1e-3 of 1 (libvmaf skips it), or a
// prescale that rounds to the same size.
bool resamples(const SpeedOptions& o, int width, int height) {
  if (std::fabs(o.prescale - 1.0) < 1.0e-3) return false;
  const Dimensions d = dimensions_of(width, height, o.prescale);
  return !(d.scaled_width == width && d.scaled_height == height);
}

}  // namespace

DevicePlan make_device_plan(int width, int height, const SpeedOptions& o) {
  DevicePlan p;
  p.source_width = p.width = width;
  p.source_height = p.height = height;
  p.dim = dimensions_of(width, height, o.prescale);
  if (!p.dim.scoreable()) return p;
  p.resample = resamples(o, width, height);
  if (p.resample) {
    p.width = p.dim.scaled_width;
    p.height = p.dim.scaled_height;
    p.method = int(o.prescale_method);
    p.columns = scale_axis(o.prescale_method, width, p.width);
    p.rows = scale_axis(o.prescale_method, height, p.height);
  }
  p.antialias = antialias_taps(o);
  p.local_mean = local_mean_taps(o);
  p.window_count = float(size_t(p.dim.submatrix_width) * size_t(p.dim.submatrix_height));
  p.sigma_nn = float(o.sigma_nn);
  p.base_entropy = base_entropy(o);
  p.log2_2pie_bits = std::bit_cast<uint64_t>(log2_two_pi_e());
  p.weight_var_mode = o.weight_var_mode;
  return p;
}

PairScore pair_score(const float* terms, int blocks, bool ref_singular, bool dis_singular) {
  PairScore out;
  out.singular = ref_singular || dis_singular;
  if (ref_singular != dis_singular) return out;
  float score = 0;
  for (int i = 0; i < blocks; ++i) score += terms[i];
  out.score = score / float(blocks);
  return out;
}

void solve_pairs(const uint64_t* sum_bits, const bool* active, size_t pairs, const Dimensions& d,
                 ThreadPool* pool, float* solvers, bool* singular) {
  std::vector<size_t> sides;
  for (size_t p = 0; p < pairs; ++p)
    if (active[p]) {
      sides.push_back(2 * p);
      sides.push_back(2 * p + 1);
    }
  parallel_for(pool, int(sides.size()), [&](int task) {
    const size_t side = sides[size_t(task)];
    double sums[kCovariancePairs];
    for (int k = 0; k < kCovariancePairs; ++k)
      sums[k] = std::bit_cast<double>(sum_bits[side * kCovariancePairs + size_t(k)]);
    BlockSolver b;
    solve_for_blocks(sums, d.submatrix_width, d.submatrix_height, b);
    float* out = solvers + side * kSolverFloats;
    std::memcpy(out, b.qt, sizeof b.qt);
    std::memcpy(out + kBlockElements * kBlockElements, b.r, sizeof b.r);
    std::memcpy(out + 2 * kBlockElements * kBlockElements, b.eigenvalues, sizeof b.eigenvalues);
    singular[side] = b.singular;
  });
}

size_t words_per_pair(int blocks, bool flags) { return size_t(blocks) * (flags ? 4 : 1); }

PairScore pair_score_of_words(const uint32_t* words, int blocks, bool flags, bool ref_singular,
                              bool dis_singular, const char* feature) {
  if (ref_singular != dis_singular) return pair_score(nullptr, 0, ref_singular, dis_singular);
  const size_t n = size_t(blocks);
  if (flags) {
    // The scalar engine's order: both sides' entropies, then the terms.
    const char* what[3] = {"a block's entropy", "a block's entropy", "a block's variance weight"};
    for (size_t k = 0; k < 3; ++k)
      for (size_t b = 0; b < n; ++b)
        if (words[(k + 1) * n + b] != 0)
          throw DeviceError(fmt::format(
              "{}: {} takes log2 of a value that is not positive (libvmaf's -inf or NaN), which "
              "fp64=emulate does not represent; use fp64=native",
              feature, what[k]));
  }
  std::vector<float> terms(n);
  if (n) std::memcpy(terms.data(), words, n * sizeof(float));
  return pair_score(terms.data(), blocks, ref_singular, dis_singular);
}

}  // namespace exactvq::speed
