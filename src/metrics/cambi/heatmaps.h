// Cambi's heatmaps (libvmaf's heatmaps_path): each scale's contrast values of
// every distorted frame, before pooling, as 16-bit samples scaled so that the
// largest value a window can give is 65535, one raw file a scale,
// "<dir>/cambi_heatmap_scale_<s>_<w>x<h>_16b.gray" (w x h the encoding size
// halved s times, rounded up, as libvmaf names them even where the speed-up
// halves scale 0), frame f's rows at f * rows * width samples: the bytes
// libvmaf writes.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>

#include "metrics/cambi/setup.h"

namespace exactvq::cambi {

class HeatmapFiles {
 public:
  // Creates `dir` (and its parents) and the five files, empty. Throws
  // OutputError naming what could not be made.
  HeatmapFiles(const std::string& dir, const CambiSetup& s);
  ~HeatmapFiles();
  HeatmapFiles(const HeatmapFiles&) = delete;
  HeatmapFiles& operator=(const HeatmapFiles&) = delete;

  // Frame `index`'s values at `scale` (w x h of them), at their place in the
  // scale's file. Frames may come in any order and from several threads.
  // Throws OutputError on a failed write, and where the place passes 2^31
  // samples (libvmaf's int offset overflows there).
  void write(int64_t index, int scale, std::span<const float> values, int w, int h) const;

 private:
  std::array<int, kScales> fds_{};
  std::array<std::string, kScales> paths_;
  double scaling_ = 0;  // 65535 / the largest value a window can give
};

}  // namespace exactvq::cambi
