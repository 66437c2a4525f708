// The reading side of the GPU pipeline: several threads per input reading frames
// at fixed offsets (VideoSource::read_ahead) give exactly what frame-by-frame
// reading gives: the same pairs, end warning and first error, for clean, short,
// cut, malformed and out-of-range inputs, any subsampling and frame count. No
// GPU needed.
#include <gtest/gtest.h>

#include <algorithm>
#include <exception>
#include <filesystem>
#include <fstream>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "app/pair_reader.h"
#include "core/error.h"
#include "io/video_source.h"

namespace exactvq {
namespace {

namespace fs = std::filesystem;

enum class Damage { kNone, kCutInFrame, kCutInHeader, kBadMarker, kParameters, kBadSample };

// A Y4M (or raw when `raw`) file of `frames` frames, damaged at frame `at`.
std::string write_video(const std::string& name, const VideoFormat& f, int frames, bool raw,
                        Damage damage, int at, uint64_t seed) {
  const fs::path dir = fs::path(EXACTVQ_TEST_TMP) / "pipeline_reader";
  fs::create_directories(dir);
  const fs::path path = dir / (name + (raw ? ".yuv" : ".y4m"));
  std::string bytes;
  if (!raw)
    bytes += fmt::format("YUV4MPEG2 W{} H{} F25:1 C{}{}\n", f.width, f.height,
                         f.chroma == ChromaFormat::k420 ? "420jpeg" : "444",
                         f.bitdepth > 8 ? fmt::format("p{}", f.bitdepth) : "");
  std::mt19937_64 rng(seed);
  for (int i = 0; i < frames; ++i) {
    if (!raw) {
      if (damage == Damage::kBadMarker && i == at)
        bytes += "FRAMX\n";
      else if (damage == Damage::kParameters && i == at)
        bytes += "FRAME Ixyz\n";
      else
        bytes += "FRAME\n";
    }
    std::string frame(f.frame_bytes(), '\0');
    for (size_t k = 0; k < frame.size(); k += f.bytes_per_sample()) {
      const uint32_t v = uint32_t(rng()) & f.max_sample();
      frame[k] = char(v & 0xff);
      if (f.bytes_per_sample() == 2) frame[k + 1] = char(v >> 8);
    }
    if (damage == Damage::kBadSample && i == at) frame[frame.size() - 1] = char(0xff);
    bytes += frame;
    if (damage == Damage::kCutInFrame && i == at) {
      bytes.resize(bytes.size() - 5);
      break;
    }
    if (damage == Damage::kCutInHeader && i + 1 == at) {
      if (!raw) bytes += "FRA";
      break;
    }
  }
  std::ofstream(path, std::ios::binary) << bytes;
  return path.string();
}

// Everything a run sees: per batch the count, numbers and sample bytes, and at
// the end the warning and the first error's message.
std::string read_all(const std::string& ref_path, const std::string& dist_path,
                     const RawOptions& raw, PairReadOptions o, size_t capacity, bool parallel,
                     int threads) {
  std::string log;
  std::unique_ptr<VideoSource> ref, dist;
  try {
    ref = open_video(ref_path, raw);
    dist = open_video(dist_path, raw);
  } catch (const std::exception& e) {
    return std::string("open: ") + e.what();
  }
  PairReader reader(*ref, *dist, o, parallel, threads);
  FrameBatch batch(capacity);
  for (int guard = 0; guard < 1000; ++guard) {
    reader.fill(batch);
    log += fmt::format("batch {} last {}:", batch.count, batch.last);
    for (size_t i = 0; i < batch.count; ++i) {
      log += fmt::format(" #{}", batch.index[i]);
      for (const Picture* p : {&batch.ref[i], &batch.dist[i]})
        for (int plane = 0; plane < p->format.plane_count(); ++plane) {
          uint64_t h = 1469598103934665603ull;
          for (uint8_t b : p->planes[size_t(plane)]) h = (h ^ b) * 1099511628211ull;
          log += fmt::format(":{:x}", h);
        }
    }
    log += "\n";
    if (!batch.warning.empty()) log += "warning " + batch.warning + "\n";
    if (batch.error) {
      try {
        std::rethrow_exception(batch.error);
      } catch (const std::exception& e) {
        log += std::string("error ") + e.what() + "\n";
      }
    }
    if (batch.last) return log;
  }
  return log + "no last batch\n";
}

TEST(PipelineReader, ManyThreadsPerInputReadLikeOne) {
  const VideoFormat formats[] = {{24, 16, ChromaFormat::k420, 8}, {9, 7, ChromaFormat::k444, 10}};
  const Damage damages[] = {Damage::kNone,      Damage::kCutInFrame, Damage::kCutInHeader,
                            Damage::kBadMarker, Damage::kParameters, Damage::kBadSample};
  int compared = 0;
  for (const VideoFormat& f : formats)
    for (const bool raw : {false, true})
      for (const Damage damage : damages) {
        if (raw && (damage == Damage::kBadMarker || damage == Damage::kParameters)) continue;
        if (damage == Damage::kBadSample && f.bitdepth == 8) continue;
        for (const int at : {0, 5, 13}) {
          const int frames = 17;
          const std::string tag =
              fmt::format("{}x{}_{}_{}_{}", f.width, f.height, raw, int(damage), at);
          // The damage in the reference, in the distorted input, or neither.
          const std::string clean =
              write_video("clean_" + tag, f, frames, raw, Damage::kNone, 0, 11);
          const std::string bad = write_video("bad_" + tag, f, frames, raw, damage, at, 12);
          const std::string shorter = write_video("short_" + tag, f, 9, raw, Damage::kNone, 0, 13);
          RawOptions ro;
          if (raw) {
            ro.width = f.width;
            ro.height = f.height;
            ro.bitdepth = f.bitdepth;
            ro.chroma = f.chroma;
          }
          const std::pair<std::string, std::string> inputs[] = {
              {clean, bad}, {bad, clean}, {shorter, clean}, {clean, shorter}, {bad, shorter}};
          for (const auto& [r, d] : inputs)
            for (const int subsample : {1, 2, 5})
              for (const std::optional<int64_t> count :
                   {std::optional<int64_t>(), std::optional<int64_t>(7)})
                for (const size_t capacity : {size_t(1), size_t(5)}) {
                  const PairReadOptions o{count, subsample};
                  const std::string want = read_all(r, d, ro, o, capacity, false, 1);
                  for (const int threads : {3, 8}) {
                    const std::string got = read_all(r, d, ro, o, capacity, threads != 3, threads);
                    ASSERT_EQ(got, want)
                        << tag << " " << r << " / " << d << " subsample " << subsample << " count "
                        << count.value_or(-1) << " capacity " << capacity << " threads " << threads;
                    ++compared;
                  }
                }
        }
      }
  EXPECT_GT(compared, 500);
}

// The parallel path is taken (not only the fallback): on a clean regular file
// it reads the frames it is asked for and leaves the source right after them.
TEST(PipelineReader, ReadAheadReadsCleanFiles) {
  const VideoFormat f{24, 16, ChromaFormat::k420, 8};
  const std::string path = write_video("ahead", f, 12, false, Damage::kNone, 0, 5);
  auto a = open_video(path, {});
  auto b = open_video(path, {});
  std::vector<Picture> fast(4), slow(4);
  const std::vector<int64_t> ahead = {0, 2, 3, 7};
  ASSERT_EQ(a->read_ahead(fast, ahead, 3), 4u);
  for (int i = 0, k = 0; i <= 7; ++i) {
    if (i == ahead[size_t(k)])
      ASSERT_TRUE(b->read_frame(slow[size_t(k++)]));
    else
      ASSERT_TRUE(b->skip_frame());
  }
  const auto same = [](const Picture& x, const Picture& y) {
    return x.format == y.format && std::ranges::equal(x.storage(), y.storage());
  };
  for (size_t k = 0; k < 4; ++k) EXPECT_TRUE(same(fast[k], slow[k])) << k;
  Picture next_a, next_b;
  ASSERT_TRUE(a->read_frame(next_a));
  ASSERT_TRUE(b->read_frame(next_b));
  EXPECT_TRUE(same(next_a, next_b));
  // Past the end: only the frames that exist.
  std::vector<Picture> tail(4);
  EXPECT_EQ(a->read_ahead(tail, std::vector<int64_t>{0, 1, 2, 3}, 2), 3u);
  EXPECT_FALSE(a->read_frame(next_a));
}

}  // namespace
}  // namespace exactvq
