// The 8-bit exact kernel (cuda/ssim_kernel_u8.h), native fp64 and emulated, against the CPU
// reference, bit for bit: each frame's 128-bit sum equals ssim::exact_sum's on
// plane sizes on both sides of every tile, chunk and quad edge, several frames a
// launch, random, flat, extreme and natural-looking content, aligned and
// unaligned planes, every variant the benchmark measures, and the public
// vectors' 8-bit planes. Without a GPU every case skips with a message.
#include <cuda_runtime_api.h>

#include <cstdio>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "backends/cuda/cuda_resources.h"
#include "bench/cuda/kernel_variants.h"
#include "metrics/ssim/cuda/ssim_kernel_u8.h"
#include "cuda_fixture.h"
#include "io/video_source.h"
#include "libvmaf_vector_pairs.h"
#include "metrics/ssim/fixed_point.h"
#include "metrics/ssim/reference.h"

namespace exactvq::cudatest {
namespace {

uint64_t u8_seed() {
  const char* s = std::getenv("EXACTVQ_SEED");
  return s ? std::strtoull(s, nullptr, 0) : 0x0e8b175eed;
}

// One 8-bit plane pair of a frame, stored tightly.
struct PlanePair {
  int width = 0, height = 0;
  std::vector<uint8_t> ref, dist;
};

using Launch = std::function<void(const cuda::DevicePlanes&, cuda::ExactWords*)>;

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
  cuda::DeviceBuffer dref(ref.size()), ddist(dist.size()), dsums(sizeof(cuda::ExactWords) * n);
  EXPECT_EQ(cudaMemcpy(dref.get(), ref.data(), ref.size(), cudaMemcpyHostToDevice), cudaSuccess);
  EXPECT_EQ(cudaMemcpy(ddist.get(), dist.data(), dist.size(), cudaMemcpyHostToDevice), cudaSuccess);
  EXPECT_EQ(cudaMemset(dsums.get(), 0, sizeof(cuda::ExactWords) * n), cudaSuccess);
  const cuda::DevicePlanes planes{dref.get<uint8_t>() + offset, ddist.get<uint8_t>() + offset, stride, w, h, 8,
                                  int(n)};
  launch(planes, dsums.get<cuda::ExactWords>());
  std::vector<cuda::ExactWords> got(n);
  EXPECT_EQ(cudaMemcpy(got.data(), dsums.get(), sizeof(cuda::ExactWords) * n, cudaMemcpyDeviceToHost),
            cudaSuccess);
  for (size_t i = 0; i < n; ++i) {
    const PlaneView r{frames[i].ref.data(), w, w, h, 1}, d{frames[i].dist.data(), w, w, h, 1};
    const auto want = static_cast<ssim::uint128>(ssim::exact_sum(r, d, 8, ssim::whole(r)).sum_q);
    EXPECT_TRUE(got[i].lo == uint64_t(want) && got[i].hi == uint64_t(want >> 64))
        << what << " " << w << "x" << h << " frame " << i << " of " << n << " (pad " << pad << ", offset "
        << offset << ")";
  }
  return int(n);
}

enum class Kind { kRandom, kNoisy, kExtremes, kFlat, kMax, kAlternating, kGradient };

// A pair of `kind`: the fixture's random / noisy / extreme planes, or flat,
// 0-against-255 everywhere, columns alternating 0/255 against rows alternating,
// or a smooth gradient with a blurred, shifted copy (natural-looking).
PlanePair make_pair(int w, int h, Kind kind, std::mt19937_64& rng) {
  PlanePair p{w, h, std::vector<uint8_t>(size_t(w) * size_t(h)), std::vector<uint8_t>(size_t(w) * size_t(h))};
  const auto at = [&](std::vector<uint8_t>& v, int x, int y) -> uint8_t& { return v[size_t(y) * size_t(w) + size_t(x)]; };
  if (kind <= Kind::kExtremes) {
    const VideoFormat f{w, h, ChromaFormat::k444, 8};
    Picture ref, dist;
    fill_pair(ref, dist, f, Content(int(kind)), rng);
    std::memcpy(p.ref.data(), ref.plane_data(0), p.ref.size());
    std::memcpy(p.dist.data(), dist.plane_data(0), p.dist.size());
    return p;
  }
  const uint8_t flat = uint8_t(rng());
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) switch (kind) {
        case Kind::kFlat: at(p.ref, x, y) = flat; at(p.dist, x, y) = uint8_t(flat ^ 1); break;
        case Kind::kMax: at(p.ref, x, y) = 255; at(p.dist, x, y) = 0; break;
        case Kind::kAlternating: at(p.ref, x, y) = (x & 1) ? 255 : 0; at(p.dist, x, y) = (y & 1) ? 0 : 255; break;
        default: {
          const int v = (x * 3 + y * 2 + int(rng() % 9)) % 256;
          at(p.ref, x, y) = uint8_t(v);
          at(p.dist, x, y) = uint8_t(std::min(255, (v * 7 + (x > 0 ? at(p.ref, x - 1, y) : v)) / 8 + 1));
        }
      }
  return p;
}

const Launch kDefault = [](const cuda::DevicePlanes& p, cuda::ExactWords* s) { cuda::launch_exact_u8(p, s, nullptr); };
// The same kernel with the term through softfp (no fp64 instruction).
const Launch kEmulated = [](const cuda::DevicePlanes& p, cuda::ExactWords* s) {
  cuda::DevicePlanes e = p;
  e.emulate_fp64 = true;
  cuda::launch_exact_u8(e, s, nullptr);
};

// Sizes on both sides of the 128-column tile (and 64, the variants'), the 72-row
// tile (80 staged rows), the 10-row chunk and the 4-column quad, odd and tiny
// sizes; 3 frames a launch.
TEST_F(CudaTest, U8KernelTileEdgesEqualReference) {
  const uint64_t seed = u8_seed();
  std::mt19937_64 rng(seed);
  const int sizes[][2] = {{1, 1},    {2, 1},    {1, 2},    {3, 3},    {4, 4},    {5, 9},   {8, 10},
                          {9, 11},   {12, 8},   {17, 19},  {63, 71},  {64, 72},  {65, 73}, {68, 80},
                          {127, 143}, {128, 144}, {129, 145}, {132, 150}, {136, 20}, {200, 200},
                          {255, 81}, {256, 79}, {260, 152}, {1023, 3}, {3, 1023}, {7, 300}, {516, 217}};
  int compared = 0;
  for (const auto& s : sizes) {
    std::vector<PlanePair> frames;
    for (int i = 0; i < 3; ++i) frames.push_back(make_pair(s[0], s[1], Kind((compared + i) % 7), rng));
    compared += expect_sums(frames, kDefault, "default");
    compared += expect_sums(frames, kEmulated, "fp64 emulated");
  }
  std::printf("[ cuda     ] %d 8-bit kernel sums (native and emulated) on tile, chunk and quad edges equal to the reference (seed %#llx)\n",
              compared, static_cast<unsigned long long>(seed));
}

// Every kind of content at every size class, one launch per kind.
TEST_F(CudaTest, U8KernelContentEqualsReference) {
  const uint64_t seed = u8_seed() + 1;
  std::mt19937_64 rng(seed);
  int compared = 0;
  for (const auto& s : {std::pair{33, 17}, std::pair{160, 90}, std::pair{1920, 1080}})
    for (int kind = 0; kind < 7; ++kind) {
      if (std::getenv("EXACTVQ_CUDA_SMALL") && s.first > 256) continue;
      std::vector<PlanePair> frames;
      for (int i = 0; i < 2; ++i) frames.push_back(make_pair(s.first, s.second, Kind(kind), rng));
      compared += expect_sums(frames, kDefault, "kind " + std::to_string(kind));
      compared += expect_sums(frames, kEmulated, "fp64 emulated, kind " + std::to_string(kind));
    }
  std::printf("[ cuda     ] %d 8-bit kernel sums (native and emulated) over 7 kinds of content equal to the reference (seed %#llx)\n",
              compared, static_cast<unsigned long long>(seed));
}

// Planes whose width, frame stride or start is not a multiple of 4 take the
// byte loads; 4K takes the word loads.
TEST_F(CudaTest, U8KernelAlignmentAnd4kEqualReference) {
  const uint64_t seed = u8_seed() + 2;
  std::mt19937_64 rng(seed);
  int compared = 0;
  for (const auto& [pad, offset] : {std::pair<size_t, size_t>{1, 0}, {0, 1}, {2, 3}, {4, 4}}) {
    std::vector<PlanePair> frames;
    for (int i = 0; i < 3; ++i) frames.push_back(make_pair(128, 75, Kind(i), rng));
    compared += expect_sums(frames, kDefault, "misaligned", pad, offset);
  }
  if (!std::getenv("EXACTVQ_CUDA_SMALL")) {
    std::vector<PlanePair> frames;
    for (const Kind k : {Kind::kRandom, Kind::kGradient}) frames.push_back(make_pair(3840, 2160, k, rng));
    compared += expect_sums(frames, kDefault, "4K");
    compared += expect_sums(frames, kEmulated, "4K, fp64 emulated");
  }
  std::printf("[ cuda     ] %d 8-bit kernel sums of misaligned and 4K planes equal to the reference (seed %#llx)\n",
              compared, static_cast<unsigned long long>(seed));
}

// The variants the benchmark measures, on a few edge sizes.
TEST_F(CudaTest, U8KernelVariantsEqualReference) {
  const uint64_t seed = u8_seed() + 3;
  std::mt19937_64 rng(seed);
  int compared = 0;
  for (const cuda::U8Variant& v : cuda::kU8Variants)
    for (const auto& s : {std::pair{1, 1}, std::pair{127, 151}, std::pair{129, 161}, std::pair{200, 33},
                          std::pair{515, 330}}) {
      std::vector<PlanePair> frames;
      for (int i = 0; i < 2; ++i) frames.push_back(make_pair(s.first, s.second, Kind((compared + i) % 7), rng));
      const std::string what = std::to_string(v.threads) + "x" + std::to_string(v.tile_rows) + " registers " +
                               std::to_string(v.max_registers) + (v.pipelined ? " pipelined" : "");
      compared += expect_sums(frames, [&](const cuda::DevicePlanes& p, cuda::ExactWords* out) {
        cuda::launch_exact_u8_variant(p, out, nullptr, v);
      }, what);
    }
  std::printf("[ cuda     ] %d 8-bit kernel variant sums equal to the reference (seed %#llx)\n", compared,
              static_cast<unsigned long long>(seed));
}

// Each emulated variant the benchmark measures.
TEST_F(CudaTest, U8KernelEmulatedVariantsEqualReference) {
  const uint64_t seed = u8_seed() + 4;
  std::mt19937_64 rng(seed);
  int compared = 0;
  for (const cuda::U8EmulatedVariant& v : cuda::kU8EmulatedVariants)
    for (const auto& s : {std::pair{1, 1}, std::pair{129, 161}, std::pair{515, 330}}) {
      std::vector<PlanePair> frames;
      for (int i = 0; i < 2; ++i) frames.push_back(make_pair(s.first, s.second, Kind((compared + i) % 7), rng));
      compared += expect_sums(frames, [&](const cuda::DevicePlanes& p, cuda::ExactWords* out) {
        cuda::DevicePlanes e = p;
        e.emulate_fp64 = true;
        cuda::launch_exact_u8_emulated_variant(e, out, nullptr, v);
      }, "emulated, " + std::to_string(v.threads) + " threads, register cap " + std::to_string(v.max_registers) +
             ", " + std::to_string(v.tile_rows) + " tile rows");
    }
  std::printf("[ cuda     ] %d emulated 8-bit kernel variant sums equal to the reference (seed %#llx)\n",
              compared, static_cast<unsigned long long>(seed));
}

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
                          std::vector<uint8_t>(refs[i].planes[size_t(p)].begin(), refs[i].planes[size_t(p)].end()),
                          std::vector<uint8_t>(dists[i].planes[size_t(p)].begin(), dists[i].planes[size_t(p)].end())});
      compared += expect_sums(frames, kDefault, pair.info.at("name").get<std::string>() + " plane " + std::to_string(p));
      compared += expect_sums(frames, kEmulated,
                              pair.info.at("name").get<std::string>() + " plane " + std::to_string(p) + ", emulated");
    }
    ++pairs_used;
  }
  EXPECT_GT(pairs_used, 0);
  std::printf("[ cuda     ] public vectors: %d 8-bit plane sums of %d pairs equal to the reference\n", compared,
              pairs_used);
}

// Planes the kernel does not take are refused, not mis-scored.
TEST_F(CudaTest, U8KernelRefusesOtherPlanes) {
  cuda::DevicePlanes planes{nullptr, nullptr, 16, 4, 4, 10, 1};
  EXPECT_FALSE(cuda::exact_u8_applies(planes));
  EXPECT_THROW(cuda::launch_exact_u8(planes, nullptr, nullptr), DeviceError);
  planes.bitdepth = 8;
  planes.emulate_fp64 = true;  // taken by the default shape; the benchmark's variants are native only
  EXPECT_TRUE(cuda::exact_u8_applies(planes));
  EXPECT_THROW(cuda::launch_exact_u8_variant(planes, nullptr, nullptr, cuda::U8Variant{64, 72, 0, true}),
               DeviceError);
}

}  // namespace
}  // namespace exactvq::cudatest
