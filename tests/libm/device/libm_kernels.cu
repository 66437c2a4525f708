// A thread an operand: each pinned function's one definition (libm/portable.h),
// compiled for the device with -fmad=false as the metrics' kernels are.
#include "libm/device/libm_kernels.h"

#include <cuda_runtime_api.h>

#include "backends/cuda/cuda_check.h"
#include "libm/portable_functions.h"

namespace exactvq::libm::device_testing {

namespace {

using exactvq::cuda::check;

__global__ void evaluate(Function f, const double* x, const double* y, double* out, size_t n) {
  const size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  namespace p = exactvq::libm::portable;
  switch (f) {
    case Function::kExp:
      out[i] = p::exp(x[i]);
      break;
    case Function::kPow:
      out[i] = p::pow(x[i], y[i]);
      break;
    case Function::kPowf:
      out[i] = double(p::powf(float(x[i]), float(y[i])));
      break;
    case Function::kSin:
      out[i] = p::sin(x[i]);
      break;
    case Function::kCos:
      out[i] = p::cos(x[i]);
      break;
    case Function::kAtan2:
      out[i] = p::atan2(y[i], x[i]);
      break;
  }
}

}  // namespace

void launch_evaluate(Function f, const double* x, const double* y, double* out, size_t n) {
  if (n == 0) return;
  constexpr unsigned kThreads = 128;
  evaluate<<<unsigned((n + kThreads - 1) / kThreads), kThreads>>>(f, x, y, out, n);
  check(cudaGetLastError(), "libm kernel launch");
}

}  // namespace exactvq::libm::device_testing
