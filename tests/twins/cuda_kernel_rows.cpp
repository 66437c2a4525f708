// Rows of the CUDA kernels launched directly on planes already on the device
// (the engine rows cover them through the pipeline): the 8-bit kernel's
// production launch (native and emulated) and every variant the benchmarks
// measure (bench/cuda/kernel_variants.h), and the tile kernel's shapes at 8
// bits. Each frame's 128-bit sum against ssim::exact_sum's, on sizes on both
// sides of every tile, chunk and quad edge, several frames a launch, seven kinds
// of content, frame strides and starts that are not multiples of 4, and 4K.
// EXACTVQ_CUDA_SMALL=1 (compute-sanitizer runs) leaves out planes above 256
// columns.
#include <cuda_runtime_api.h>

#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "backends/cuda/cuda_resources.h"
#include "backends/device.h"
#include "bench/cuda/kernel_variants.h"
#include "core/error.h"
#include "frame_pairs.h"
#include "metrics/ssim/cuda/ssim_kernel_u8.h"
#include "metrics/ssim/reference.h"
#include "twin_table.h"

namespace exactvq::twins {
namespace {

std::string gpu_missing() {
  static const std::string why = [] {
    if (count_devices(Backend::kCuda) == 0) return std::string("no usable CUDA device");
    DeviceOptions o;
    o.backend = Backend::kCuda;
    try {
      open_cuda_device(o, VideoFormat{16, 16, ChromaFormat::k420, 8});
    } catch (const DeviceError& e) {
      return std::string("no usable CUDA device (") + e.what() + ")";
    }
    return std::string();
  }();
  return why;
}

enum Kind { kRandom, kNoisy, kExtremes, kFlat, kMax, kAlternating, kGradient, kKinds };
const char* const kKindNames[] = {"random", "noisy",       "extremes", "flat",
                                  "max",    "alternating", "gradient"};

// One 8-bit plane pair: the engine rows' random, noisy and extreme planes, or
// flat, 255 against 0, columns alternating against rows alternating, or a smooth
// gradient against a blurred, shifted copy.
void make_pair(int w, int h, int kind, std::mt19937_64& rng, uint8_t* ref, uint8_t* dist) {
  const size_t n = size_t(w) * size_t(h);
  if (kind <= kExtremes) {
    FramePairs one(VideoFormat{w, h, ChromaFormat::kMono, 8}, kind + 1, rng());
    std::memcpy(ref, one.refs[size_t(kind)].plane_data(0), n);
    std::memcpy(dist, one.dists[size_t(kind)].plane_data(0), n);
    return;
  }
  const uint8_t flat = uint8_t(rng());
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      const size_t i = size_t(y) * size_t(w) + size_t(x);
      switch (kind) {
        case kFlat:
          ref[i] = flat;
          dist[i] = uint8_t(flat ^ 1);
          break;
        case kMax:
          ref[i] = 255;
          dist[i] = 0;
          break;
        case kAlternating:
          ref[i] = (x & 1) ? 255 : 0;
          dist[i] = (y & 1) ? 0 : 255;
          break;
        default: {
          const int v = (x * 3 + y * 2 + int(rng() % 9)) % 256;
          ref[i] = uint8_t(v);
          dist[i] = uint8_t(std::min(255, (v * 7 + (x > 0 ? ref[i - 1] : v)) / 8 + 1));
        }
      }
    }
}

using Launch = std::function<void(const cuda::DevicePlanes&, ssim::cuda::ExactWords*)>;

// case.a: frames a launch; case.b: the pad after each frame (bytes) and, times
// 16, the start's offset; case.fill: the first frame's kind (the next frames' follow).
struct Uploaded {
  int w = 0, h = 0, frames = 0;
  size_t stride = 0;
  std::vector<uint8_t> host_ref, host_dist;
  size_t offset = 0;
  cuda::DeviceBuffer ref, dist, sums;
};

Prepared kernel_case(const Case& c, const Launch& launch) {
  auto u = std::make_shared<Uploaded>();
  u->w = c.width;
  u->h = c.height;
  u->frames = c.a;
  const size_t bytes = size_t(c.width) * size_t(c.height), pad = size_t(c.b % 16);
  u->offset = size_t(c.b / 16);
  u->stride = bytes + pad;
  u->host_ref.assign(u->offset + u->stride * size_t(c.a), 0x5a);
  u->host_dist.assign(u->offset + u->stride * size_t(c.a), 0xa5);
  std::mt19937_64 rng(c.seed);
  for (int i = 0; i < c.a; ++i)
    make_pair(c.width, c.height, (c.fill + i) % kKinds, rng,
              u->host_ref.data() + u->offset + u->stride * size_t(i),
              u->host_dist.data() + u->offset + u->stride * size_t(i));
  Prepared p;
  p.twin = [u, launch] {
    if (!u->ref.get()) {
      u->ref = cuda::DeviceBuffer(u->host_ref.size());
      u->dist = cuda::DeviceBuffer(u->host_dist.size());
      u->sums = cuda::DeviceBuffer(sizeof(ssim::cuda::ExactWords) * size_t(u->frames));
      cuda::check(
          cudaMemcpy(u->ref.get(), u->host_ref.data(), u->host_ref.size(), cudaMemcpyHostToDevice),
          "upload");
      cuda::check(cudaMemcpy(u->dist.get(), u->host_dist.data(), u->host_dist.size(),
                             cudaMemcpyHostToDevice),
                  "upload");
    }
    const size_t sum_bytes = sizeof(ssim::cuda::ExactWords) * size_t(u->frames);
    cuda::check(cudaMemset(u->sums.get(), 0, sum_bytes), "cudaMemset");
    const cuda::DevicePlanes planes{u->ref.get<uint8_t>() + u->offset,
                                    u->dist.get<uint8_t>() + u->offset,
                                    u->stride,
                                    u->w,
                                    u->h,
                                    8,
                                    u->frames};
    launch(planes, u->sums.get<ssim::cuda::ExactWords>());
    std::vector<ssim::cuda::ExactWords> got(size_t(u->frames));
    cuda::check(cudaMemcpy(got.data(), u->sums.get(), sum_bytes, cudaMemcpyDeviceToHost),
                "read-back");
    Bytes b;
    put(b, got);
    return b;
  };
  p.reference = [u] {
    Bytes b;
    for (int i = 0; i < u->frames; ++i) {
      const size_t at = u->offset + u->stride * size_t(i);
      const PlaneView r{u->host_ref.data() + at, u->w, u->w, u->h, 1},
          d{u->host_dist.data() + at, u->w, u->w, u->h, 1};
      const auto q = static_cast<ssim::uint128>(ssim::exact_sum(r, d, 8, ssim::whole(r)).sum_q);
      const ssim::cuda::ExactWords w{uint64_t(q), uint64_t(q >> 64)};
      put(b, &w, 1);
    }
    return b;
  };
  return p;
}

Case kernel_case_of(uint64_t base, size_t index, int w, int h, int frames, int kind, int pad = 0,
                    int offset = 0, bool timed = false) {
  Case c;
  c.seed = case_seed(base, index);
  c.width = w;
  c.height = h;
  c.a = frames;
  c.b = pad + 16 * offset;
  c.fill = kind;
  c.timed = timed;
  c.what = fmt::format("{} frames of {}x{} from {}", frames, w, h, kKindNames[kind]) +
           (pad || offset ? fmt::format(", pad {}, offset {}", pad, offset) : "");
  return c;
}

bool small_only() { return std::getenv("EXACTVQ_CUDA_SMALL") != nullptr; }

// The production launch's cases: tile, chunk and quad edges; every kind at three
// size classes; misaligned strides and starts; 4K.
std::vector<Case> u8_cases() {
  const int sizes[][2] = {{1, 1},    {2, 1},     {1, 2},     {3, 3},     {4, 4},     {5, 9},
                          {8, 10},   {9, 11},    {12, 8},    {17, 19},   {63, 71},   {64, 72},
                          {65, 73},  {68, 80},   {127, 143}, {128, 144}, {129, 145}, {132, 150},
                          {136, 20}, {200, 200}, {255, 81},  {256, 79},  {260, 152}, {1023, 3},
                          {3, 1023}, {7, 300},   {516, 217}};
  std::vector<Case> all;
  const uint64_t base = 0x0e8b175eed;
  for (const auto& s : sizes)
    all.push_back(kernel_case_of(base, all.size(), s[0], s[1], 3, int(all.size() % kKinds)));
  for (const auto& s : {std::pair{33, 17}, std::pair{160, 90}, std::pair{1920, 1080}})
    for (int kind = 0; kind < kKinds; ++kind)
      all.push_back(kernel_case_of(base, all.size(), s.first, s.second, 2, kind));
  for (const auto& [pad, offset] : {std::pair{1, 0}, {0, 1}, {2, 3}, {4, 4}})
    all.push_back(kernel_case_of(base, all.size(), 128, 75, 3, kRandom, pad, offset));
  all.push_back(kernel_case_of(base, all.size(), 3840, 2160, 2, kRandom, 0, 0, true));
  all.push_back(kernel_case_of(base, all.size(), 1920, 1080, 8, kRandom, 0, 0, true));
  if (small_only()) std::erase_if(all, [](const Case& c) { return c.width > 256; });
  return all;
}

std::vector<Case> variant_cases() {
  std::vector<Case> all;
  for (const auto& s : {std::pair{1, 1}, std::pair{127, 151}, std::pair{129, 161},
                        std::pair{200, 33}, std::pair{515, 330}})
    all.push_back(
        kernel_case_of(0x0e8b175eef, all.size(), s.first, s.second, 2, int(all.size() % kKinds)));
  all.push_back(kernel_case_of(0x0e8b175eef, all.size(), 3840, 2160, 2, kRandom, 0, 0, true));
  if (small_only()) std::erase_if(all, [](const Case& c) { return c.width > 256; });
  return all;
}

// The tile kernel's cases at 8 bits: both sides of its 64x32 tile.
std::vector<Case> tile_cases() {
  const int sizes[][2] = {{1, 1},    {2, 1},    {1, 2},    {3, 40},   {127, 31}, {128, 32},
                          {129, 33}, {130, 41}, {136, 9},  {63, 64},  {64, 65},  {65, 63},
                          {255, 64}, {257, 65}, {383, 97}, {1023, 3}, {7, 300},  {200, 200}};
  std::vector<Case> all;
  for (const auto& s : sizes)
    all.push_back(kernel_case_of(0x7113'5eed, all.size(), s[0], s[1], 3, int(all.size() % 3)));
  all.push_back(kernel_case_of(0x7113'5eed, all.size(), 1920, 1080, 4, kRandom, 0, 0, true));
  if (small_only()) std::erase_if(all, [](const Case& c) { return c.width > 256; });
  return all;
}

ssim::cuda::SsimPlanes native(const cuda::DevicePlanes& p) {
  return ssim::cuda::SsimPlanes(p, false);
}
ssim::cuda::SsimPlanes emulated(const cuda::DevicePlanes& p) {
  return ssim::cuda::SsimPlanes(p, true);
}

void add_kernel_row(const std::string& name, std::vector<Case> (*cases)(), Launch launch) {
  Row r;
  r.name = name;
  r.unavailable = gpu_missing;
  r.cases = cases;
  r.reference_key = std::string("ssim.cuda_kernels.") + (cases == u8_cases        ? "u8"
                                                         : cases == variant_cases ? "variants"
                                                                                  : "tile");
  r.prepare = [launch](const Case& c) { return kernel_case(c, launch); };
  r.work = [](const Case& c) { return double(c.width) * c.height * c.a; };
  register_row(std::move(r));
}

EXACTVQ_TWIN_ROWS(cuda_kernel_rows) {
  add_kernel_row("ssim.u8_kernel/cuda-native", u8_cases,
                 [](const cuda::DevicePlanes& p, ssim::cuda::ExactWords* s) {
                   ssim::cuda::launch_exact_u8(native(p), s, nullptr);
                 });
  add_kernel_row("ssim.u8_kernel/cuda-emulate", u8_cases,
                 [](const cuda::DevicePlanes& p, ssim::cuda::ExactWords* s) {
                   ssim::cuda::launch_exact_u8(emulated(p), s, nullptr);
                 });
  for (const ssim::cuda::U8Variant& v : ssim::cuda::kU8Variants)
    add_kernel_row(fmt::format("ssim.u8_kernel/cuda-native-{}x{}-{}regs{}", v.threads, v.tile_rows,
                               v.max_registers, v.pipelined ? "" : "-unpipelined"),
                   variant_cases, [v](const cuda::DevicePlanes& p, ssim::cuda::ExactWords* s) {
                     ssim::cuda::launch_exact_u8_variant(native(p), s, nullptr, v);
                   });
  for (const ssim::cuda::U8EmulatedVariant& v : ssim::cuda::kU8EmulatedVariants)
    add_kernel_row(fmt::format("ssim.u8_kernel/cuda-emulate-{}x{}-{}regs-{}buffers", v.threads,
                               v.tile_rows, v.max_registers, v.stages),
                   variant_cases, [v](const cuda::DevicePlanes& p, ssim::cuda::ExactWords* s) {
                     ssim::cuda::launch_exact_u8_emulated_variant(emulated(p), s, nullptr, v);
                   });
  for (const auto& [columns, rows, emulate] :
       {std::tuple{1, 32, false}, {1, 32, true}, {1, 64, false}, {2, 32, false}})
    add_kernel_row(
        fmt::format("ssim.tile_kernel/cuda-{}-{}x{}", emulate ? "emulate" : "native", columns,
                    rows),
        tile_cases,
        [columns, rows, emulate](const cuda::DevicePlanes& p, ssim::cuda::ExactWords* s) {
          ssim::cuda::launch_exact_shape(ssim::cuda::SsimPlanes(p, emulate), s, nullptr, columns,
                                         rows);
        });
}

}  // namespace
}  // namespace exactvq::twins
