#include "backends/cuda/decoded_surface.h"

namespace exactvq::cuda {
namespace {

template <typename Sample>
__global__ void surface_plane(SurfacePlane plane, uint8_t* dst, unsigned long long* first_stray) {
  const int x = int(blockIdx.x * blockDim.x + threadIdx.x);
  const int y = int(blockIdx.y * blockDim.y + threadIdx.y);
  if (x >= plane.width || y >= plane.height) return;
  const auto* row = reinterpret_cast<const Sample*>(plane.src + ptrdiff_t(y) * plane.src_stride);
  const unsigned value = row[x * plane.step + plane.offset];
  const unsigned long long at =
      (unsigned long long)y * (unsigned long long)plane.width + (unsigned long long)x;
  if (value & ((1u << plane.shift) - 1u)) atomicMin(first_stray, at);
  reinterpret_cast<Sample*>(dst)[at] = Sample(value >> plane.shift);
}

}  // namespace

void launch_surface_plane(const SurfacePlane& plane, uint8_t* dst, unsigned long long* first_stray,
                          cudaStream_t stream) {
  if (plane.width <= 0 || plane.height <= 0) return;
  const dim3 threads(64, 4);
  const dim3 blocks(unsigned((plane.width + 63) / 64), unsigned((plane.height + 3) / 4));
  if (plane.bytes == 1)
    surface_plane<uint8_t><<<blocks, threads, 0, stream>>>(plane, dst, first_stray);
  else
    surface_plane<uint16_t><<<blocks, threads, 0, stream>>>(plane, dst, first_stray);
}

}  // namespace exactvq::cuda
