// ciede's per-pixel kernel: a thread a pixel, its samples read where the
// reference reads them (chroma_site.h), its delta E from definition.h, the
// same text the CPU runs (libm's functions included: libm/portable.h), in
// native binary64. -fmad=false keeps every product apart from its sum, so
// each operation rounds as on the host.
#include "metrics/ciede/cuda/delta_e_kernel.h"

#include <algorithm>
#include <cstdint>

#include "backends/cuda/cuda_check.h"
#include "metrics/ciede/definition.h"

namespace exactvq::ciede::cuda {

using exactvq::cuda::check;

namespace {

constexpr int kThreads = 128;

// One plane of the chunk's frames, reference and distorted, rows stored tightly.
template <typename Sample>
struct PlaneReader {
  const Sample* ref;
  const Sample* dist;
  size_t frame_stride;  // samples
  int width;

  __device__ Sample ref_at(int frame, int row, int col) const {
    return ref[size_t(frame) * frame_stride + size_t(row) * size_t(width) + size_t(col)];
  }
  __device__ Sample dist_at(int frame, int row, int col) const {
    return dist[size_t(frame) * frame_stride + size_t(row) * size_t(width) + size_t(col)];
  }
};

template <typename Sample>
PlaneReader<Sample> reader_of(const DevicePlanes& p) {
  return PlaneReader<Sample>{static_cast<const Sample*>(p.ref), static_cast<const Sample*>(p.dist),
                             p.frame_stride / sizeof(Sample), p.width};
}

template <typename Sample>
__global__ void __launch_bounds__(kThreads)
    delta_e_kernel(PlaneReader<Sample> luma, PlaneReader<Sample> cb, PlaneReader<Sample> cr,
                   CiedeChromaReading reading, int width, int64_t pixels, int bitdepth,
                   double* __restrict__ terms) {
  const int frame = int(blockIdx.y);
  for (int64_t i = int64_t(blockIdx.x) * kThreads + threadIdx.x; i < pixels;
       i += int64_t(gridDim.x) * kThreads) {
    const int y = int(i / width), x = int(i % width);
    const CiedeChromaSite c = ciede_chroma_site(reading, x, y);
    const float ru = c.zero ? 0.0f : float(cb.ref_at(frame, c.row, c.col));
    const float rv = c.zero ? 0.0f : float(cr.ref_at(frame, c.row, c.col));
    const float du = c.zero ? 0.0f : float(cb.dist_at(frame, c.row, c.col));
    const float dv = c.zero ? 0.0f : float(cr.dist_at(frame, c.row, c.col));
    const LabColor a = lab_color(float(luma.ref_at(frame, y, x)), ru, rv, bitdepth);
    const LabColor b = lab_color(float(luma.dist_at(frame, y, x)), du, dv, bitdepth);
    terms[int64_t(frame) * pixels + i] = double(delta_e_2000(a, b));
  }
}

template <typename Sample>
void launch(const DeltaEFrames& f, double* terms, cudaStream_t stream) {
  const DevicePlanes& y = f.plane[0];
  const int64_t pixels = int64_t(y.width) * y.height;
  const int64_t blocks = std::min<int64_t>((pixels + kThreads - 1) / kThreads, int64_t{1} << 20);
  const dim3 grid(unsigned(std::max<int64_t>(blocks, 1)), unsigned(y.frames));
  delta_e_kernel<Sample><<<grid, kThreads, 0, stream>>>(
      reader_of<Sample>(f.plane[0]), reader_of<Sample>(f.plane[1]), reader_of<Sample>(f.plane[2]),
      f.reading, y.width, pixels, f.bitdepth, terms);
  check(cudaGetLastError(), "ciede delta E kernel launch");
}

}  // namespace

void launch_delta_e(const DeltaEFrames& frames, double* terms, cudaStream_t stream) {
  if (frames.plane[0].frames == 0) return;
  if (frames.bitdepth == 8) return launch<uint8_t>(frames, terms, stream);
  launch<uint16_t>(frames, terms, stream);
}

}  // namespace exactvq::ciede::cuda
