// Seeded clips for adm's tests, written as libvmaf's CLI reads them (Y4M 4:4:4
// for 8, 10 and 12 bits; raw 4:4:4 little-endian for 16), with vif's clip
// plumbing (vif_clips.h: the files, libvmaf's per-frame values on them).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <random>
#include <vector>

#include "core/picture.h"
#include "metrics/vif/vif_clips.h"

namespace exactvq::adm_testing {

namespace fs = std::filesystem;
using vif_testing::Clip;

// What a clip shows: natural-ish content, or extremes that drive the integer
// paths to their limits (full-scale checkerboards, saturated noise).
enum class Content { kNatural, kCheckerboard, kSaturatedNoise };

// Natural: a sinusoidal pattern with grain (or pure noise) as reference; the
// distorted one adds noise, blurs, raises contrast (so the enhancement limit
// acts) or stays equal, each chosen by the seed. Checkerboard: 0 / peak
// squares, a third of the distorted samples inverted. Saturated noise: 0 or
// peak at random in both.
inline Clip make_clip(const fs::path& dir, int w, int h, int bitdepth, int frames, uint32_t seed,
                      Content content = Content::kNatural) {
  Clip c;
  c.format = VideoFormat{w, h, ChromaFormat::k444, bitdepth};
  std::mt19937 rng(seed);
  const int peak = int(c.format.max_sample());
  for (int f = 0; f < frames; ++f) {
    std::vector<uint16_t> ref(size_t(w) * size_t(h)), dist(ref.size());
    const bool noise_only = rng() % 5 == 0;
    const double phase = double(rng() % 1000) / 100.0, fx = 0.03 + double(rng() % 100) / 150.0;
    const double fy = 0.02 + double(rng() % 100) / 300.0;
    const int grain = int(peak / (4 + rng() % 60)) + 1;
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x) {
        const double s = 0.5 + 0.45 * std::sin(fx * x + fy * y * y / (h + 1.0) + phase);
        const int v = noise_only ? int(rng() % uint32_t(peak + 1))
                                 : int(s * peak) + int(rng() % uint32_t(2 * grain + 1)) - grain;
        ref[size_t(y) * size_t(w) + size_t(x)] = uint16_t(std::clamp(v, 0, peak));
      }
    const int mode = int(rng() % 5);
    const int noise = std::max(1, peak >> (1 + rng() % 9));
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x) {
        const size_t i = size_t(y) * size_t(w) + size_t(x);
        int v = ref[i];
        if (mode == 0)
          v = (v - peak / 2) * 14 / 10 + peak / 2;
        else if (mode == 1)
          v = (v + ref[size_t(y) * size_t(w) + size_t(std::min(x + 1, w - 1))]) / 2;
        else if (mode < 4)
          v += int(rng() % uint32_t(2 * noise + 1)) - noise;
        dist[i] = uint16_t(std::clamp(v, 0, peak));
        if (content == Content::kCheckerboard) {
          ref[i] = uint16_t(((x + y) & 1) != 0 ? peak : 0);
          dist[i] = rng() % 3 == 0 ? uint16_t(peak - ref[i]) : ref[i];
        } else if (content == Content::kSaturatedNoise) {
          ref[i] = uint16_t((rng() & 1) != 0 ? peak : 0);
          dist[i] = uint16_t((rng() & 1) != 0 ? peak : 0);
        }
      }
    c.ref_pics.push_back(vif_testing::luma_picture(c.format, ref));
    c.dist_pics.push_back(vif_testing::luma_picture(c.format, dist));
  }
  fs::create_directories(dir);
  const bool y4m = bitdepth != 16;
  c.ref = dir / (y4m ? "ref.y4m" : "ref.yuv");
  c.dist = dir / (y4m ? "dist.y4m" : "dist.yuv");
  std::ofstream(c.ref, std::ios::binary) << vif_testing::file_bytes(c.format, c.ref_pics, y4m);
  std::ofstream(c.dist, std::ios::binary) << vif_testing::file_bytes(c.format, c.dist_pics, y4m);
  if (!y4m) {
    c.raw.width = w;
    c.raw.height = h;
    c.raw.bitdepth = bitdepth;
    c.raw.chroma = ChromaFormat::k444;
  }
  return c;
}

// libvmaf's per-frame metrics, in its order, for `feature` (plain C, full
// precision); empty when it failed.
inline std::vector<nlohmann::ordered_json> libvmaf_metrics(const Clip& c,
                                                           const std::string& feature,
                                                           const fs::path& json) {
  return vif_testing::libvmaf_frames(c.ref, c.dist, c.raw, feature, json);
}

}  // namespace exactvq::adm_testing
