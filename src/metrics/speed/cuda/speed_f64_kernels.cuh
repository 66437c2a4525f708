// SpEED's kernels with binary64 steps (covariance sums, blocks, terms), one
// text for both arithmetics: speed_kernels_native.cu includes it as is,
// speed_kernels_emulate.cu with SPEED_EMULATE_FP64 defined (device_steps.h
// then takes softfp), each inside its own namespace (SPEED_F64_NAMESPACE).
#include "backends/cuda/cuda_check.h"
#include "metrics/speed/cuda/speed_kernels.h"
#include "metrics/speed/device_steps.h"

namespace exactvq::speed::cuda::SPEED_F64_NAMESPACE {

namespace {

constexpr int kThreads = 64;

__global__ void __launch_bounds__(kThreads)
    covariance_kernel(const float* __restrict__ data, int dw, int sub_w, int sub_h,
                      const float* __restrict__ means, uint64_t* __restrict__ sums) {
  const int pair = int(blockIdx.x) * kThreads + int(threadIdx.x);
  if (pair >= SPEED_PAIRS) return;
  sums[pair] = speed_d_bits(speed_covariance_sum(data, exactvq_u64(dw), sub_w, sub_h, means, pair));
}

__global__ void __launch_bounds__(kThreads)
    blocks_kernel(const float* __restrict__ data, int dw, int blocks_horizontal, int blocks,
                  const float* __restrict__ qt, const float* __restrict__ r,
                  const float* __restrict__ eigenvalues, int singular, float sigma_nn,
                  uint64_t log2_2pie, float* __restrict__ entropy, float* __restrict__ variance,
                  int* __restrict__ invalid) {
  const int b = int(blockIdx.x) * kThreads + int(threadIdx.x);
  if (b >= blocks) return;
  float out[2];
  const int valid = speed_block(data, exactvq_u64(dw), blocks_horizontal, b, qt, r, eigenvalues,
                                singular, sigma_nn, log2_2pie, out);
  entropy[b] = out[0];
  variance[b] = out[1];
  invalid[b] = valid ? 0 : 1;
}

__global__ void __launch_bounds__(kThreads)
    terms_kernel(const float* __restrict__ ref_entropy, const float* __restrict__ ref_variance,
                 const float* __restrict__ dis_entropy, const float* __restrict__ dis_variance,
                 int blocks, float base_entropy, int mode, float* __restrict__ terms,
                 int* __restrict__ invalid) {
  const int b = int(blockIdx.x) * kThreads + int(threadIdx.x);
  if (b >= blocks) return;
  int valid = 1;
  terms[b] = speed_term(ref_entropy[b], dis_entropy[b], ref_variance[b], dis_variance[b],
                        base_entropy, mode, &valid);
  invalid[b] = valid ? 0 : 1;
}

unsigned groups(int n) { return unsigned((n + kThreads - 1) / kThreads); }

}  // namespace

void launch_covariance(const SpeedShape& s, const SpeedSide& side, cudaStream_t stream) {
  covariance_kernel<<<groups(SPEED_PAIRS), kThreads, 0, stream>>>(side.residual, s.dw, s.sub_w,
                                                                  s.sub_h, side.means, side.sums);
  exactvq::cuda::check(cudaGetLastError(), "SpEED covariance kernel launch");
}

void launch_blocks(const SpeedShape& s, const SpeedSide& side, bool singular, cudaStream_t stream) {
  blocks_kernel<<<groups(s.blocks), kThreads, 0, stream>>>(
      side.residual, s.dw, s.blocks_horizontal, s.blocks, side.qt, side.r, side.eigenvalues,
      singular ? 1 : 0, s.sigma_nn, s.log2_2pie_bits, side.entropy, side.variance, side.invalid);
  exactvq::cuda::check(cudaGetLastError(), "SpEED blocks kernel launch");
}

void launch_terms(const SpeedShape& s, const SpeedSide& ref, const SpeedSide& dis,
                  float base_entropy, int mode, float* terms, int* invalid, cudaStream_t stream) {
  terms_kernel<<<groups(s.blocks), kThreads, 0, stream>>>(ref.entropy, ref.variance, dis.entropy,
                                                          dis.variance, s.blocks, base_entropy,
                                                          mode, terms, invalid);
  exactvq::cuda::check(cudaGetLastError(), "SpEED terms kernel launch");
}

}  // namespace exactvq::speed::cuda::SPEED_F64_NAMESPACE
