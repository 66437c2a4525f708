// Cambi's per-sample stages as the CUDA engine launches them on a picture
// already on the device (metrics/cambi/definition.h, one thread an output),
// each on `stream`, in the order a picture needs them.
#pragma once

#include <cstddef>
#include <cstdint>

#include <cuda_runtime_api.h>

#include "metrics/cambi/definition.h"
#include "metrics/cambi/pool_device.h"

namespace exactvq::cambi::cuda {

// A picture's luma on the device: 8-bit samples unless `wide`, rows of
// `width` samples stored tightly; the nearest-neighbour picks of the scored
// size in device memory (null: the picture has the scored size).
struct LumaSource {
  const void* plane = nullptr;
  bool wide = false;
  int width = 0;
  const int* rows = nullptr;
  const int* cols = nullptr;
};

// The w x h 10-bit image, anti-dithered where asked.
void launch_ten_bit(const LumaSource& in, CambiConvert c, bool anti_dither, int w, int h,
                    uint16_t* out, cudaStream_t stream);

// The spatial mask of a w x h image (1 where more than `threshold` flat samples).
void launch_mask(const uint16_t* image, int w, int h, int threshold, uint8_t* mask,
                 cudaStream_t stream);

// The w x h mode-filtered image of a scale read from `src` (rows `src_width`
// samples) at every (1 << step)-th row and column.
void launch_mode_filter(const uint16_t* src, int src_width, int step, int w, int h, uint16_t* out,
                        cudaStream_t stream);

// The band codes of a w x h scale (cambi_band_code), the mask read at every
// (1 << mask_step)-th sample of its rows of `mask_width`.
void launch_band_codes(const uint16_t* image, int w, int h, const uint8_t* mask, int mask_width,
                       int mask_step, CambiContrast k, uint16_t* codes, cudaStream_t stream);

// The contrast kernel's runs (samples a thread) and blocks (runs x rows), as
// pool_records (device_plan.h) takes them.
inline constexpr int kContrastRun = 32, kContrastBlockRuns = 32, kContrastBlockRows = 8;

// The contrast values of a w x h scale from its band codes into values[0 ..
// w h), and each block's pool record into `records` (pool_records' layout of
// the scale).
void launch_contrast(const uint16_t* codes, int w, int h, CambiContrast k, CambiTables t,
                     float* values, uint64_t* records, cudaStream_t stream);

}  // namespace exactvq::cambi::cuda
