// psnr_hvs on seeded random pairs against the libvmaf binary (plain C,
// VMAF_JSON_FULL_PRECISION=1: every value as %.17g): every output of every
// frame bit for bit, 8, 10 and 12 bits, 4:2:0, 4:2:2 and 4:4:4, odd sizes
// wherever libvmaf reads them (it crashes on an odd subsampled chroma side;
// that is checked too). Skipped, saying so, where the binary is absent.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "core/thread_pool.h"
#include "libvmaf_vmaf_vectors.h"
#include "metrics/psnr_hvs/psnr_hvs_feature.h"
#include "metrics/registry.h"

namespace exactvq {
namespace {

namespace fs = std::filesystem;
using testing_vectors::same_bits;

const char* const kKeys[] = {"psnr_hvs_y", "psnr_hvs_cb", "psnr_hvs_cr", "psnr_hvs"};

enum class Content { kNoise, kNear, kIdentical, kOffset, kExtremes };

// A picture of `content` relative to `ref` (ignored for kNoise and kExtremes).
Picture make_picture(const VideoFormat& f, std::mt19937& rng, Content content, const Picture* ref) {
  Picture p;
  p.allocate(f);
  const int peak = int(f.max_sample());
  const int noise = 1 + int(rng() % uint32_t(std::max(1, peak / 8)));
  for (int plane = 0; plane < 3; ++plane) {
    const int w = f.plane_width(plane), h = f.plane_height(plane);
    const double fx = 0.02 + double(rng() % 100) / 300.0;
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x) {
        const size_t i = size_t(y) * size_t(w) + size_t(x);
        int base = 0;
        if (ref)
          base = f.bitdepth > 8 ? reinterpret_cast<const uint16_t*>(ref->plane(plane).data)[i]
                                : ref->plane(plane).data[i];
        int v = 0;
        switch (content) {
          case Content::kNoise:  // a smooth pattern with grain
            v = int((0.5 + 0.4 * std::sin(fx * x + 0.1 * y)) * peak) + int(rng() % 21) - 10;
            break;
          case Content::kNear:
            v = base + int(rng() % uint32_t(2 * noise + 1)) - noise;
            break;
          case Content::kIdentical:
            v = base;
            break;
          case Content::kOffset:
            v = base + noise;
            break;
          case Content::kExtremes:
            v = rng() % 2 ? peak : 0;
            break;
        }
        v = std::clamp(v, 0, peak);
        if (f.bitdepth > 8)
          reinterpret_cast<uint16_t*>(p.plane_data(plane))[i] = uint16_t(v);
        else
          p.plane_data(plane)[i] = uint8_t(v);
      }
  }
  return p;
}

// Raw planar YUV as libvmaf's -w -h -p -b reads it (little-endian above 8 bits).
void write_raw(const fs::path& path, const std::vector<Picture>& pics) {
  std::ofstream out(path, std::ios::binary);
  for (const Picture& p : pics)
    for (int plane = 0; plane < 3; ++plane)
      out.write(reinterpret_cast<const char*>(p.planes[size_t(plane)].data()),
                std::streamsize(p.format.plane_bytes(plane)));
}

// libvmaf's frames' metrics, or nothing where it failed (its exit status in *rc).
std::vector<nlohmann::json> libvmaf_frames(const VideoFormat& f, const fs::path& dir, int* rc) {
  const fs::path out = dir / "libvmaf.json";
  const std::string cmd = fmt::format(
      "VMAF_JSON_FULL_PRECISION=1 '{}' -r '{}' -d '{}' -w {} -h {} -p {} -b {} --feature psnr_hvs "
      "--no_prediction --cpumask 0xffffffff --json -o '{}' -q >/dev/null 2>&1",
      testing_vectors::kLibvmafBinary.string(), (dir / "ref.yuv").string(),
      (dir / "dist.yuv").string(), f.width, f.height, chroma_name(f.chroma), f.bitdepth,
      out.string());
  *rc = std::system(cmd.c_str());
  if (*rc != 0) return {};
  std::ifstream in(out);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const nlohmann::json report = nlohmann::json::parse(testing_vectors::signed_zeros_kept(text));
  std::vector<nlohmann::json> frames;
  for (const auto& fr : report.at("frames")) frames.push_back(fr.at("metrics"));
  return frames;
}

struct Clip {
  VideoFormat format;
  std::vector<Picture> refs, dists;
};

Clip write_clip(const fs::path& dir, const VideoFormat& f, uint32_t seed) {
  std::mt19937 rng(seed);
  Clip c{f, {}, {}};
  const Content kinds[] = {Content::kNear, Content::kNoise, Content::kIdentical, Content::kOffset,
                           Content::kExtremes};
  for (int i = 0; i < 2; ++i) {
    const bool extreme = rng() % 6 == 0;
    c.refs.push_back(make_picture(f, rng, extreme ? Content::kExtremes : Content::kNoise, nullptr));
    const Content k = kinds[rng() % (i == 0 ? 2 : 5)];
    c.dists.push_back(make_picture(f, rng, k, &c.refs.back()));
  }
  fs::create_directories(dir);
  write_raw(dir / "ref.yuv", c.refs);
  write_raw(dir / "dist.yuv", c.dists);
  return c;
}

// The feature's values of a clip's frames, rows of 4, batched on two threads.
std::vector<double> exactvq_values(const Clip& c, ThreadPool* pool) {
  auto feature =
      make_feature(parse_feature_spec("psnr_hvs"), FeatureContext{c.format, pool, nullptr});
  std::vector<FramePair> pairs;
  for (size_t i = 0; i < c.refs.size(); ++i) pairs.push_back({&c.refs[i], &c.dists[i], int64_t(i)});
  std::vector<double> out(pairs.size() * 4);
  feature->extract_batch(pairs, out);
  return out;
}

bool libvmaf_reads(const VideoFormat& f) {
  const bool odd_w = f.width % 2 != 0, odd_h = f.height % 2 != 0;
  switch (f.chroma) {
    case ChromaFormat::k420:
      return !odd_w && !odd_h;
    case ChromaFormat::k422:
      return !odd_w;
    default:
      return true;
  }
}

TEST(PsnrHvsOracle, RandomPairsEqualLibvmafBitForBit) {
  if (!fs::exists(testing_vectors::kLibvmafBinary)) {
    std::printf("no libvmaf binary at %s: psnr_hvs oracle skipped\n",
                testing_vectors::kLibvmafBinary.c_str());
    GTEST_SKIP() << "no libvmaf binary at " << testing_vectors::kLibvmafBinary
                 << ": oracle skipped";
  }
  const uint32_t seed = 20261205;
  std::vector<VideoFormat> formats = {
      {16, 16, ChromaFormat::k420, 8},     {8, 8, ChromaFormat::k444, 12},
      {15, 8, ChromaFormat::k444, 10},     {30, 29, ChromaFormat::k422, 8},
      {22, 16, ChromaFormat::k420, 10},    {29, 31, ChromaFormat::k444, 12},
      {64, 46, ChromaFormat::k420, 12},    {176, 144, ChromaFormat::k420, 8},
      {100, 57, ChromaFormat::k422, 10},   {57, 101, ChromaFormat::k444, 8},
      {1920, 1080, ChromaFormat::k420, 8},  // full size: a long binary32 sum
      {1280, 721, ChromaFormat::k444, 12},
  };
  const ChromaFormat chromas[] = {ChromaFormat::k420, ChromaFormat::k422, ChromaFormat::k444};
  std::mt19937 rng(seed);
  while (formats.size() < 42) {
    VideoFormat f{16 + int(rng() % 240), 16 + int(rng() % 160), chromas[rng() % 3],
                  8 + 2 * int(rng() % 3)};
    if (!libvmaf_reads(f)) continue;  // checked apart below
    formats.push_back(f);
  }
  ThreadPool pool(2);
  const fs::path root = fs::path(EXACTVQ_TEST_TMP) / "psnr_hvs_oracle";
  int compared = 0, differing = 0, infinite = 0;
  for (size_t k = 0; k < formats.size(); ++k) {
    const VideoFormat& f = formats[k];
    const fs::path dir = root / std::to_string(k);
    const Clip clip = write_clip(dir, f, seed + uint32_t(k));
    int rc = 0;
    const auto want = libvmaf_frames(f, dir, &rc);
    ASSERT_EQ(want.size(), clip.refs.size())
        << "libvmaf failed (" << rc << ") on " << f.describe() << " seed " << seed + k;
    for (ThreadPool* threads : {static_cast<ThreadPool*>(nullptr), &pool}) {
      const std::vector<double> mine = exactvq_values(clip, threads);
      for (size_t i = 0; i < want.size(); ++i)
        for (size_t n = 0; n < 4; ++n, ++compared) {
          const nlohmann::json& v = want[i].at(kKeys[n]);
          const double m = mine[i * 4 + n];
          // libvmaf's JSON writes non-finite values (identical frames: +inf) as null.
          const bool same = v.is_null() ? m == INFINITY : same_bits(m, v.get<double>());
          infinite += v.is_null();
          differing += !same;
          EXPECT_TRUE(same) << f.describe() << " seed " << seed + k << " frame " << i << " "
                            << kKeys[n] << ": " << m << " vs libvmaf " << v;
        }
    }
  }
  std::printf(
      "[ oracle   ] psnr_hvs: %zu random pairs, %d values compared (1 and 2 threads; %d "
      "libvmaf null = +inf), %d differing (seed %u)\n",
      formats.size(), compared, infinite, differing, seed);
  EXPECT_EQ(differing, 0);
}

// Where a subsampled chroma side is odd, libvmaf crashes; exactvq scores
// FFmpeg's ceil(W/2) layout (README's differences).
TEST(PsnrHvsOracle, LibvmafCrashesOnOddSubsampledChroma) {
  if (!fs::exists(testing_vectors::kLibvmafBinary))
    GTEST_SKIP() << "no libvmaf binary at " << testing_vectors::kLibvmafBinary
                 << ": oracle skipped";
  const fs::path root = fs::path(EXACTVQ_TEST_TMP) / "psnr_hvs_oracle_odd";
  for (const VideoFormat& f :
       {VideoFormat{29, 30, ChromaFormat::k422, 8}, VideoFormat{30, 29, ChromaFormat::k420, 10},
        VideoFormat{31, 31, ChromaFormat::k420, 12}}) {
    const fs::path dir = root / fmt::format("{}x{}_{}", f.width, f.height, chroma_name(f.chroma));
    const Clip clip = write_clip(dir, f, 11);
    int rc = 0;
    EXPECT_TRUE(libvmaf_frames(f, dir, &rc).empty()) << f.describe();
    EXPECT_NE(rc, 0) << f.describe();
    for (double v : exactvq_values(clip, nullptr)) EXPECT_FALSE(std::isnan(v)) << f.describe();
  }
}

}  // namespace
}  // namespace exactvq
