// The uploader's host-to-device copies: one cudaMemcpyBatchAsync per
// chunk or one cudaMemcpyAsync per plane, on a copy stream of their own or on
// each chunk's lane, put every plane of every frame where the kernels read it,
// byte for byte, and the features score the same bits every way as on the CPU.
// Without a GPU every case skips with a message.
#include <cuda_runtime_api.h>

#include <cstdlib>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "backends/cuda/frame_uploader.h"
#include "metrics/registry.h"
#include "cuda_fixture.h"

namespace exactvq::cudatest {
namespace {

struct Layout {
  VideoFormat format;
  int frames, planes, chunk, batch;
};

// Uploads `layout.frames` random pairs in batches, copies each chunk's device
// planes back on the chunk's stream and expects them equal to the pictures.
// `scattered`: each picture's planes are moved to buffers of their own (not
// one after another as a Picture lays them out), so the uploader copies them
// one by one instead of one copy a picture.
void expect_uploaded_exactly(const Layout& l, bool batched, bool copy_stream, bool pin,
                             bool background_pin, bool scattered = false) {
  const std::string what =
      l.format.describe() + (batched ? " batched" : " per plane") +
      (copy_stream ? " copy stream" : " on the lanes") + (pin ? " pinned" : " pageable") +
      (background_pin ? " (background)" : "") + (scattered ? " scattered planes" : "");
  std::mt19937_64 rng(uint64_t(l.frames) * 31 + uint64_t(l.chunk));
  std::vector<Picture> ref(size_t(l.frames)), dist(size_t(l.frames));
  std::vector<FramePair> pairs;
  std::vector<std::vector<uint8_t>> elsewhere;  // the scattered planes
  elsewhere.reserve(size_t(6 * l.frames));
  for (int i = 0; i < l.frames; ++i) {
    fill_pair(ref[size_t(i)], dist[size_t(i)], l.format, Content::kRandom, rng);
    pairs.push_back({&ref[size_t(i)], &dist[size_t(i)], 100 + i});
    if (scattered)
      for (Picture* pic : {&ref[size_t(i)], &dist[size_t(i)]})
        for (auto& plane : pic->planes) {
          auto& copy = elsewhere.emplace_back(plane.begin(), plane.end());
          plane = std::span<uint8_t>(copy);
        }
  }
  cuda::FrameUploader uploader(l.format, l.planes, l.chunk, l.batch, background_pin);
  uploader.set_short_tail(true);
  uploader.set_batched_copies(batched);
  uploader.set_copy_stream(copy_stream);
  // back[frame][plane]: what the device held for that frame's planes.
  std::vector<std::vector<std::vector<uint8_t>>> back_ref(size_t(l.frames)),
      back_dist(size_t(l.frames));
  for (int base = 0; base < l.frames; base += l.batch) {
    const int n = std::min(l.batch, l.frames - base);
    int expected_start = 0;
    uploader.upload(std::span(pairs).subspan(size_t(base), size_t(n)), pin,
                    [&](const cuda::FrameUploader::Chunk& c) {
                      EXPECT_EQ(c.start, expected_start) << what;
                      EXPECT_GE(c.count, 1) << what;
                      EXPECT_LE(c.count, l.chunk) << what;
                      EXPECT_EQ(c.first_index, pairs[size_t(base + c.start)].index) << what;
                      expected_start += c.count;
                      for (int i = 0; i < c.count; ++i) {
                        auto& r = back_ref[size_t(base + c.start + i)];
                        auto& d = back_dist[size_t(base + c.start + i)];
                        r.resize(size_t(l.planes));
                        d.resize(size_t(l.planes));
                        for (int p = 0; p < l.planes; ++p) {
                          const cuda::DevicePlanes& dp = c.planes[p];
                          const size_t bytes = l.format.plane_bytes(p);
                          ASSERT_GE(dp.frame_stride, bytes) << what;
                          ASSERT_EQ(dp.frames, c.count) << what;
                          r[size_t(p)].assign(bytes, 0xA5);
                          d[size_t(p)].assign(bytes, 0x5A);
                          const auto* dev_ref =
                              static_cast<const uint8_t*>(dp.ref) + size_t(i) * dp.frame_stride;
                          const auto* dev_dist =
                              static_cast<const uint8_t*>(dp.dist) + size_t(i) * dp.frame_stride;
                          cuda::check(cudaMemcpyAsync(r[size_t(p)].data(), dev_ref, bytes,
                                                      cudaMemcpyDeviceToHost, c.stream),
                                      "read-back");
                          cuda::check(cudaMemcpyAsync(d[size_t(p)].data(), dev_dist, bytes,
                                                      cudaMemcpyDeviceToHost, c.stream),
                                      "read-back");
                        }
                      }
                    });
    uploader.synchronize();
    EXPECT_EQ(expected_start, n) << what;
  }
  int driver = 0;
  cudaDriverGetVersion(&driver);
  // The batch call exists from driver 12.8 on; there it must be the path taken
  // for page-locked pictures.
  if (batched && driver >= 12080) {
    EXPECT_TRUE(uploader.batched_copies()) << what << ", driver " << driver;
    if (pin && !background_pin) {
      EXPECT_EQ(uploader.refused_batches(), 0) << what;
    }
  }
  if (batched && uploader.refused_batches() > 0)
    std::printf(
        "[   NOTE   ] %s: driver %d refused cudaMemcpyBatchAsync for %lld chunks (copied one by "
        "one)\n",
        what.c_str(), driver, static_cast<long long>(uploader.refused_batches()));
  for (int i = 0; i < l.frames; ++i)
    for (int p = 0; p < l.planes; ++p) {
      const size_t bytes = l.format.plane_bytes(p);
      ASSERT_EQ(back_ref[size_t(i)].size(), size_t(l.planes)) << what << " frame " << i;
      EXPECT_EQ(std::memcmp(back_ref[size_t(i)][size_t(p)].data(),
                            ref[size_t(i)].planes[size_t(p)].data(), bytes),
                0)
          << what << " frame " << i << " reference plane " << p;
      EXPECT_EQ(std::memcmp(back_dist[size_t(i)][size_t(p)].data(),
                            dist[size_t(i)].planes[size_t(p)].data(), bytes),
                0)
          << what << " frame " << i << " distorted plane " << p;
    }
}

TEST_F(CudaTest, UploaderCopiesEveryPlaneExactly) {
  const bool small = std::getenv("EXACTVQ_CUDA_SMALL") != nullptr;  // under compute-sanitizer
  const Layout layouts[] = {
      {{177, 97, ChromaFormat::k422, 10}, 7, 3, 3, 5},
      {{64, 48, ChromaFormat::k444, 16}, 5, 3, 2, 5},
      {{3, 1, ChromaFormat::k420, 9}, 4, 3, 4, 4},
      {{720, 576, ChromaFormat::k420, 8}, 6, 1, 4, 6},  // luma only: 400 KB planes are page-locked
      // Chunks of 4, the batch's last frames one per chunk, planes of 2 MB and 0.5 MB.
      {{1920, 1080, ChromaFormat::k420, 8}, 11, 3, 4, 8},
  };
  for (const Layout& l : layouts) {
    if (small && l.format.width > 800) continue;
    for (bool batched : {true, false})
      for (bool copy_stream : {true, false})
        for (bool pin : {true, false}) expect_uploaded_exactly(l, batched, copy_stream, pin, false);
    expect_uploaded_exactly(l, true, true, true, true);
    expect_uploaded_exactly(l, true, true, true, false, /*scattered=*/true);
    expect_uploaded_exactly(l, false, false, false, false, /*scattered=*/true);
  }
}

struct Path {
  const char* batch_copies;  // EXACTVQ_CUDA_BATCH_COPIES
  const char* copy_stream;   // EXACTVQ_CUDA_COPY_STREAM
  const char* min_chunk;     // EXACTVQ_CUDA_MIN_CHUNK
};

// Opens a fresh device under `path`'s pipeline knobs.
std::shared_ptr<Device> device_with(const Path& path) {
  setenv("EXACTVQ_CUDA_BATCH_COPIES", path.batch_copies, 1);
  setenv("EXACTVQ_CUDA_COPY_STREAM", path.copy_stream, 1);
  setenv("EXACTVQ_CUDA_MIN_CHUNK", path.min_chunk, 1);
  DeviceOptions o;
  o.backend = Backend::kCuda;
  auto device = open_cuda_device(o, VideoFormat{16, 16, ChromaFormat::k420, 8});
  unsetenv("EXACTVQ_CUDA_BATCH_COPIES");
  unsetenv("EXACTVQ_CUDA_COPY_STREAM");
  unsetenv("EXACTVQ_CUDA_MIN_CHUNK");
  return device;
}

// The features over every copy path give the CPU's bits (the copies feed the kernels).
TEST_F(CudaTest, BatchedAndPerPlaneCopiesScoreAsCpu) {
  const bool small = std::getenv("EXACTVQ_CUDA_SMALL") != nullptr;
  struct Case {
    VideoFormat format;
    int frames;
    const char* spec;
  };
  const Case cases[] = {
      {{176, 144, ChromaFormat::k420, 8}, 40, "ssim=chroma=true"},
      {{177, 97, ChromaFormat::k422, 10}, 20, "psnr"},
      {{1920, 1080, ChromaFormat::k420, 8}, 11, "ssim=chroma=true"},
      {{1920, 1080, ChromaFormat::k420, 10}, 9, "psnr"},
      {{3840, 2160, ChromaFormat::k420, 8},
       5,
       "ssim"},  // chunks of 2 (or 1), the last frames one by one
  };
  ThreadPool pool(2);
  int compared = 0;
  const Path paths[] = {
      {"1", "1", "2"}, {"0", "1", "2"}, {"1", "0", "2"}, {"0", "0", "1"}, {"1", "1", "1"}};
  std::vector<std::shared_ptr<Device>> devices;
  for (const Path& path : paths) {
    devices.push_back(device_with(path));
    ASSERT_TRUE(devices.back());
  }
  for (const Case& c : cases) {
    if (small && c.format.width > 200) continue;
    std::mt19937_64 rng(uint64_t(c.frames) * 7);
    std::vector<Picture> ref(size_t(c.frames)), dist(size_t(c.frames));
    std::vector<FramePair> pairs;
    for (int i = 0; i < c.frames; ++i) {
      fill_pair(ref[size_t(i)], dist[size_t(i)], c.format,
                i % 2 ? Content::kNoisy : Content::kRandom, rng);
      pairs.push_back({&ref[size_t(i)], &dist[size_t(i)], int64_t(i)});
    }
    const FeatureSpec spec = parse_feature_spec(c.spec);
    auto cpu = make_feature(spec, FeatureContext{c.format, &pool, nullptr});
    const size_t outputs = cpu->outputs().size();
    std::vector<double> want(pairs.size() * outputs);
    cpu->extract_batch(pairs, want);
    for (size_t k = 0; k < std::size(paths); ++k) {
      const Path& path = paths[k];
      auto gpu_feature = make_feature(spec, FeatureContext{c.format, &pool, devices[k]});
      std::vector<double> got(want.size(), -3.0);
      const size_t batch = size_t(gpu_feature->batch_frames());
      for (size_t start = 0; start < pairs.size(); start += batch) {
        const size_t n = std::min(batch, pairs.size() - start);
        gpu_feature->extract_batch(std::span(pairs).subspan(start, n),
                                   std::span(got).subspan(start * outputs, n * outputs));
      }
      for (size_t i = 0; i < want.size(); ++i, ++compared)
        EXPECT_TRUE(same_bits(got[i], want[i]))
            << "EXACTVQ_CUDA_BATCH_COPIES=" << path.batch_copies
            << " EXACTVQ_CUDA_COPY_STREAM=" << path.copy_stream
            << " EXACTVQ_CUDA_MIN_CHUNK=" << path.min_chunk << " " << c.format.describe() << " "
            << c.spec << " value " << i << ": gpu " << got[i] << " cpu " << want[i];
    }
  }
  EXPECT_GT(compared, 0);
}

}  // namespace
}  // namespace exactvq::cudatest
