#include "backends/cuda/sample_range.h"

namespace exactvq::cuda {
namespace {

__global__ void first_sample_above(const unsigned char* base, size_t planes_apart, int width,
                                   int height, unsigned max, unsigned long long* first_above) {
  const auto* samples = reinterpret_cast<const unsigned short*>(base + planes_apart * blockIdx.y);
  const unsigned long long count = (unsigned long long)width * (unsigned long long)height;
  const unsigned long long step = (unsigned long long)gridDim.x * blockDim.x;
  for (unsigned long long i = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x; i < count;
       i += step)
    if (samples[i] > max) {
      atomicMin(first_above + blockIdx.y, i);
      return;  // later samples of this thread come after i
    }
}

}  // namespace

void launch_first_sample_above(const unsigned char* base, size_t planes_apart, int planes,
                               int width, int height, unsigned max, unsigned long long* first_above,
                               cudaStream_t stream) {
  if (planes <= 0 || width <= 0 || height <= 0) return;
  const unsigned long long count = (unsigned long long)width * (unsigned long long)height;
  constexpr int kThreads = 256;
  const unsigned blocks = unsigned(count / kThreads + 1 < 512 ? count / kThreads + 1 : 512);
  first_sample_above<<<dim3(blocks, unsigned(planes)), kThreads, 0, stream>>>(
      base, planes_apart, width, height, max, first_above);
}

}  // namespace exactvq::cuda
