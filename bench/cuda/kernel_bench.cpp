// CUDA backend benchmarks, one table each, medians of repeated runs measured
// side by side in one process:
//   ceilings   pinned / pageable host-to-device copy rate, device-to-host rate
//   kernel     exact kernel alone on frames already on the GPU (1080p, 4K; 8/10/16 bits)
//   stages     per-frame cost of upload, moments, term, fixed point + reduction,
//              raster read-back and host sum, at 1080p and 4K 8-bit
//   shapes     the exact kernel's tile shapes (8-bit)
//   u8         ssim_kernels.cu's 1x32 kernel against the 8-bit kernel of ssim_kernel_u8.cu and its
//              variants, native and fp64 emulated
//   (profile: each 8-bit kernel launched once at 4K, for ncu; no tables)
//   emulated   the fp64-emulated kernel against the native one
//   library    end to end from frames in RAM through the feature, beside the
//              pinned-copy ceiling of the same bytes
//   vmaf       vif's and adm's kernels with their binary64 steps native and
//              emulated (fp64=native / fp64=emulate), kernels only and end to end
// Usage: cuda_kernel_bench [seconds per measurement, default 1]
//                   [kernels: the kernel tables only | u8: the u8 table only | vmaf: the vmaf table
//                   only |
//                    profile]
#include <cuda_runtime_api.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <iterator>
#include <random>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "core/error.h"
#include "backends/cuda/cuda_resources.h"
#include "bench/cuda/kernel_variants.h"
#include "metrics/adm/csf_factors.h"
#include "metrics/adm/cuda/adm_kernels.h"
#include "metrics/adm/reference.h"
#include "metrics/ssim/cuda/ssim_kernel_u8.h"
#include "metrics/ssim/cuda/ssim_kernels.h"
#include "metrics/vif/cuda/vif_kernels.h"
#include "metrics/vif/log2_table.h"
#include "metrics/vif/taps.h"
#include "backends/device.h"
#include "metrics/feature.h"
#include "metrics/registry.h"

namespace exactvq::cuda {
namespace {

// The kernels the tables time.
using namespace ssim::cuda;
using namespace vif::cuda;
using namespace adm::cuda;

double g_seconds = 1.0;

// Median seconds of one call of `body` (run in rounds of `inner` calls, timed
// with CUDA events on stream 0 when `device`, else the host clock).
double median_seconds(const std::function<void()>& body, int inner = 1, bool device = true) {
  body();  // warm-up
  check(cudaDeviceSynchronize(), "warm-up");
  std::vector<double> samples;
  Event start(cudaEventDefault), stop(cudaEventDefault);
  const auto begin = std::chrono::steady_clock::now();
  while (samples.size() < 5 ||
         (std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count() <
              g_seconds &&
          samples.size() < 1000)) {
    if (device) {
      check(cudaEventRecord(start.get(), nullptr), "event");
      for (int i = 0; i < inner; ++i) body();
      check(cudaEventRecord(stop.get(), nullptr), "event");
      check(cudaEventSynchronize(stop.get()), "event");
      float ms = 0;
      check(cudaEventElapsedTime(&ms, start.get(), stop.get()), "event");
      samples.push_back(double(ms) / 1e3 / inner);
    } else {
      const auto t0 = std::chrono::steady_clock::now();
      for (int i = 0; i < inner; ++i) body();
      check(cudaDeviceSynchronize(), "sync");
      samples.push_back(
          std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() / inner);
    }
  }
  std::sort(samples.begin(), samples.end());
  return samples[samples.size() / 2];
}

// Random samples, 64 bits of generator output at a time (filling frames must
// not dominate the run).
void fill_random(uint8_t* p, size_t bytes, int bitdepth, uint64_t seed) {
  std::mt19937_64 rng(seed);
  size_t i = 0;
  for (; i + 8 <= bytes; i += 8) {
    const uint64_t v = rng();
    std::memcpy(p + i, &v, 8);
  }
  for (; i < bytes; ++i) p[i] = uint8_t(rng());
  if (bitdepth > 8) {
    auto* q = reinterpret_cast<uint16_t*>(p);
    for (size_t k = 0; k < bytes / 2; ++k) q[k] = uint16_t(q[k] & ((1u << bitdepth) - 1));
  }
}

struct Size {
  const char* name;
  int w, h;
};
const Size k1080p{"1080p", 1920, 1080}, k4k{"4K", 3840, 2160};

// Two planes of `frames` frames on the device, random; the distorted one
// independent of the reference, or (`near`) the reference plus noise in [-3, 3].
struct DeviceFrames {
  DeviceBuffer ref, dist;
  SsimPlanes planes;
  DeviceFrames(const Size& s, int bits, int frames, bool near = false) {
    const size_t plane = size_t(s.w) * s.h * (bits > 8 ? 2 : 1);
    std::vector<uint8_t> host(plane * frames);
    ref = DeviceBuffer(host.size());
    dist = DeviceBuffer(host.size());
    fill_random(host.data(), host.size(), bits, 1);
    check(cudaMemcpy(ref.get(), host.data(), host.size(), cudaMemcpyHostToDevice), "upload");
    if (near)
      add_noise(host, bits);
    else
      fill_random(host.data(), host.size(), bits, 2);
    check(cudaMemcpy(dist.get(), host.data(), host.size(), cudaMemcpyHostToDevice), "upload");
    planes = SsimPlanes(DevicePlanes{ref.get(), dist.get(), plane, s.w, s.h, bits, frames});
  }
  static void add_noise(std::vector<uint8_t>& samples, int bits) {
    std::mt19937_64 rng(2);
    const int max = (1 << bits) - 1;
    const auto noisy = [&](int v) { return std::clamp(v + int(rng() % 7) - 3, 0, max); };
    if (bits == 8)
      for (uint8_t& v : samples) v = uint8_t(noisy(v));
    else
      for (size_t i = 0; i + 1 < samples.size(); i += 2) {
        uint16_t v;
        std::memcpy(&v, &samples[i], 2);
        v = uint16_t(noisy(v));
        std::memcpy(&samples[i], &v, 2);
      }
  }
};

// The tile kernel stopped after a stage (8-bit, native), or the whole kernel.
enum class Stage { kMoments, kTerm, kFull };

// shape: {output columns a thread, rows a block}, or {0, 0} for launch_exact's.
double kernel_fps(const Size& s, int bits, Stage stage = Stage::kFull, bool emulate = false,
                  std::pair<int, int> shape = {0, 0}) {
  const int frames = s.w * s.h > 4'000'000 ? 8 : 32;
  DeviceFrames f(s, bits, frames);
  f.planes.emulate_fp64 = emulate;
  DeviceBuffer sums(sizeof(ExactWords) * frames);
  const double t = median_seconds(
      [&] {
        if (stage != Stage::kFull)
          launch_stage(f.planes, sums.get<ExactWords>(), nullptr,
                       stage == Stage::kMoments ? TimedStage::kMoments : TimedStage::kTerm);
        else if (shape.first == 0)
          launch_exact(f.planes, sums.get<ExactWords>(), nullptr);
        else
          launch_exact_shape(f.planes, sums.get<ExactWords>(), nullptr, shape.first, shape.second);
      },
      4);
  return frames / t;
}

// Kernel-only frames/s of `launch` on random frames already on the device.
double launch_fps(const Size& s,
                  const std::function<void(const SsimPlanes&, ExactWords*)>& launch) {
  const int frames = s.w * s.h > 4'000'000 ? 8 : 32;
  DeviceFrames f(s, 8, frames);
  DeviceBuffer sums(sizeof(ExactWords) * frames);
  const double t = median_seconds([&] { launch(f.planes, sums.get<ExactWords>()); }, 4);
  return frames / t;
}

// ssim_kernels.cu's 1x32 kernel (launch_exact's for 8-bit planes until the
// u8 kernel) against the 8-bit kernel's variants (the first is
// launch_exact_u8's), then both kernels with the term emulated (softfp), all
// measured one after the other in this process.
void u8_table() {
  constexpr size_t kVariants = std::size(kU8Variants);
  double old_fps[2], fps[2][kVariants], old_emulated[2], u8_emulated[2];
  double variant_fps[2][std::size(kU8EmulatedVariants)];
  const Size sizes[] = {k1080p, k4k};
  const auto emulated = [](const SsimPlanes& p) { return SsimPlanes(p, true); };
  for (int s = 0; s < 2; ++s) {
    old_fps[s] = launch_fps(sizes[s], [](const SsimPlanes& p, ExactWords* o) {
      launch_exact_shape(p, o, nullptr, 1, 32);
    });
    for (size_t i = 0; i < kVariants; ++i)
      fps[s][i] = launch_fps(sizes[s], [&](const SsimPlanes& p, ExactWords* o) {
        launch_exact_u8_variant(p, o, nullptr, kU8Variants[i]);
      });
    old_emulated[s] = launch_fps(sizes[s], [&](const SsimPlanes& p, ExactWords* o) {
      launch_exact_shape(emulated(p), o, nullptr, 1, 32);
    });
    u8_emulated[s] = launch_fps(sizes[s], [&](const SsimPlanes& p, ExactWords* o) {
      launch_exact_u8(emulated(p), o, nullptr);
    });
    for (size_t c = 0; c < std::size(kU8EmulatedVariants); ++c)
      variant_fps[s][c] = launch_fps(sizes[s], [&](const SsimPlanes& p, ExactWords* o) {
        launch_exact_u8_emulated_variant(emulated(p), o, nullptr, kU8EmulatedVariants[c]);
      });
  }
  std::printf(
      "\n8-bit exact kernel only, luma: ssim_kernels.cu's 1x32 kernel against ssim_kernel_u8's "
      "variants "
      "(frames/s; threads x tile rows, register cap, loads)\n");
  std::printf("| kernel | 1080p | 4K | 1080p vs 1x32 | 4K vs 1x32 |\n|---|---|---|---|---|\n");
  std::printf("| ssim_kernels.cu 1x32 | %.0f | %.0f | 1.00 | 1.00 |\n", old_fps[0], old_fps[1]);
  for (size_t i = 0; i < kVariants; ++i) {
    const U8Variant& v = kU8Variants[i];
    std::printf(
        "| u8 %dx%d, %s, %s%s | %.0f | %.0f | %.2f | %.2f |\n", v.threads, v.tile_rows,
        v.max_registers ? fmt::format("{} registers", v.max_registers).c_str() : "no register cap",
        v.pipelined ? "pipelined" : "not pipelined", i == 0 ? " (launch_exact_u8)" : "", fps[0][i],
        fps[1][i], fps[0][i] / old_fps[0], fps[1][i] / old_fps[1]);
  }
  std::printf(
      "\n8-bit, fp64 emulated (softfp) against each kernel's native fp64 (frames/s; time ratio "
      "emulated / native)\n");
  std::printf(
      "| kernel | 1080p emulated | 4K emulated | 1080p ratio | 4K ratio "
      "|\n|---|---|---|---|---|\n");
  std::printf("| ssim_kernels.cu 1x32 | %.0f | %.0f | %.2f | %.2f |\n", old_emulated[0],
              old_emulated[1], old_fps[0] / old_emulated[0], old_fps[1] / old_emulated[1]);
  std::printf("| u8 (launch_exact_u8) | %.0f | %.0f | %.2f | %.2f |\n", u8_emulated[0],
              u8_emulated[1], fps[0][0] / u8_emulated[0], fps[1][0] / u8_emulated[1]);
  for (size_t c = 0; c < std::size(kU8EmulatedVariants); ++c)
    std::printf(
        "| u8, %d threads, register cap %d, %d tile rows, %d staging buffer%s%s | %.0f | %.0f | "
        "%.2f | %.2f |\n",
        kU8EmulatedVariants[c].threads, kU8EmulatedVariants[c].max_registers,
        kU8EmulatedVariants[c].tile_rows, kU8EmulatedVariants[c].stages,
        kU8EmulatedVariants[c].stages == 1 ? "" : "s", c == 0 ? " (launch_exact_u8's)" : "",
        variant_fps[0][c], variant_fps[1][c], fps[0][0] / variant_fps[0][c],
        fps[1][0] / variant_fps[1][c]);
  std::printf("| u8 emulated against the fastest native | | | %.2f | %.2f |\n",
              std::max(fps[0][0], old_fps[0]) / u8_emulated[0],
              std::max(fps[1][0], old_fps[1]) / u8_emulated[1]);
}

double copy_rate(size_t bytes, bool pinned, bool to_device) {
  DeviceBuffer d(bytes);
  PinnedBuffer p;
  std::vector<uint8_t> pageable;
  void* host;
  if (pinned) {
    p = PinnedBuffer(bytes);
    host = p.get();
  } else {
    pageable.assign(bytes, 1);
    host = pageable.data();
  }
  std::memset(host, 3, bytes);
  const double t = median_seconds(
      [&] {
        check(to_device ? cudaMemcpyAsync(d.get(), host, bytes, cudaMemcpyHostToDevice, nullptr)
                        : cudaMemcpyAsync(host, d.get(), bytes, cudaMemcpyDeviceToHost, nullptr),
              "copy");
      },
      4, pinned);
  return double(bytes) / t;
}

// Host raster sum of one plane of terms, one core.
double host_sum_seconds(const Size& s) {
  std::vector<double> terms(size_t(s.w) * s.h);
  std::mt19937_64 rng(3);
  for (double& t : terms) t = double(rng() % 65536) / 7.0;
  volatile double sink = 0;
  return median_seconds(
      [&] {
        double sum = 0;
        for (double t : terms) sum += t;
        sink = sum;
      },
      1, false);
}

// Frames/s through the feature (batches of batch_frames()), frames in RAM.
double library_fps(const std::shared_ptr<Device>& device, const Size& s, int bits,
                   const std::vector<std::string>& specs, ThreadPool& pool) {
  const VideoFormat f{s.w, s.h, ChromaFormat::k420, bits};
  std::vector<std::unique_ptr<Feature>> features;
  int batch = 1;
  for (const auto& spec : specs) {
    features.push_back(make_feature(parse_feature_spec(spec), FeatureContext{f, &pool, device}));
    batch = std::max(batch, features.back()->batch_frames());
  }
  const int frames = 2 * batch;  // the reader's two batches, reused
  std::vector<Picture> refs(static_cast<size_t>(frames)), dists(static_cast<size_t>(frames));
  for (int i = 0; i < frames; ++i) {
    refs[size_t(i)].allocate(f);
    dists[size_t(i)].allocate(f);
    for (int p = 0; p < 3; ++p) {
      fill_random(refs[size_t(i)].plane_data(p), f.plane_bytes(p), bits, uint64_t(10 + i));
      fill_random(dists[size_t(i)].plane_data(p), f.plane_bytes(p), bits, uint64_t(1000 + i));
    }
  }
  std::vector<FramePair> pairs;
  for (int i = 0; i < frames; ++i) pairs.push_back({&refs[size_t(i)], &dists[size_t(i)], i});
  std::vector<double> out(size_t(batch) * 16);
  const double t = median_seconds(
      [&] {
        for (int start = 0; start + batch <= frames; start += batch)
          for (auto& feature : features)
            feature->extract_batch(std::span(pairs).subspan(size_t(start), size_t(batch)),
                                   std::span(out).first(size_t(batch) * feature->outputs().size()));
      },
      1, false);
  return frames / t;
}

// ---- vmaf: vif's and adm's kernels, binary64 steps native and emulated ----

// vif's kernels as its CUDA engine launches them for a chunk of frames
// (cuda_engine.cpp): each level's statistic, then the halving to the next.
struct VifKernels {
  int bitdepth;
  VifLevelPlanes level0;
  std::array<DeviceBuffer, vif::kLevels> ref, dist;  // levels 1..3
  std::array<int, vif::kLevels> width{}, height{};
  DeviceBuffer table, sums;
  VifKernels(const DevicePlanes& p) : bitdepth(p.bitdepth) {
    level0 =
        VifLevelPlanes{p.ref, p.dist, p.frame_stride, p.width, p.height, p.bitdepth == 8, p.frames};
    width[0] = p.width;
    height[0] = p.height;
    for (int l = 1; l < vif::kLevels; ++l) {
      width[size_t(l)] = width[size_t(l - 1)] / 2;
      height[size_t(l)] = height[size_t(l - 1)] / 2;
      ref[size_t(l)] = DeviceBuffer(level_bytes(l) * size_t(p.frames));
      dist[size_t(l)] = DeviceBuffer(level_bytes(l) * size_t(p.frames));
    }
    table = DeviceBuffer(vif::kLog2Table.size() * sizeof(uint16_t));
    check(cudaMemcpy(table.get(), vif::kLog2Table.data(), table.bytes(), cudaMemcpyHostToDevice),
          "upload");
    sums = DeviceBuffer(size_t(p.frames) * vif::kLevels * 4 * sizeof(uint64_t));
  }
  size_t level_bytes(int l) const {
    return size_t(width[size_t(l)]) * size_t(height[size_t(l)]) * 2;
  }
  static VifFilter filter_of(int level) {
    VifFilter f;
    const auto taps = vif::level_taps(level);
    for (size_t k = 0; k < taps.size(); ++k) f.taps[k] = taps[k];
    f.count = int(taps.size());
    return f;
  }
  // statistics: whether to run the statistic kernels; halvings: the halving kernels.
  void run(bool emulate, bool statistics, bool halvings) {
    VifLevelPlanes level = level0;
    level.emulate_fp64 = emulate;
    for (int l = 0; l < vif::kLevels; ++l) {
      if (statistics)
        launch_vif_statistic(level, filter_of(l), vif::vertical_mean_rounding(l, bitdepth).shift,
                             vif::vertical_square_rounding(l, bitdepth).shift, 100.0,
                             table.get<uint16_t>(), sums.get<uint64_t>() + size_t(l) * 4,
                             vif::kLevels * 4, nullptr);
      if (l + 1 == vif::kLevels) break;
      uint16_t* r = ref[size_t(l + 1)].get<uint16_t>();
      uint16_t* d = dist[size_t(l + 1)].get<uint16_t>();
      if (halvings)
        launch_vif_halve(level, filter_of(l + 1), vif::rounding_by(l == 0 ? bitdepth : 16).shift, r,
                         d, level_bytes(l + 1), nullptr);
      level.ref = r;
      level.dist = d;
      level.frame_stride = level_bytes(l + 1);
      level.width = width[size_t(l + 1)];
      level.height = height[size_t(l + 1)];
      level.bytes = false;
    }
  }
};

// adm's kernels as its CUDA engine launches them for a chunk of frames
// (cuda_engine.cpp's enqueue and score_scale).
struct AdmKernels {
  static constexpr int kScales = 4;
  DevicePlanes planes;
  std::array<adm::stages::ScalePlan, kScales> plan{};
  std::array<std::array<DeviceBuffer, 6>, kScales>
      buffers;  // ref, dis, restored, additive, csf, flat
  DeviceBuffer sums;
  AdmKernels(const DevicePlanes& p) : planes(p) {
    const adm::CsfFactors factors = adm::csf_factors(3.0, 1080);
    for (int n = 0; n < kScales; ++n) {
      plan[size_t(n)] = adm::scale_plan(p.width, p.height, n, factors);
      const size_t band = samples(n) * size_t(p.frames) * (n == 0 ? 2 : 4);
      for (int b = 0; b < 6; ++b)
        buffers[size_t(n)][size_t(b)] = DeviceBuffer((b < 2 ? 4 : 3) * band);
    }
    sums = DeviceBuffer(size_t(p.frames) * kScales * 9 * sizeof(uint64_t));
  }
  size_t samples(int n) const {
    return size_t(plan[size_t(n)].width) * size_t(plan[size_t(n)].height);
  }
  AdmBands bands(int n, int b) const {
    return AdmBands{buffers[size_t(n)][size_t(b)].get(), samples(n),
                    samples(n) * size_t(planes.frames), plan[size_t(n)].width,
                    plan[size_t(n)].height};
  }
  // decouple: whether to run the decoupling kernels; rest: every other kernel.
  void run(bool emulate, bool decouple, bool rest) {
    const int frames = planes.frames;
    uint64_t* out = sums.get<uint64_t>();
    if (rest) {
      launch_adm_dwt0(planes.ref, planes.frame_stride, planes.bitdepth == 8, planes.width,
                      planes.height, planes.bitdepth, frames, bands(0, 0), nullptr);
      launch_adm_dwt0(planes.dist, planes.frame_stride, planes.bitdepth == 8, planes.width,
                      planes.height, planes.bitdepth, frames, bands(0, 1), nullptr);
    }
    for (int n = 0; n < kScales; ++n) {
      if (n > 0 && rest) {
        launch_adm_dwt_s123(bands(n - 1, 0), n == 1, n, frames, bands(n, 0), nullptr);
        launch_adm_dwt_s123(bands(n - 1, 1), n == 1, n, frames, bands(n, 1), nullptr);
      }
      const adm::stages::ScalePlan& p = plan[size_t(n)];
      if (decouple)
        launch_adm_decouple(n == 0, bands(n, 0), bands(n, 1), p, 100.0, emulate, frames,
                            bands(n, 2), bands(n, 3), nullptr);
      if (!rest) continue;
      uint64_t* s = out + size_t(n) * 9;
      launch_adm_denominator(n, bands(n, 0), p, frames, s, kScales * 9, nullptr);
      launch_adm_csf(n == 0, bands(n, 3), p, frames, bands(n, 4), bands(n, 5), nullptr);
      launch_adm_masking(n == 0, bands(n, 2), bands(n, 4), bands(n, 5), p, frames, s + 3,
                         kScales * 9, nullptr);
      launch_adm_csf(n == 0, bands(n, 2), p, frames, bands(n, 4), bands(n, 5), nullptr);
      launch_adm_masking(n == 0, bands(n, 3), bands(n, 4), bands(n, 5), p, frames, s + 6,
                         kScales * 9, nullptr);
    }
  }
};

// Microseconds a frame of `run(emulate, a, b)` on `frames` on the device.
template <typename Kernels>
double us_per_frame(Kernels& k, int frames, bool emulate, bool fp64_kernels, bool others) {
  return 1e6 / frames * median_seconds([&] { k.run(emulate, fp64_kernels, others); });
}

// vif and adm with their binary64 steps native and emulated (softfp), on
// random references and distorted pictures near them (almost every pixel takes
// vif's gain steps, the emulation's heaviest path; adm's angle test runs at
// every sample, its enhancement wherever the angle is within one degree),
// kernels only on frames already on the GPU; then end to end through the
// library from frames in RAM.
void vmaf_table(const std::shared_ptr<Device>& device) {
  std::printf(
      "\nvif and adm, binary64 steps native against emulated (fp64=native / fp64=emulate), kernels "
      "only, "
      "luma on the GPU; distorted = reference + noise in [-3, 3] (microseconds a frame; ratio: "
      "emulated / "
      "native time)\n");
  std::printf(
      "| case | fp64 kernels native | emulated | ratio | all the feature's kernels native | "
      "emulated | "
      "ratio |\n|---|---|---|---|---|---|---|\n");
  for (const Size& s : {k1080p, k4k})
    for (const int bits : {8, 10}) {
      const int frames = s.w * s.h > 4'000'000 ? 4 : 16;
      DeviceFrames f(s, bits, frames, true);
      VifKernels vif(f.planes);
      AdmKernels adm(f.planes);
      const auto row = [&](const char* name, auto& k) {
        const double native = us_per_frame(k, frames, false, true, false);
        const double emulated = us_per_frame(k, frames, true, true, false);
        const double all_native = us_per_frame(k, frames, false, true, true);
        const double all_emulated = us_per_frame(k, frames, true, true, true);
        std::printf("| %s %s %d-bit | %.1f | %.1f | %.2f | %.1f | %.1f | %.2f |\n", name, s.name,
                    bits, native, emulated, emulated / native, all_native, all_emulated,
                    all_emulated / all_native);
      };
      adm.run(false, true,
              true);  // every scale's bands from these frames before the decoupling alone is timed
      vif.run(false, true, true);  // every level likewise
      row("vif statistic", vif);
      row("adm decouple", adm);
    }
  ThreadPool pool(int(std::thread::hardware_concurrency()));
  std::printf(
      "\nvif and adm end to end from frames in RAM through the library, 8-bit 420 (frames/s)\n");
  std::printf(
      "| feature | 1080p native | 1080p emulated | 4K native | 4K emulated "
      "|\n|---|---|---|---|---|\n");
  for (const char* feature : {"vif", "adm"}) {
    double fps[2][2];
    for (int s = 0; s < 2; ++s)
      for (int e = 0; e < 2; ++e)
        fps[s][e] =
            library_fps(device, s == 0 ? k1080p : k4k, 8,
                        {fmt::format("{}=fp64={}", feature, e ? "emulate" : "native")}, pool);
    std::printf("| %s | %.0f | %.0f | %.0f | %.0f |\n", feature, fps[0][0], fps[0][1], fps[1][0],
                fps[1][1]);
  }
}

int run(int argc, char** argv) {
  if (argc > 1) g_seconds = std::atof(argv[1]);
  const bool kernels_only = argc > 2 && std::string(argv[2]) == "kernels";
  if (argc > 2 &&
      std::string(argv[2]) == "profile") {  // each 8-bit kernel once at 4K, for a profiler
    DeviceFrames f(k4k, 8, 8);
    DeviceBuffer sums(sizeof(ExactWords) * 8);
    launch_exact(f.planes, sums.get<ExactWords>(), nullptr);
    launch_exact_shape(f.planes, sums.get<ExactWords>(), nullptr, 1, 64);
    launch_exact_shape(f.planes, sums.get<ExactWords>(), nullptr, 2, 32);
    for (const U8Variant& v : kU8Variants)
      launch_exact_u8_variant(f.planes, sums.get<ExactWords>(), nullptr, v);
    f.planes.emulate_fp64 = true;
    launch_exact_shape(f.planes, sums.get<ExactWords>(), nullptr, 1, 32);
    launch_exact_u8(f.planes, sums.get<ExactWords>(), nullptr);
    check(cudaDeviceSynchronize(), "profile");
    return 0;
  }
  std::setvbuf(stdout, nullptr, _IOLBF, 0);  // lines survive a timeout
  DeviceOptions o;
  o.backend = Backend::kCuda;
  std::shared_ptr<Device> device;
  try {
    device = open_device(o, VideoFormat{16, 16, ChromaFormat::k420, 8});
  } catch (const DeviceError& e) {
    std::printf("no CUDA device (%s): nothing to measure\n", e.what());
    return 0;
  }
  std::printf("%s, %u host threads\n\n", device->description().c_str(),
              std::thread::hardware_concurrency());
  if (argc > 2 && std::string(argv[2]) == "u8") {
    u8_table();
    return 0;
  }
  if (argc > 2 && std::string(argv[2]) == "vmaf") {
    vmaf_table(device);
    return 0;
  }

  const size_t pair4k = size_t(2) * 3840 * 2160;
  const double pinned_h2d = copy_rate(pair4k, true, true);
  const double pageable_h2d = copy_rate(pair4k, false, true);
  const double pinned_d2h = copy_rate(size_t(3840) * 2160 * 8, true, false);
  std::printf(
      "ceilings: host-to-device pinned %.1f GB/s, pageable %.1f GB/s; device-to-host pinned %.1f "
      "GB/s\n",
      pinned_h2d / 1e9, pageable_h2d / 1e9, pinned_d2h / 1e9);
  std::printf(
      "  pinned upload ceiling, luma pairs: 4K 8-bit %.0f frames/s, 1080p 8-bit %.0f frames/s\n\n",
      pinned_h2d / double(pair4k), pinned_h2d / double(pair4k / 4));

  std::printf(
      "kernel only, exact, luma (frames/s)\n| size | 8-bit | 10-bit | 16-bit "
      "|\n|---|---|---|---|\n");
  for (const Size& s : {k1080p, k4k})
    std::printf("| %s | %.0f | %.0f | %.0f |\n", s.name, kernel_fps(s, 8), kernel_fps(s, 10),
                kernel_fps(s, 16));

  // The stage variants exist for ssim_kernels.cu's 1x32 kernel; launch_exact
  // runs the u8 kernel at 8 bits (its own column), which has no stage variants.
  std::printf(
      "\nper-stage cost per frame, 8-bit luma (microseconds; stages of ssim_kernels.cu's 1x32 "
      "kernel)\n");
  std::printf(
      "| size | upload (pinned) | moments | term | fixed point + reduction | exact kernel (1x32) | "
      "exact kernel (u8, launch_exact) | raster: term kernel | read-back | host sum (1 core) |\n");
  std::printf("|---|---|---|---|---|---|---|---|---|---|\n");
  for (const Size& s : {k1080p, k4k}) {
    const double moments = 1e6 / kernel_fps(s, 8, Stage::kMoments);
    const double term = 1e6 / kernel_fps(s, 8, Stage::kTerm);
    const double full = 1e6 / kernel_fps(s, 8, Stage::kFull, false, {1, 32});
    const double full_u8 = 1e6 / kernel_fps(s, 8, Stage::kFull);
    const size_t pixels = size_t(s.w) * s.h;
    DeviceFrames f(s, 8, 4);
    DeviceBuffer terms(pixels * 8 * 4);
    const double raster =
        1e6 / 4 * median_seconds([&] { launch_terms(f.planes, terms.get<double>(), nullptr); });
    std::printf("| %s | %.1f | %.1f | %.1f | %.1f | %.1f | %.1f | %.1f | %.1f | %.0f |\n", s.name,
                1e6 * 2 * double(pixels) / pinned_h2d, moments, term - moments, full - term, full,
                full_u8, raster, 1e6 * double(pixels) * 8 / pinned_d2h, 1e6 * host_sum_seconds(s));
  }

  std::printf(
      "\nexact kernel by tile shape (output columns a thread x rows a block), 8-bit luma "
      "(frames/s)\n");
  std::printf("| size | 1x32 (launch_exact above 8 bits) | 1x64 | 2x32 |\n|---|---|---|---|\n");
  for (const Size& s : {k1080p, k4k})
    std::printf("| %s | %.0f | %.0f | %.0f |\n", s.name,
                kernel_fps(s, 8, Stage::kFull, false, {1, 32}),
                kernel_fps(s, 8, Stage::kFull, false, {1, 64}),
                kernel_fps(s, 8, Stage::kFull, false, {2, 32}));

  std::printf("\nfp64 emulated (softfp) against native fp64, exact kernel only, luma (frames/s)\n");
  std::printf("| case | native | emulated | emulated / native time |\n|---|---|---|---|\n");
  for (const Size& s : {k1080p, k4k})
    for (const int bits : {8, 10, 16}) {
      const double native = kernel_fps(s, bits), emulated = kernel_fps(s, bits, Stage::kFull, true);
      std::printf("| %s %d-bit | %.0f | %.0f | %.2f |\n", s.name, bits, native, emulated,
                  native / emulated);
    }
  u8_table();
  if (kernels_only) return 0;

  ThreadPool pool(int(std::thread::hardware_concurrency()));
  std::printf(
      "\nend to end from frames in RAM through the library (frames/s), beside the pinned-copy "
      "ceiling of the scored planes\n");
  std::printf("| case | frames/s | ceiling | share |\n|---|---|---|---|\n");
  struct Case {
    const char* name;
    Size s;
    int bits;
    const char* spec;
    double bytes_per_frame;
  };
  const Case cases[] = {
      {"4K 8-bit exact luma", k4k, 8, "ssim", 2.0 * 3840 * 2160},
      {"1080p 8-bit exact luma", k1080p, 8, "ssim", 2.0 * 1920 * 1080},
      {"1080p 10-bit exact luma", k1080p, 10, "ssim", 4.0 * 1920 * 1080},
      {"1080p 8-bit exact chroma", k1080p, 8, "ssim=chroma=true", 3.0 * 1920 * 1080},
      {"4K 8-bit raster luma", k4k, 8, "ssim=sum=raster", 2.0 * 3840 * 2160},
      {"1080p 8-bit raster luma", k1080p, 8, "ssim=sum=raster", 2.0 * 1920 * 1080},
  };
  for (const Case& c : cases) {
    const double fps = library_fps(device, c.s, c.bits, {c.spec}, pool);
    const double ceiling = pinned_h2d / c.bytes_per_frame;
    std::printf("| %s | %.0f | %.0f | %.0f%% |\n", c.name, fps, ceiling, 100 * fps / ceiling);
  }

  std::printf(
      "\nssim and psnr together against each alone, library from RAM, 8-bit 420 (frames/s)\n");
  std::printf("| size | ssim | psnr | ssim + psnr |\n|---|---|---|---|\n");
  for (const Size& s : {k1080p, k4k})
    std::printf("| %s | %.0f | %.0f | %.0f |\n", s.name, library_fps(device, s, 8, {"ssim"}, pool),
                library_fps(device, s, 8, {"psnr"}, pool),
                library_fps(device, s, 8, {"ssim", "psnr"}, pool));
  return 0;
}

}  // namespace
}  // namespace exactvq::cuda

int main(int argc, char** argv) {
  try {
    return exactvq::cuda::run(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "cuda_kernel_bench: %s\n", e.what());
    return 1;
  }
}
