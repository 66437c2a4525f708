// The SSIM kernels' tile geometry against the CPU reference, bit for bit: plane
// sizes on both sides of every tile edge (64 columns by 32 rows, and the other
// shapes the benchmark measures), several frames in one launch, and the raster
// term planes (each term's fixed point and libvmaf's sequential sum). Native
// fp64 and the fp64-emulated term both. Without a GPU every case skips.
#include <cuda_runtime_api.h>

#include <cstdio>
#include <cstring>
#include <utility>

#include "backends/cuda/cuda_resources.h"
#include "bench/cuda/kernel_variants.h"
#include "metrics/ssim/cuda/ssim_kernels.h"
#include "cuda_fixture.h"
#include "metrics/ssim/fixed_point.h"
#include "metrics/ssim/reference.h"

namespace exactvq::cudatest {
namespace {

struct Sums {
  uint64_t lo, hi;
};

Sums words_of(ssim::int128 v) {
  const auto u = static_cast<ssim::uint128>(v);
  return {static_cast<uint64_t>(u), static_cast<uint64_t>(u >> 64)};
}

uint64_t tile_seed() {
  const char* s = std::getenv("EXACTVQ_SEED");
  return s ? std::strtoull(s, nullptr, 0) : 0x711e5eed;
}

// `frames` pairs in one device buffer each, frame after frame.
struct DevicePairs {
  cuda::DeviceBuffer ref, dist;
  cuda::DevicePlanes planes;
  std::vector<Picture> refs, dists;

  DevicePairs(const VideoFormat& f, int frames, std::mt19937_64& rng, int first_content)
      : refs(size_t(frames)), dists(size_t(frames)) {
    const size_t bytes = f.plane_bytes(0);
    ref = cuda::DeviceBuffer(bytes * size_t(frames));
    dist = cuda::DeviceBuffer(bytes * size_t(frames));
    for (int i = 0; i < frames; ++i) {
      fill_pair(refs[size_t(i)], dists[size_t(i)], f, Content((first_content + i) % 3), rng);
      EXPECT_EQ(cudaMemcpy(ref.get<uint8_t>() + bytes * size_t(i), refs[size_t(i)].plane_data(0), bytes,
                           cudaMemcpyHostToDevice),
                cudaSuccess);
      EXPECT_EQ(cudaMemcpy(dist.get<uint8_t>() + bytes * size_t(i), dists[size_t(i)].plane_data(0), bytes,
                           cudaMemcpyHostToDevice),
                cudaSuccess);
    }
    planes = cuda::DevicePlanes{ref.get(), dist.get(), bytes, f.width, f.height, f.bitdepth, frames};
  }
};

std::vector<cuda::ExactWords> exact_sums(cuda::DevicePlanes planes, bool emulate) {
  planes.emulate_fp64 = emulate;
  cuda::DeviceBuffer d(sizeof(cuda::ExactWords) * size_t(planes.frames));
  EXPECT_EQ(cudaMemset(d.get(), 0, sizeof(cuda::ExactWords) * size_t(planes.frames)), cudaSuccess);
  cuda::launch_exact(planes, d.get<cuda::ExactWords>(), nullptr);
  std::vector<cuda::ExactWords> got(size_t(planes.frames));
  EXPECT_EQ(cudaMemcpy(got.data(), d.get(), sizeof(cuda::ExactWords) * got.size(), cudaMemcpyDeviceToHost),
            cudaSuccess);
  return got;
}

const int kTileDepths[] = {8, 10, 12, 13, 16};

// Widths and heights around the tiles' edges, several frames per launch.
TEST_F(CudaTest, KernelTileEdgesEqualReference) {
  const uint64_t seed = tile_seed();
  std::mt19937_64 rng(seed);
  const int sizes[][2] = {{1, 1},    {2, 1},    {1, 2},    {3, 40},   {127, 31}, {128, 32},
                          {129, 33}, {130, 41}, {136, 9},  {63, 64},  {64, 65},  {65, 63},
                          {255, 64}, {257, 65}, {383, 97}, {1023, 3}, {7, 300},  {200, 200}};
  int compared = 0;
  for (const auto& s : sizes)
    for (const int bits : kTileDepths) {
      const VideoFormat f{s[0], s[1], ChromaFormat::k444, bits};
      const int frames = 3;
      DevicePairs pairs(f, frames, rng, compared);
      const auto native = exact_sums(pairs.planes, false);
      const auto emulated = exact_sums(pairs.planes, true);
      for (int i = 0; i < frames; ++i) {
        const ssim::ExactSum want = ssim::exact_sum(pairs.refs[size_t(i)].plane(0), pairs.dists[size_t(i)].plane(0),
                                                    bits, ssim::whole(pairs.refs[size_t(i)].plane(0)));
        const Sums w = words_of(want.sum_q);
        EXPECT_TRUE(native[size_t(i)].lo == w.lo && native[size_t(i)].hi == w.hi)
            << "native " << f.describe() << " frame " << i << " seed " << seed;
        EXPECT_TRUE(emulated[size_t(i)].lo == w.lo && emulated[size_t(i)].hi == w.hi)
            << "emulated " << f.describe() << " frame " << i << " seed " << seed;
        compared += 2;
      }
      if (bits != 8) continue;
      // The other tile shapes the benchmark measures (8-bit, native).
      for (const auto& [shape, emulate] : {std::pair{std::pair{1, 64}, false}, std::pair{std::pair{2, 32}, false}}) {
        cuda::DeviceBuffer d(sizeof(cuda::ExactWords) * size_t(frames));
        ASSERT_EQ(cudaMemset(d.get(), 0, sizeof(cuda::ExactWords) * size_t(frames)), cudaSuccess);
        cuda::DevicePlanes planes = pairs.planes;
        planes.emulate_fp64 = emulate;
        cuda::launch_exact_shape(planes, d.get<cuda::ExactWords>(), nullptr, shape.first, shape.second);
        std::vector<cuda::ExactWords> got(static_cast<size_t>(frames));
        ASSERT_EQ(cudaMemcpy(got.data(), d.get(), sizeof(cuda::ExactWords) * got.size(), cudaMemcpyDeviceToHost),
                  cudaSuccess);
        for (int i = 0; i < frames; ++i, ++compared) {
          const ssim::ExactSum want = ssim::exact_sum(pairs.refs[size_t(i)].plane(0), pairs.dists[size_t(i)].plane(0),
                                                      bits, ssim::whole(pairs.refs[size_t(i)].plane(0)));
          const Sums w = words_of(want.sum_q);
          EXPECT_TRUE(got[size_t(i)].lo == w.lo && got[size_t(i)].hi == w.hi)
              << "shape " << shape.first << "x" << shape.second << (emulate ? " emulated " : " ")
              << f.describe() << " frame " << i;
        }
      }
    }
  std::printf("[ cuda     ] %d tile-edge plane sums (native and emulated, 3 frames a launch) equal to the reference (seed %#llx)\n",
              compared, static_cast<unsigned long long>(seed));
}

// The raster kernel's term planes: each term's 2^-64 fixed point adds up to the
// reference's exact sum, and the sequential binary64 sum equals score_raster's.
TEST_F(CudaTest, KernelTermPlanesEqualReference) {
  const uint64_t seed = tile_seed() + 1;
  std::mt19937_64 rng(seed);
  const int sizes[][2] = {{1, 1}, {9, 9}, {129, 33}, {65, 70}, {300, 41}};
  const bool small = std::getenv("EXACTVQ_CUDA_SMALL") != nullptr;
  int compared = 0;
  for (const auto& s : sizes)
    for (const int bits : kTileDepths)
      for (const bool emulate : {false, true}) {
        if (small && s[0] * s[1] > 10000) continue;
        const VideoFormat f{s[0], s[1], ChromaFormat::k444, bits};
        const int frames = 2;
        DevicePairs pairs(f, frames, rng, compared);
        pairs.planes.emulate_fp64 = emulate;
        const size_t pixels = size_t(s[0]) * size_t(s[1]);
        cuda::DeviceBuffer d(pixels * 8 * frames);
        cuda::launch_terms(pairs.planes, d.get<double>(), nullptr);
        std::vector<double> terms(pixels * frames);
        ASSERT_EQ(cudaMemcpy(terms.data(), d.get(), terms.size() * 8, cudaMemcpyDeviceToHost), cudaSuccess);
        for (int i = 0; i < frames; ++i) {
          const PlaneView r = pairs.refs[size_t(i)].plane(0), t = pairs.dists[size_t(i)].plane(0);
          ssim::int128 q = 0;
          double sum = 0;
          for (size_t p = 0; p < pixels; ++p) q += ssim::to_fixed64(terms[size_t(i) * pixels + p]);
          // libvmaf's order: the terms and the weights, row after row.
          const ssim::ExactSum want = ssim::exact_sum(r, t, bits, ssim::whole(r));
          EXPECT_TRUE(q == want.sum_q) << (emulate ? "emulated " : "native ") << f.describe() << " frame " << i;
          for (size_t p = 0; p < pixels; ++p) sum += terms[size_t(i) * pixels + p];
          // score_raster divides the same sequential sum by the same sequential
          // sum of weights (integers below 2^53: exact in any order).
          EXPECT_TRUE(same_bits(sum / double(want.sum_w), ssim::score_raster(r, t, bits)))
              << (emulate ? "emulated " : "native ") << f.describe() << " frame " << i;
          compared += 2;
        }
      }
  std::printf("[ cuda     ] %d term-plane checks (fixed-point sums and raster scores) equal to the reference (seed %#llx)\n",
              compared, static_cast<unsigned long long>(seed));
}

}  // namespace
}  // namespace exactvq::cudatest
