// The GPU engines' sequence of steps run on the host (one loop an output),
// over device_steps.h as the including file compiled it (native binary64, or
// softfp with SPEED_EMULATE_FP64): the same functions the CUDA and OpenCL
// kernels call, and the same host steps between them (device_plan.h).
// Defines SPEED_PIPELINE_NAME; included once by each arithmetic's test file.
#include <array>
#include <bit>
#include <vector>

#include "metrics/speed/device_plan.h"
#include "metrics/speed/device_steps.h"

namespace exactvq::speed::testing {

// The pair (a_ref [- b_ref], a_dis [- b_dis]) of `bitdepth`-bit planes of
// plan.width x plan.height samples, rows src_w samples long; b_* null: none.
PairScore SPEED_PIPELINE_NAME(const DevicePlan& plan, const unsigned char* a_ref,
                              const unsigned char* b_ref, const unsigned char* a_dis,
                              const unsigned char* b_dis, int src_w, int bitdepth,
                              bool* all_valid) {
  const Dimensions& d = plan.dim;
  const int w = plan.width, h = plan.height, dw = d.operating_width, dh = d.operating_height;
  const unsigned char* as[2] = {a_ref, a_dis};
  const unsigned char* bs[2] = {b_ref, b_dis};
  std::vector<float> entropy[2], variance[2];
  BlockSolver solvers[2];
  *all_valid = true;
  for (int side = 0; side < 2; ++side) {
    const int sw = plan.source_width, sh = plan.source_height;
    std::vector<float> source(size_t(sw) * size_t(sh)), plane(size_t(w) * size_t(h)),
        down(size_t(dw) * size_t(dh)), residual(down.size());
    for (int y = 0; y < sh; ++y)
      for (int x = 0; x < sw; ++x) {
        const uint64_t i = uint64_t(y) * uint64_t(src_w) + uint64_t(x);
        float v = speed_load_sample(as[side], i, bitdepth);
        if (bs[side]) v = v - speed_load_sample(bs[side], i, bitdepth);
        source[size_t(y) * size_t(sw) + size_t(x)] = v;
      }
    if (plan.resample) {
      const ScaleAxis &cx = plan.columns, &cy = plan.rows;
      for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x)
          plane[size_t(y) * size_t(w) + size_t(x)] = speed_resample_at(
              plan.method, source.data(), uint64_t(sw), &cx.index[size_t(x * cx.taps)],
              &cx.weight[size_t(x * cx.taps)], &cy.index[size_t(y * cy.taps)],
              &cy.weight[size_t(y * cy.taps)], cx.taps);
    } else {
      plane = source;
    }
    // Unscaled, the anti-alias filter reads the samples in place (as the CUDA
    // engine does), else the resampled plane.
    const speed_source filtered =
        plan.resample ? speed_floats(plane.data(), uint64_t(w))
                      : speed_samples(as[side], bs[side], uint64_t(src_w), bitdepth);
    for (int i = 0; i < dh; ++i)
      for (int j = 0; j < dw; ++j)
        down[size_t(i) * size_t(dw) + size_t(j)] = speed_filtered_at(
            plan.antialias.taps, plan.antialias.count, filtered, w, h, i * 16, j * 16);
    for (int i = 0; i < dh; ++i)
      for (int j = 0; j < dw; ++j) {
        const size_t at = size_t(i) * size_t(dw) + size_t(j);
        residual[at] =
            down[at] - speed_filtered_at(plan.local_mean.taps, plan.local_mean.count,
                                         speed_floats(down.data(), uint64_t(dw)), dw, dh, i, j);
      }
    float means[kBlockElements];
    for (int k = 0; k < kBlockElements; ++k)
      means[k] = speed_window_mean(residual.data(), uint64_t(dw), d.submatrix_width,
                                   d.submatrix_height, k, plan.window_count);
    std::array<double, kCovariancePairs> sums;
    for (int p = 0; p < kCovariancePairs; ++p)
      sums[size_t(p)] = std::bit_cast<double>(speed_d_bits(speed_covariance_sum(
          residual.data(), uint64_t(dw), d.submatrix_width, d.submatrix_height, means, p)));
    solve_for_blocks(sums.data(), d.submatrix_width, d.submatrix_height, solvers[side]);
    const BlockSolver& b = solvers[side];
    entropy[side].resize(size_t(d.blocks));
    variance[side].resize(size_t(d.blocks));
    for (int k = 0; k < d.blocks; ++k) {
      float out[2];
      if (!speed_block(residual.data(), uint64_t(dw), d.blocks_horizontal, k, b.qt, b.r,
                       b.eigenvalues, b.singular ? 1 : 0, plan.sigma_nn, plan.log2_2pie_bits, out))
        *all_valid = false;
      entropy[side][size_t(k)] = out[0];
      variance[side][size_t(k)] = out[1];
    }
  }
  if (solvers[0].singular != solvers[1].singular)
    return pair_score(nullptr, 0, solvers[0].singular, solvers[1].singular);
  std::vector<float> terms(size_t(d.blocks));
  for (int k = 0; k < d.blocks; ++k) {
    int valid = 1;
    terms[size_t(k)] =
        speed_term(entropy[0][size_t(k)], entropy[1][size_t(k)], variance[0][size_t(k)],
                   variance[1][size_t(k)], plan.base_entropy, plan.weight_var_mode, &valid);
    if (!valid) *all_valid = false;
  }
  return pair_score(terms.data(), d.blocks, solvers[0].singular, solvers[1].singular);
}

}  // namespace exactvq::speed::testing
