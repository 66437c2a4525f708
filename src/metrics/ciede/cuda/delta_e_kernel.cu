// ciede's per-pixel kernel: a thread a pixel, its samples read where the
// reference reads them (chroma_site.h), its delta E from definition.h, the
// same text the CPU runs (libm's functions included: libm/portable.h), in
// native binary64; or, under fp64=emulate, from softfp_delta_e.h, the text
// OpenCL runs. -fmad=false keeps every product apart from its sum, so each
// operation rounds as on the host.
#include "metrics/ciede/cuda/delta_e_kernel.h"

#include <algorithm>
#include <cstdint>

#include "backends/cuda/cuda_check.h"
#include "metrics/ciede/definition.h"
#include "metrics/ciede/softfp_delta_e.h"

namespace exactvq::ciede::cuda {

using exactvq::cuda::check;

namespace {

constexpr int kThreads = 128;

// One plane of the chunk's frames, reference and distorted, rows stored tightly,
// 8-bit samples or (wide) 16-bit ones.
struct PlaneReader {
  const unsigned char* ref;
  const unsigned char* dist;
  size_t frame_stride;  // bytes
  int width;
  bool wide;

  __device__ uint32_t at(const unsigned char* p, int frame, int row, int col) const {
    const size_t i = size_t(row) * size_t(width) + size_t(col);
    p += size_t(frame) * frame_stride;
    return wide ? uint32_t(reinterpret_cast<const uint16_t*>(p)[i]) : uint32_t(p[i]);
  }
  __device__ uint32_t ref_at(int frame, int row, int col) const { return at(ref, frame, row, col); }
  __device__ uint32_t dist_at(int frame, int row, int col) const {
    return at(dist, frame, row, col);
  }
};

PlaneReader reader_of(const DevicePlanes& p) {
  return PlaneReader{static_cast<const unsigned char*>(p.ref),
                     static_cast<const unsigned char*>(p.dist), p.frame_stride, p.width,
                     p.bitdepth > 8};
}

template <bool kEmulate>
__global__ void __launch_bounds__(kThreads)
    delta_e_kernel(PlaneReader luma, PlaneReader cb, PlaneReader cr, CiedeChromaReading reading,
                   int width, int64_t pixels, int bitdepth, const uint64_t* __restrict__ tables,
                   double* __restrict__ terms) {
  const int frame = int(blockIdx.y);
  for (int64_t i = int64_t(blockIdx.x) * kThreads + threadIdx.x; i < pixels;
       i += int64_t(gridDim.x) * kThreads) {
    const int y = int(i / width), x = int(i % width);
    const CiedeChromaSite c = ciede_chroma_site(reading, x, y);
    const uint32_t ru = c.zero ? 0u : cb.ref_at(frame, c.row, c.col);
    const uint32_t rv = c.zero ? 0u : cr.ref_at(frame, c.row, c.col);
    const uint32_t du = c.zero ? 0u : cb.dist_at(frame, c.row, c.col);
    const uint32_t dv = c.zero ? 0u : cr.dist_at(frame, c.row, c.col);
    const uint32_t ry = luma.ref_at(frame, y, x), dy = luma.dist_at(frame, y, x);
    double term;
    if constexpr (kEmulate) {
      const CiedeSoftLab a = ciede_soft_lab_color(ry, ru, rv, bitdepth, tables);
      const CiedeSoftLab b = ciede_soft_lab_color(dy, du, dv, bitdepth, tables);
      term = __longlong_as_double(
          (long long)softfp_to_bits(softfp_from_f32_bits(ciede_soft_delta_e(a, b, tables))));
    } else {
      const LabColor a = lab_color(float(ry), float(ru), float(rv), bitdepth);
      const LabColor b = lab_color(float(dy), float(du), float(dv), bitdepth);
      term = double(delta_e_2000(a, b));
    }
    terms[int64_t(frame) * pixels + i] = term;
  }
}

template <bool kEmulate>
void launch(const DeltaEFrames& f, double* terms, cudaStream_t stream) {
  const DevicePlanes& y = f.plane[0];
  const int64_t pixels = int64_t(y.width) * y.height;
  const int64_t blocks = std::min<int64_t>((pixels + kThreads - 1) / kThreads, int64_t{1} << 20);
  const dim3 grid(unsigned(std::max<int64_t>(blocks, 1)), unsigned(y.frames));
  delta_e_kernel<kEmulate><<<grid, kThreads, 0, stream>>>(
      reader_of(f.plane[0]), reader_of(f.plane[1]), reader_of(f.plane[2]), f.reading, y.width,
      pixels, f.bitdepth, f.tables, terms);
  check(cudaGetLastError(), "ciede delta E kernel launch");
}

}  // namespace

void launch_delta_e(const DeltaEFrames& frames, double* terms, cudaStream_t stream) {
  if (frames.plane[0].frames == 0) return;
  if (frames.emulate_fp64) return launch<true>(frames, terms, stream);
  launch<false>(frames, terms, stream);
}

}  // namespace exactvq::ciede::cuda
