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

// Side first + blockIdx.y's window means (every block of the side, into shared
// memory) and covariance sums
// blockIdx.x * kThreads .. (one thread a sum). Where shape.staged_bytes > 0 the
// block first copies the windows' (sub_w + 4) x (sub_h + 4) samples into
// shared memory: each sum then reads them there instead of from L2, in the same
// order, so the bits are the same.
__global__ void __launch_bounds__(kThreads)
    statistics_kernel(SpeedSides sides, int dw, int sub_w, int sub_h, float count, int staged) {
  extern __shared__ float shared[];
  const size_t side = size_t(sides.first) + blockIdx.y;
  float* residual = sides.storage + side * sides.side_floats;
  const float* data = residual;
  exactvq_u64 stride = exactvq_u64(dw);
  if (staged) {
    const int tw = sub_w + SPEED_BLOCK - 1, th = sub_h + SPEED_BLOCK - 1;
    float* plane = shared + kSpeedMeanSlots;
    for (int k = int(threadIdx.x); k < tw * th; k += kThreads)
      plane[k] = residual[size_t(k / tw) * size_t(dw) + size_t(k % tw)];
    data = plane;
    stride = exactvq_u64(tw);
    __syncthreads();
  }
  const int k = int(threadIdx.x);
  if (k < SPEED_BLOCK_ELEMENTS) {
    shared[k] = speed_window_mean(data, stride, sub_w, sub_h, k, count);
  }
  __syncthreads();
  const int pair = int(blockIdx.x) * kThreads + k;
  if (pair >= SPEED_PAIRS) return;
  sides.sums[side * SPEED_PAIRS + size_t(pair)] =
      speed_d_bits(speed_covariance_sum(data, stride, sub_w, sub_h, shared, pair));
}

// Block blockIdx.x * kThreads + threadIdx.x of side first + blockIdx.y.
__global__ void __launch_bounds__(kThreads)
    blocks_kernel(SpeedSides sides, int dw, int blocks_horizontal, int blocks, float sigma_nn,
                  uint64_t log2_2pie) {
  const int b = int(blockIdx.x) * kThreads + int(threadIdx.x);
  if (b >= blocks) return;
  const size_t side = size_t(sides.first) + blockIdx.y;
  float* residual = sides.storage + side * sides.side_floats;
  float* entropy = residual + sides.down;
  float* variance = entropy + blocks;
  const float* qt = sides.solvers + side * sides.solver_floats;
  const float* r = qt + SPEED_BLOCK_ELEMENTS * SPEED_BLOCK_ELEMENTS;
  const float* eigenvalues = r + SPEED_BLOCK_ELEMENTS * SPEED_BLOCK_ELEMENTS;
  float out[2];
  const int valid = speed_block(residual, exactvq_u64(dw), blocks_horizontal, b, qt, r, eigenvalues,
                                sides.singular[side], sigma_nn, log2_2pie, out);
  entropy[b] = out[0];
  variance[b] = out[1];
  if (sides.flags) {
    int* flags = reinterpret_cast<int*>(sides.words + (side / 2) * sides.words_per_pair +
                                        (1 + side % 2) * size_t(blocks));
    flags[b] = valid ? 0 : 1;
  }
}

// Block blockIdx.x * kThreads + threadIdx.x of pair first / 2 + blockIdx.y.
__global__ void __launch_bounds__(kThreads)
    terms_kernel(SpeedSides sides, int blocks, float base_entropy, int mode) {
  const int b = int(blockIdx.x) * kThreads + int(threadIdx.x);
  if (b >= blocks) return;
  const size_t pair = size_t(sides.first) / 2 + blockIdx.y;
  const float* ref = sides.storage + 2 * pair * sides.side_floats + sides.down;
  const float* dis = ref + sides.side_floats;
  uint32_t* words = sides.words + pair * sides.words_per_pair;
  int valid = 1;
  reinterpret_cast<float*>(words)[b] =
      speed_term(ref[b], dis[b], ref[blocks + b], dis[blocks + b], base_entropy, mode, &valid);
  if (sides.flags) reinterpret_cast<int*>(words + 3 * size_t(blocks))[b] = valid ? 0 : 1;
}

unsigned groups(int n) { return unsigned((n + kThreads - 1) / kThreads); }

}  // namespace

void launch_statistics(const SpeedShape& s, const SpeedSides& sides, cudaStream_t stream) {
  if (sides.count <= 0) return;
  const size_t shared =
      s.staged_bytes > 0 ? size_t(s.staged_bytes) : kSpeedMeanSlots * sizeof(float);
  if (shared > 48 * 1024)
    exactvq::cuda::check(
        cudaFuncSetAttribute(statistics_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                             int(shared)),
        "SpEED statistics kernel's shared memory");
  statistics_kernel<<<dim3(groups(SPEED_PAIRS), unsigned(sides.count)), kThreads, shared, stream>>>(
      sides, s.dw, s.sub_w, s.sub_h, s.window_count, s.staged_bytes > 0 ? 1 : 0);
  exactvq::cuda::check(cudaGetLastError(), "SpEED statistics kernel launch");
}

void launch_blocks(const SpeedShape& s, const SpeedSides& sides, cudaStream_t stream) {
  if (sides.count <= 0 || s.blocks <= 0) return;
  blocks_kernel<<<dim3(groups(s.blocks), unsigned(sides.count)), kThreads, 0, stream>>>(
      sides, s.dw, s.blocks_horizontal, s.blocks, s.sigma_nn, s.log2_2pie_bits);
  exactvq::cuda::check(cudaGetLastError(), "SpEED blocks kernel launch");
}

void launch_terms(const SpeedShape& s, const SpeedSides& sides, float base_entropy, int mode,
                  cudaStream_t stream) {
  if (sides.count <= 0 || s.blocks <= 0) return;
  terms_kernel<<<dim3(groups(s.blocks), unsigned(sides.count / 2)), kThreads, 0, stream>>>(
      sides, s.blocks, base_entropy, mode);
  exactvq::cuda::check(cudaGetLastError(), "SpEED terms kernel launch");
}

}  // namespace exactvq::speed::cuda::SPEED_F64_NAMESPACE
