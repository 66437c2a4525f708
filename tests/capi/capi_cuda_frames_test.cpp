// exactvq_score_cuda_frames: pictures in CUDA device memory give the bits of the
// same pictures in host memory, with and without a copy to the host, with padded
// rows and over several calls; bad samples are named on the device; host memory
// passed as device memory is refused. The GPU cases skip with a message without one.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "core/picture.h"
#include "exactvq/exactvq.h"

#ifdef EXACTVQ_HAVE_CUDA
#include <cuda_runtime_api.h>
#endif

namespace {

using namespace exactvq;

struct Close {
  void operator()(exactvq_context* c) const { exactvq_close(c); }
};
using ContextPtr = std::unique_ptr<exactvq_context, Close>;

struct Run {
  ContextPtr ctx;
  std::vector<std::string> messages;
};

std::unique_ptr<Run> open_run(exactvq_backend backend, std::vector<const char*> features) {
  auto run = std::make_unique<Run>();
  exactvq_options o;
  exactvq_default_options(&o);
  o.features = features.data();
  o.feature_count = features.size();
  o.backend = backend;
  o.threads = 2;
  o.on_message = [](void* user, const char* m) { static_cast<Run*>(user)->messages.push_back(m); };
  o.message_user = run.get();
  exactvq_context* ctx = nullptr;
  EXPECT_EQ(exactvq_open(&ctx, &o), EXACTVQ_OK) << exactvq_last_error(nullptr);
  run->ctx.reset(ctx);
  return run;
}

exactvq_chroma chroma_of(ChromaFormat c) {
  switch (c) {
    case ChromaFormat::k420:
      return EXACTVQ_CHROMA_420;
    case ChromaFormat::k422:
      return EXACTVQ_CHROMA_422;
    case ChromaFormat::k444:
      return EXACTVQ_CHROMA_444;
    case ChromaFormat::kMono:
      break;
  }
  return EXACTVQ_CHROMA_MONO;
}

exactvq_picture view_of(const Picture& pic) {
  exactvq_picture v{};
  for (int p = 0; p < pic.format.plane_count(); ++p) {
    v.data[p] = pic.plane(p).data;
    v.stride[p] = pic.plane(p).stride;
  }
  v.width = pic.format.width;
  v.height = pic.format.height;
  v.chroma = chroma_of(pic.format.chroma);
  v.bitdepth = pic.format.bitdepth;
  return v;
}

// Every score of every frame, name by name.
std::vector<std::vector<double>> all_scores(const exactvq_context* ctx) {
  size_t names = 0, frames = 0;
  exactvq_score_count(ctx, &names);
  exactvq_frame_count(ctx, &frames);
  std::vector<std::vector<double>> out;
  for (size_t k = 0; k < names; ++k) {
    const char* name = nullptr;
    exactvq_score_name(ctx, k, &name);
    std::vector<double> v(frames);
    EXPECT_EQ(exactvq_read_scores(ctx, name, v.data(), frames), EXACTVQ_OK)
        << exactvq_last_error(ctx);
    out.push_back(std::move(v));
  }
  return out;
}

bool same_bits(const std::vector<std::vector<double>>& a,
               const std::vector<std::vector<double>>& b) {
  if (a.size() != b.size()) return false;
  for (size_t k = 0; k < a.size(); ++k)
    if (a[k].size() != b[k].size() ||
        std::memcmp(a[k].data(), b[k].data(), a[k].size() * sizeof(double)) != 0)
      return false;
  return true;
}

std::vector<Picture> random_pictures(const VideoFormat& f, size_t count, uint64_t seed, int noise) {
  std::mt19937_64 rng(seed);
  std::vector<Picture> out(count);
  for (auto& pic : out) {
    pic.allocate(f);
    for (int p = 0; p < f.plane_count(); ++p) {
      const size_t n = size_t(f.plane_width(p)) * size_t(f.plane_height(p));
      for (size_t k = 0; k < n; ++k) {
        const uint32_t v = uint32_t(rng() % (f.max_sample() + 1));
        if (f.bitdepth > 8)
          reinterpret_cast<uint16_t*>(pic.plane_data(p))[k] = uint16_t(v);
        else
          pic.plane_data(p)[k] = uint8_t(v);
      }
    }
  }
  // The distorted side: the reference plus noise, kept in range.
  if (noise > 0)
    for (auto& pic : out)
      for (int p = 0; p < f.plane_count(); ++p) {
        const size_t n = size_t(f.plane_width(p)) * size_t(f.plane_height(p));
        for (size_t k = 0; k < n; ++k) {
          const int d = int(rng() % unsigned(2 * noise + 1)) - noise;
          if (f.bitdepth > 8) {
            auto& s = reinterpret_cast<uint16_t*>(pic.plane_data(p))[k];
            s = uint16_t(std::clamp(int(s) + d, 0, int(f.max_sample())));
          } else {
            auto& s = pic.plane_data(p)[k];
            s = uint8_t(std::clamp(int(s) + d, 0, 255));
          }
        }
      }
  return out;
}

TEST(CApiCudaFrames, HostMemoryGivenAsDeviceMemoryIsRefused) {
  const VideoFormat f{32, 24, ChromaFormat::k420, 8};
  const auto refs = random_pictures(f, 1, 1, 0), dists = random_pictures(f, 1, 2, 0);
  const exactvq_picture r = view_of(refs[0]), d = view_of(dists[0]);
  auto run = open_run(EXACTVQ_BACKEND_CPU, {"ssim"});
  const exactvq_status s = exactvq_score_cuda_frames(run->ctx.get(), &r, &d, 1, nullptr);
#ifdef EXACTVQ_HAVE_CUDA
  EXPECT_EQ(s, EXACTVQ_ERROR_INPUT);
  EXPECT_STREQ(exactvq_last_error(run->ctx.get()),
               "frame 0, reference picture: plane Y is not in CUDA device memory");
#else
  EXPECT_EQ(s, EXACTVQ_ERROR_DEVICE);
  EXPECT_STREQ(exactvq_last_error(run->ctx.get()),
               "score_cuda_frames: this exactvq was built without CUDA");
#endif
  size_t frames = 1;
  exactvq_frame_count(run->ctx.get(), &frames);
  EXPECT_EQ(frames, 0u);
  // A run fed from the host takes no device pictures afterwards, and the reverse.
  ASSERT_EQ(exactvq_score_frames(run->ctx.get(), &r, &d, 1), EXACTVQ_OK);
  EXPECT_EQ(exactvq_score_cuda_frames(run->ctx.get(), &r, &d, 1, nullptr), EXACTVQ_ERROR_STATE);
}

#ifdef EXACTVQ_HAVE_CUDA

bool have_gpu(std::string* why) {
  int n = 0;
  const cudaError_t e = cudaGetDeviceCount(&n);
  if (e != cudaSuccess || n == 0) {
    cudaGetLastError();
    *why = e != cudaSuccess ? cudaGetErrorString(e) : "no device";
    return false;
  }
  return true;
}

// Pictures copied into device memory, each plane `pad` bytes wider per row than
// its samples.
class DevicePictures {
 public:
  DevicePictures(const std::vector<Picture>& pics, size_t pad) {
    for (const auto& pic : pics) {
      exactvq_picture v = view_of(pic);
      for (int p = 0; p < pic.format.plane_count(); ++p) {
        const PlaneView plane = pic.plane(p);
        const size_t row = size_t(plane.width) * size_t(plane.bytes_per_sample), pitch = row + pad;
        void* mem = nullptr;
        EXPECT_EQ(cudaMalloc(&mem, pitch * size_t(plane.height)), cudaSuccess);
        EXPECT_EQ(cudaMemcpy2D(mem, pitch, plane.data, row, row, size_t(plane.height),
                               cudaMemcpyHostToDevice),
                  cudaSuccess);
        memory_.push_back(mem);
        v.data[p] = mem;
        v.stride[p] = ptrdiff_t(pitch);
      }
      views_.push_back(v);
    }
  }
  ~DevicePictures() {
    for (void* m : memory_) cudaFree(m);
  }
  const exactvq_picture* data() const { return views_.data(); }
  size_t size() const { return views_.size(); }
  void* plane(size_t i, int p) const { return const_cast<void*>(views_[i].data[p]); }

 private:
  std::vector<void*> memory_;
  std::vector<exactvq_picture> views_;
};

class CApiCudaFramesGpu : public testing::Test {
 protected:
  void SetUp() override {
    std::string why;
    if (!have_gpu(&why)) GTEST_SKIP() << "no usable CUDA device (" << why << "): GPU test skipped";
  }
};

std::vector<std::vector<double>> host_scores(const std::vector<Picture>& refs,
                                             const std::vector<Picture>& dists,
                                             std::vector<const char*> features) {
  auto run = open_run(EXACTVQ_BACKEND_CPU, features);
  std::vector<exactvq_picture> r, d;
  for (size_t i = 0; i < refs.size(); ++i) {
    r.push_back(view_of(refs[i]));
    d.push_back(view_of(dists[i]));
  }
  EXPECT_EQ(exactvq_score_frames(run->ctx.get(), r.data(), d.data(), r.size()), EXACTVQ_OK)
      << exactvq_last_error(run->ctx.get());
  exactvq_flush(run->ctx.get());
  return all_scores(run->ctx.get());
}

TEST_F(CApiCudaFramesGpu, ScoredOnTheDeviceWithTheHostsBits) {
  struct Case {
    VideoFormat format;
    size_t frames, pad;
  };
  for (const Case& c : {Case{{97, 61, ChromaFormat::k420, 10}, 5, 6},
                        Case{{1920, 1080, ChromaFormat::kMono, 8}, 6, 0},
                        Case{{333, 211, ChromaFormat::k444, 12}, 3, 128},
                        Case{{64, 48, ChromaFormat::k422, 16}, 4, 2}}) {
    SCOPED_TRACE(c.format.describe());
    // The same seed: the reference plus noise.
    const auto refs = random_pictures(c.format, c.frames, 11, 0),
               dists = random_pictures(c.format, c.frames, 11, 9);
    const std::vector<const char*> features = {
        c.format.chroma == ChromaFormat::kMono ? "ssim" : "ssim=chroma=true", "psnr"};
    const auto want = host_scores(refs, dists, features);
    const DevicePictures dr(refs, c.pad), dd(dists, c.pad);
    auto run = open_run(EXACTVQ_BACKEND_CUDA, features);
    // Two calls: the first frame, then the rest.
    ASSERT_EQ(exactvq_score_cuda_frames(run->ctx.get(), dr.data(), dd.data(), 1, nullptr),
              EXACTVQ_OK)
        << exactvq_last_error(run->ctx.get());
    ASSERT_EQ(exactvq_score_cuda_frames(run->ctx.get(), dr.data() + 1, dd.data() + 1, dr.size() - 1,
                                        cudaStreamLegacy),
              EXACTVQ_OK)
        << exactvq_last_error(run->ctx.get());
    exactvq_flush(run->ctx.get());
    EXPECT_TRUE(same_bits(all_scores(run->ctx.get()), want));
    EXPECT_TRUE(run->messages.empty() ||
                run->messages.back().find("copied to the host") == std::string::npos);
  }
}

bool told_host_copies(const Run& run) {
  for (const auto& m : run.messages)
    if (m.find("copied to the host") != std::string::npos) return true;
  return false;
}

// VMAF's features and the float SSIMs read pictures in place on the GPU too; a run
// on the CPU, and vif on pictures too small for its kernels, get a host copy.
TEST_F(CApiCudaFramesGpu, EveryFeatureGivesTheHostsBitsInPlaceOrFromACopy) {
  struct Case {
    VideoFormat format;
    exactvq_backend backend;
    std::vector<const char*> features;
    bool copied;
  };
  const std::vector<Case> cases = {
      {{176, 144, ChromaFormat::k420, 8},
       EXACTVQ_BACKEND_CUDA,
       {"ssim", "vif", "motion", "adm", "float_ssim"},
       false},
      {{176, 144, ChromaFormat::k420, 10},
       EXACTVQ_BACKEND_CUDA,
       {"vif", "motion", "adm", "psnr"},
       false},
      {{176, 144, ChromaFormat::k420, 8}, EXACTVQ_BACKEND_CPU, {"ssim", "vif", "motion"}, true},
      {{15, 12, ChromaFormat::k420, 8}, EXACTVQ_BACKEND_CUDA, {"vif", "motion"}, true},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.format.describe() + (c.backend == EXACTVQ_BACKEND_CUDA ? " cuda" : " cpu"));
    const auto refs = random_pictures(c.format, 4, 5, 0),
               dists = random_pictures(c.format, 4, 5, 6);
    const DevicePictures dr(refs, 0), dd(dists, 0);
    auto run = open_run(c.backend, c.features);
    ASSERT_EQ(exactvq_score_cuda_frames(run->ctx.get(), dr.data(), dd.data(), dr.size(), nullptr),
              EXACTVQ_OK)
        << exactvq_last_error(run->ctx.get());
    exactvq_flush(run->ctx.get());
    EXPECT_TRUE(same_bits(all_scores(run->ctx.get()), host_scores(refs, dists, c.features)));
    EXPECT_EQ(told_host_copies(*run), c.copied);
  }
}

TEST_F(CApiCudaFramesGpu, SamplesAboveTheBitDepthAreNamed) {
  const VideoFormat f{40, 30, ChromaFormat::k420, 10};
  const auto refs = random_pictures(f, 3, 8, 0);
  const DevicePictures dr(refs, 4), dd(refs, 4);
  const uint16_t bad = 1024;
  // Frame 2's Cb plane, x=7, y=3 (rows of 20 samples + 4 bytes).
  ASSERT_EQ(cudaMemcpy(static_cast<char*>(dd.plane(2, 1)) + 3 * (20 * 2 + 4) + 7 * 2, &bad, 2,
                       cudaMemcpyHostToDevice),
            cudaSuccess);
  auto run = open_run(EXACTVQ_BACKEND_CUDA, {"ssim"});
  EXPECT_EQ(exactvq_score_cuda_frames(run->ctx.get(), dr.data(), dd.data(), 3, nullptr),
            EXACTVQ_ERROR_INPUT);
  EXPECT_STREQ(exactvq_last_error(run->ctx.get()),
               "frame 2, distorted picture: plane Cb, x=7, y=3: sample 1024 exceeds the 10-bit "
               "maximum 1023");
  size_t frames = 1;
  exactvq_frame_count(run->ctx.get(), &frames);
  EXPECT_EQ(frames, 0u);
}

#endif  // EXACTVQ_HAVE_CUDA

}  // namespace
