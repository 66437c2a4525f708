// A device raster-order sum call's layout (docs/architecture.md, "The raster-order sum on
// devices"): which term arrays it sums, per frame, and where each array's chunks and blocks fall in
// the call's numbering. One definition for the CUDA and OpenCL launches, which differ only in how
// they name device memory (`Terms`).
#pragma once

#include <cstdint>

#include <fmt/format.h>

#include "core/binade_step.h"
#include "core/error.h"

namespace exactvq {

// Frame f's array a: `count` terms at offset + f * frame_stride (in terms, 8 bytes each).
struct RasterArray {
  int64_t offset = 0;
  int64_t frame_stride = 0;
  int64_t count = 0;
};

inline constexpr int kRasterMaxArrays = 8;

template <typename Terms>
struct RasterSumLayoutOf {
  static constexpr int kMaxArrays = kRasterMaxArrays;
  Terms terms{};  // the device's binary64 terms
  int frames = 1;
  int arrays = 1;
  RasterArray array[kMaxArrays];
};

// The arrays' places and the first chunk and block of each array within a frame
// ([arrays]: a frame's count); chunks of EXACTVQ_RASTER_CHUNK terms, blocks of
// EXACTVQ_RASTER_BLOCK_CHUNKS chunks.
struct RasterPlan {
  int64_t frames = 0, arrays = 0;
  int64_t offset[kRasterMaxArrays] = {}, stride[kRasterMaxArrays] = {},
          count[kRasterMaxArrays] = {};
  int64_t chunk_first[kRasterMaxArrays + 1] = {}, block_first[kRasterMaxArrays + 1] = {};

  int64_t chunks() const { return frames * chunk_first[arrays]; }
  int64_t blocks() const { return frames * block_first[arrays]; }
};

// Throws DeviceError on a layout no launch can take.
template <typename Terms>
RasterPlan plan_raster_sum(const RasterSumLayoutOf<Terms>& layout) {
  constexpr int64_t chunk = EXACTVQ_RASTER_CHUNK, block = chunk * EXACTVQ_RASTER_BLOCK_CHUNKS;
  if (layout.arrays < 1 || layout.arrays > kRasterMaxArrays || layout.frames < 0)
    throw DeviceError(fmt::format("raster sum: bad layout of {} frames of {} arrays", layout.frames,
                                  layout.arrays));
  RasterPlan p;
  p.frames = layout.frames;
  p.arrays = layout.arrays;
  for (int a = 0; a < layout.arrays; ++a) {
    const RasterArray& r = layout.array[a];
    if (r.count < 0 || r.offset < 0)
      throw DeviceError("raster sum: an array with a negative count or offset");
    p.offset[a] = r.offset;
    p.stride[a] = r.frame_stride;
    p.count[a] = r.count;
    p.chunk_first[a + 1] = p.chunk_first[a] + (r.count + chunk - 1) / chunk;
    p.block_first[a + 1] = p.block_first[a] + (r.count + block - 1) / block;
  }
  return p;
}

}  // namespace exactvq
