// What cambi's device engines (cuda/, opencl/) share on the host: how a
// picture's stages run on a device (its scales, where their contrast values
// lie, the kernels' arguments from the setup), and the host half that turns a
// picture's contrast values, read back, into its five pooled values (the
// heatmaps first, where asked). The kernels summarise each scale's values in
// partial records (pool_device.h), from which the host forms the pooled value
// where it provably equals the reference's; elsewhere the scale's values come
// back and pool here, the quick select being one sequential pass whose order
// the binary64 sum follows (docs/spec/cambi.md "Pooling").
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "core/thread_pool.h"
#include "metrics/cambi/definition.h"
#include "metrics/cambi/heatmaps.h"
#include "metrics/cambi/pool_device.h"
#include "metrics/cambi/pool_records.h"
#include "metrics/cambi/setup.h"

namespace exactvq::cambi {

// One picture (the distorted one at the encoding's size, or the reference at
// the source's) as a device scores it.
struct DevicePicture {
  const ImagePlan* plan = nullptr;
  std::array<std::array<int, 2>, kScales> sizes{};  // each scale's w, h
  std::array<size_t, kScales> offset{};  // each scale's first value in the picture's values
  size_t values = 0;                     // the picture's contrast values, every scale
  int mask_threshold = 0;
  CambiContrast contrast{};
  // Scale s's image is the previous scale's filtered image (scale 0: the
  // 10-bit image) read at every (1 << image_step[s])-th row and column; the
  // mask is the scored size's, read at every (1 << mask_step[s])-th.
  std::array<int, kScales> image_step{}, mask_step{};

  size_t scale_values(int s) const {
    return size_t(sizes[size_t(s)][0]) * size_t(sizes[size_t(s)][1]);
  }
};

// A frame's pictures and their values: the distorted picture's, then with
// full_ref the reference's, one after the other.
struct DeviceLayout {
  DevicePicture picture[2];
  int pictures = 1;
  std::array<size_t, 2> offset{};  // each picture's first value in the frame's
  size_t values_per_frame = 0;
  size_t largest_image = 0;  // samples of the larger scored size
  CambiConvert convert{};
  bool anti_dither = false;
};

DeviceLayout device_layout(const CambiSetup& s);

// The tables the contrast values read (CambiTables), as one block of 32-bit
// words for a device buffer: tvi at word 0, weight at kMaxDiffs, the
// reciprocals (their bits) at 2 kMaxDiffs.
inline constexpr size_t kTableTvi = 0, kTableWeight = kMaxDiffs, kTableReciprocal = 2 * kMaxDiffs;
std::vector<uint32_t> device_tables(const CambiSetup& s);

// The host half of a picture: its contrast values (w h of each scale, as
// `p` lays them out; reordered here) pooled into out[0 .. kScales), each
// scale's values written first to `heatmaps` as frame `index`'s where given.
// Scales run side by side on `pool` (may be null).
void pool_picture(std::span<float> values, const DevicePicture& p, double topk,
                  const HeatmapFiles* heatmaps, int64_t index, ThreadPool* pool,
                  std::span<double> out);

// Where a picture's pool records (pool_device.h, EXACTVQ_CAMBI_POOL_WORDS
// words each) lie when the contrast kernel's blocks take `block_runs` runs of
// `run` samples by `block_rows` rows: scale s's blocks, row by row of its
// grid, from record offset[s] on.
struct PoolRecords {
  std::array<size_t, kScales> offset{}, count{};
  std::array<int, kScales> blocks_across{};  // the scale's blocks a row of its grid
  size_t records = 0;                        // every scale's
};
PoolRecords pool_records(const DevicePicture& p, int run, int block_runs, int block_rows);

// Each scale's pooled value from the picture's records (`words`, laid out as
// `r`) into out[s] where they give it; returns the scales they do not (bit s
// set), whose values must be read back and pooled (pool_topk, reference.h).
unsigned pool_from_records(const uint64_t* words, const PoolRecords& r, const DevicePicture& p,
                           double topk, std::span<double> out);

}  // namespace exactvq::cambi
