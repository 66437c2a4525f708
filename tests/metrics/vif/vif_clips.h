// Seeded clips for vif's tests, written as libvmaf's CLI reads them (Y4M 4:4:4,
// raw 4:4:4 little-endian for 16 bits), and libvmaf's own vif values on them.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "core/picture.h"
#include "io/video_source.h"
#include "libvmaf_vmaf_vectors.h"

namespace exactvq::vif_testing {

namespace fs = std::filesystem;

struct Clip {
  VideoFormat format;
  fs::path ref, dist;
  RawOptions raw;  // set for 16-bit raw clips
  std::vector<Picture> ref_pics, dist_pics;
};

inline Picture luma_picture(const VideoFormat& f, const std::vector<uint16_t>& luma) {
  Picture p;
  p.allocate(f);
  const uint16_t half = uint16_t(f.max_sample() / 2 + 1);
  for (int plane = 0; plane < 3; ++plane) {
    const size_t n = size_t(f.plane_width(plane)) * size_t(f.plane_height(plane));
    for (size_t i = 0; i < n; ++i) {
      const uint16_t v = plane == 0 ? luma[i] : half;
      if (f.bitdepth > 8)
        reinterpret_cast<uint16_t*>(p.plane_data(plane))[i] = v;
      else
        p.plane_data(plane)[i] = uint8_t(v);
    }
  }
  return p;
}

inline std::string file_bytes(const VideoFormat& f, const std::vector<Picture>& pics, bool y4m) {
  std::string out;
  if (y4m)
    out += fmt::format("YUV4MPEG2 W{} H{} F25:1 Ip A1:1 C444{}\n", f.width, f.height,
                       f.bitdepth > 8 ? fmt::format("p{}", f.bitdepth) : std::string());
  for (const Picture& p : pics) {
    if (y4m) out += "FRAME\n";
    for (int plane = 0; plane < 3; ++plane) {
      const size_t n = size_t(f.plane_width(plane)) * size_t(f.plane_height(plane));
      for (size_t i = 0; i < n; ++i) {
        if (f.bitdepth > 8) {
          const uint16_t v = reinterpret_cast<const uint16_t*>(p.planes[size_t(plane)].data())[i];
          out += char(v & 0xff);
          out += char(v >> 8);
        } else {
          out += char(p.planes[size_t(plane)][i]);
        }
      }
    }
  }
  return out;
}

// A smooth pattern with noise as reference; the distorted picture adds noise
// of a random strength or scales contrast up (so that the gain limit bites).
inline Clip write_clip(const fs::path& dir, int w, int h, int bitdepth, int frames, uint32_t seed) {
  Clip c;
  c.format = VideoFormat{w, h, ChromaFormat::k444, bitdepth};
  std::mt19937 rng(seed);
  const int peak = int(c.format.max_sample());
  for (int f = 0; f < frames; ++f) {
    std::vector<uint16_t> ref(size_t(w) * size_t(h)), dist(ref.size());
    const double phase = double(rng() % 1000) / 100.0, fx = 0.05 + double(rng() % 100) / 200.0;
    const int grain = int(rng() % 3 == 0 ? peak : peak / 16 + 1);
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x) {
        const double s = 0.5 + 0.4 * std::sin(fx * x + 0.2 * y + phase);
        const int v = int(s * peak) + int(rng() % uint32_t(2 * grain + 1)) - grain;
        ref[size_t(y) * size_t(w) + size_t(x)] = uint16_t(std::clamp(v, 0, peak));
      }
    const int mode = int(rng() % 4);
    const int noise = std::max(1, peak >> (2 + rng() % 8));
    for (size_t i = 0; i < ref.size(); ++i) {
      const int v = mode == 0 ? int(ref[i]) * 13 / 10
                              : int(ref[i]) + int(rng() % uint32_t(2 * noise + 1)) - noise;
      dist[i] = uint16_t(std::clamp(v, 0, peak));
    }
    c.ref_pics.push_back(luma_picture(c.format, ref));
    c.dist_pics.push_back(luma_picture(c.format, dist));
  }
  fs::create_directories(dir);
  // libvmaf reads 16 bits from raw files only (and no depths but 8, 10, 12, 16).
  const bool y4m = bitdepth < 16;
  c.ref = dir / (y4m ? "ref.y4m" : "ref.yuv");
  c.dist = dir / (y4m ? "dist.y4m" : "dist.yuv");
  std::ofstream(c.ref, std::ios::binary) << file_bytes(c.format, c.ref_pics, y4m);
  std::ofstream(c.dist, std::ios::binary) << file_bytes(c.format, c.dist_pics, y4m);
  if (!y4m) {
    c.raw.width = w;
    c.raw.height = h;
    c.raw.bitdepth = bitdepth;
    c.raw.chroma = ChromaFormat::k444;
  }
  return c;
}

// libvmaf's per-frame metrics (in its order) for `feature` on two files,
// plain C, full precision; empty when it failed.
inline std::vector<nlohmann::ordered_json> libvmaf_frames(const fs::path& ref, const fs::path& dist,
                                                          const RawOptions& raw,
                                                          const std::string& feature,
                                                          const fs::path& out,
                                                          const std::string& extra = "") {
  std::string cmd = fmt::format(
      "VMAF_JSON_FULL_PRECISION=1 '{}' -r '{}' -d '{}' --feature '{}' --no_prediction "
      "--cpumask 0xffffffff --json -o '{}' -q {}",
      testing_vectors::kLibvmafBinary.string(), ref.string(), dist.string(), feature, out.string(),
      extra);
  if (raw.width)
    cmd += fmt::format(" -w {} -h {} -p {} -b {}", *raw.width, *raw.height,
                       chroma_name(*raw.chroma), *raw.bitdepth);
  cmd += " >/dev/null 2>&1";
  if (std::system(cmd.c_str()) != 0) return {};
  std::ifstream in(out);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const auto report = nlohmann::ordered_json::parse(testing_vectors::signed_zeros_kept(text));
  std::vector<nlohmann::ordered_json> frames;
  for (const auto& f : report.at("frames")) frames.push_back(f.at("metrics"));
  return frames;
}

inline std::vector<Picture> read_pictures(const fs::path& path, const RawOptions& raw) {
  std::vector<Picture> pics;
  auto src = open_video(path.string(), raw);
  Picture p;
  while (src->read_frame(p)) pics.push_back(p);
  return pics;
}

}  // namespace exactvq::vif_testing
