// The 8-bit exact kernel (metrics/ssim/cuda/ssim_kernel_u8.h), native fp64 and
// emulated, on the public vectors' 8-bit planes against the CPU reference, and
// the planes it refuses (the seeded edge, content and variant cases are rows of
// tests/twins/). Without a GPU every case skips with a message.
#include <cuda_runtime_api.h>

#include <cstdio>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "backends/cuda/cuda_resources.h"
#include "bench/cuda/kernel_variants.h"
#include "metrics/ssim/cuda/ssim_kernel_u8.h"
#include "backends/cuda/cuda_fixture.h"
#include "io/video_source.h"
#include "libvmaf_vector_pairs.h"
#include "metrics/ssim/fixed_point.h"
#include "metrics/ssim/reference.h"

namespace exactvq::cudatest {
namespace {

// One 8-bit plane pair of a frame, stored tightly.
struct PlanePair {
  int width = 0, height = 0;
  std::vector<uint8_t> ref, dist;
};

using Launch = std::function<void(const cuda::DevicePlanes&, ssim::cuda::ExactWords*)>;

// Uploads `frames` (same size) one after another, frame_stride = plane bytes +
// `pad`, starting `offset` bytes into the buffers, launches once, and expects
// every frame's sum equal to the reference's. Returns the number of sums compared.
int expect_sums(const std::vector<PlanePair>& frames, const Launch& launch, const std::string& what,
                size_t pad = 0, size_t offset = 0) {
  const int w = frames[0].width, h = frames[0].height;
  const size_t bytes = size_t(w) * size_t(h), stride = bytes + pad, n = frames.size();
  std::vector<uint8_t> ref(offset + stride * n, 0x5a), dist(offset + stride * n, 0xa5);
  for (size_t i = 0; i < n; ++i) {
    std::memcpy(ref.data() + offset + stride * i, frames[i].ref.data(), bytes);
    std::memcpy(dist.data() + offset + stride * i, frames[i].dist.data(), bytes);
  }
  cuda::DeviceBuffer dref(ref.size()), ddist(dist.size()),
      dsums(sizeof(ssim::cuda::ExactWords) * n);
  EXPECT_EQ(cudaMemcpy(dref.get(), ref.data(), ref.size(), cudaMemcpyHostToDevice), cudaSuccess);
  EXPECT_EQ(cudaMemcpy(ddist.get(), dist.data(), dist.size(), cudaMemcpyHostToDevice), cudaSuccess);
  EXPECT_EQ(cudaMemset(dsums.get(), 0, sizeof(ssim::cuda::ExactWords) * n), cudaSuccess);
  const cuda::DevicePlanes planes{
      dref.get<uint8_t>() + offset, ddist.get<uint8_t>() + offset, stride, w, h, 8, int(n)};
  launch(planes, dsums.get<ssim::cuda::ExactWords>());
  std::vector<ssim::cuda::ExactWords> got(n);
  EXPECT_EQ(cudaMemcpy(got.data(), dsums.get(), sizeof(ssim::cuda::ExactWords) * n,
                       cudaMemcpyDeviceToHost),
            cudaSuccess);
  for (size_t i = 0; i < n; ++i) {
    const PlaneView r{frames[i].ref.data(), w, w, h, 1}, d{frames[i].dist.data(), w, w, h, 1};
    const auto want = static_cast<ssim::uint128>(ssim::exact_sum(r, d, 8, ssim::whole(r)).sum_q);
    EXPECT_TRUE(got[i].lo == uint64_t(want) && got[i].hi == uint64_t(want >> 64))
        << what << " " << w << "x" << h << " frame " << i << " of " << n << " (pad " << pad
        << ", offset " << offset << ")";
  }
  return int(n);
}

const Launch kDefault = [](const cuda::DevicePlanes& p, ssim::cuda::ExactWords* s) {
  ssim::cuda::launch_exact_u8(ssim::cuda::SsimPlanes(p), s, nullptr);
};
// The same kernel with the term through softfp (no fp64 instruction).
const Launch kEmulated = [](const cuda::DevicePlanes& p, ssim::cuda::ExactWords* s) {
  ssim::cuda::launch_exact_u8(ssim::cuda::SsimPlanes(p, true), s, nullptr);
};

// Every 8-bit plane of every public vector, all frames of a pair in one launch.
TEST_F(CudaTest, U8KernelPublicVectorsEqualReference) {
  if (!testing_vectors::vectors_present())
    GTEST_SKIP() << "no shared vectors at " << testing_vectors::kVectors;
  int compared = 0, pairs_used = 0;
  for (const testing_vectors::Pair& pair : testing_vectors::load_pairs()) {
    auto ref = open_video(pair.ref.string(), pair.raw);
    auto dist = open_video(pair.dist.string(), pair.raw);
    const VideoFormat f = ref->format();
    if (f.bitdepth != 8) continue;
    std::vector<Picture> refs, dists;
    Picture r, d;
    while (ref->read_frame(r) && dist->read_frame(d)) {
      refs.push_back(r);
      dists.push_back(d);
    }
    ASSERT_FALSE(refs.empty()) << pair.ref;
    for (int p = 0; p < f.plane_count(); ++p) {
      std::vector<PlanePair> frames;
      for (size_t i = 0; i < refs.size(); ++i)
        frames.push_back({f.plane_width(p), f.plane_height(p),
                          std::vector<uint8_t>(refs[i].planes[size_t(p)].begin(),
                                               refs[i].planes[size_t(p)].end()),
                          std::vector<uint8_t>(dists[i].planes[size_t(p)].begin(),
                                               dists[i].planes[size_t(p)].end())});
      compared +=
          expect_sums(frames, kDefault,
                      pair.info.at("name").get<std::string>() + " plane " + std::to_string(p));
      compared += expect_sums(
          frames, kEmulated,
          pair.info.at("name").get<std::string>() + " plane " + std::to_string(p) + ", emulated");
    }
    ++pairs_used;
  }
  EXPECT_GT(pairs_used, 0);
  std::printf(
      "[ cuda     ] public vectors: %d 8-bit plane sums of %d pairs equal to the reference\n",
      compared, pairs_used);
}

// Planes the kernel does not take are refused, not mis-scored.
TEST_F(CudaTest, U8KernelRefusesOtherPlanes) {
  ssim::cuda::SsimPlanes planes(cuda::DevicePlanes{nullptr, nullptr, 16, 4, 4, 10, 1});
  EXPECT_FALSE(ssim::cuda::exact_u8_applies(planes));
  EXPECT_THROW(ssim::cuda::launch_exact_u8(planes, nullptr, nullptr), DeviceError);
  planes.bitdepth = 8;
  planes.emulate_fp64 =
      true;  // taken by the default shape; the benchmark's variants are native only
  EXPECT_TRUE(ssim::cuda::exact_u8_applies(planes));
  EXPECT_THROW(ssim::cuda::launch_exact_u8_variant(planes, nullptr, nullptr,
                                                   ssim::cuda::U8Variant{64, 72, 0, true}),
               DeviceError);
}

}  // namespace
}  // namespace exactvq::cudatest
