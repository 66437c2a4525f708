// --gpus scaling: a long 4K 8-bit 4:2:0 stream held in RAM
// (generated, page-locked once) scored through the library on 1, 2, ... N GPUs
// (MultiDevice, as --gpus builds it), in exact and raster modes and with
// ssim + psnr (apsnr); prints frames/s per device count, the ratio to one GPU, the
// pinned-copy ceiling with that many GPUs copying at once, and checks that every
// per-frame value and aggregate has the same bits at every device count (exit 1
// if not).
// Usage: multi_gpu_bench [frames, default 600] [timed passes, default 3]
#include <cuda_runtime_api.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "core/error.h"
#include "core/thread_pool.h"
#include "backends/device.h"
#include "metrics/feature.h"
#include "metrics/registry.h"
#include "backends/multi/multi_device.h"

namespace exactvq {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

void cuda_ok(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw DeviceError(std::string(what) + ": " + cudaGetErrorString(e));
}

template <typename Body>
void parallel(int count, Body body) {
  const int threads = std::max(1, int(std::thread::hardware_concurrency()));
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t)
    pool.emplace_back([&, t] {
      for (int i = t; i < count; i += threads) body(i);
    });
  for (auto& th : pool) th.join();
}

struct Stream {
  VideoFormat format;
  std::vector<Picture> refs, dists;
  std::vector<FramePair> pairs;
};

// Frames differ from one another: each is a window of a larger random buffer at its
// own offset, the distorted one a different buffer.
void generate(Stream& s, int frames) {
  s.format = VideoFormat{3840, 2160, ChromaFormat::k420, 8};
  const size_t luma = s.format.plane_bytes(0), slack = 1 << 16;
  std::vector<uint8_t> noise_r(luma + slack), noise_d(luma + slack);
  std::mt19937_64 rng(42);
  for (size_t i = 0; i < noise_r.size(); ++i) {
    const uint64_t v = rng();
    noise_r[i] = uint8_t(v);
    // The distorted buffer: the reference's sample plus small noise, clamped.
    noise_d[i] = uint8_t(std::clamp(int(uint8_t(v)) + int((v >> 8) % 17) - 8, 0, 255));
  }
  s.refs.resize(size_t(frames));
  s.dists.resize(size_t(frames));
  parallel(frames, [&](int i) {
    for (auto* pics : {&s.refs, &s.dists}) {
      Picture& p = (*pics)[size_t(i)];
      p.allocate(s.format);
      const auto& noise = pics == &s.refs ? noise_r : noise_d;
      const size_t offset = (size_t(i) * 4099) % slack;
      for (int plane = 0; plane < 3; ++plane)
        std::memcpy(p.plane_data(plane), noise.data() + offset, s.format.plane_bytes(plane));
    }
  });
  for (int i = 0; i < frames; ++i) s.pairs.push_back({&s.refs[size_t(i)], &s.dists[size_t(i)], i});
}

void pin(Stream& s) {
  for (auto* pics : {&s.refs, &s.dists})
    for (Picture& p : *pics)
      for (int plane = 0; plane < 3; ++plane)
        cuda_ok(cudaHostRegister(p.plane_data(plane), s.format.plane_bytes(plane),
                                 cudaHostRegisterPortable),
                "cudaHostRegister");
}

void unpin(Stream& s) {
  for (auto* pics : {&s.refs, &s.dists})
    for (Picture& p : *pics)
      for (int plane = 0; plane < 3; ++plane) cudaHostUnregister(p.plane_data(plane));
}

std::shared_ptr<Device> open_gpus(int count, const VideoFormat& f) {
  DeviceOptions o;
  o.backend = Backend::kCuda;
  if (count == 1) return open_device(o, f);  // one device: no wrapper, the baseline
  o.gpu_count = count;
  return open_device(o, f);
}

struct Result {
  double fps = 0;
  std::vector<uint64_t> bits;  // every per-frame value, then every aggregate
};

// One warm-up pass (allocations, first use), then `passes` timed passes over the
// whole stream in batches of the features' size; the median pass.
Result measure(const Stream& s, int gpus, const std::vector<std::string>& specs, int passes) {
  ThreadPool pool(int(std::thread::hardware_concurrency()));
  FeatureContext ctx{s.format, &pool, open_gpus(gpus, s.format)};
  std::vector<std::unique_ptr<Feature>> features;
  size_t batch = 1;
  for (const auto& spec : specs) {
    features.push_back(make_feature(parse_feature_spec(spec), ctx));
    batch = std::max(batch, size_t(features.back()->batch_frames()));
  }
  Result r;
  // Per feature, so the order of the values does not depend on the batch size
  // (which grows with the device count).
  std::vector<std::vector<uint64_t>> per_feature(features.size());
  std::vector<double> out;
  std::vector<double> times;
  std::vector<FramePair> pairs = s.pairs;
  for (int pass = 0; pass <= passes; ++pass) {
    // Frame numbers go on increasing from pass to pass, as in one long run.
    for (size_t i = 0; i < pairs.size(); ++i)
      pairs[i].index = int64_t(pass) * int64_t(pairs.size()) + int64_t(i);
    const auto t0 = Clock::now();
    for (size_t start = 0; start < pairs.size(); start += batch) {
      const size_t n = std::min(batch, pairs.size() - start);
      for (size_t fi = 0; fi < features.size(); ++fi) {
        Feature& f = *features[fi];
        out.assign(n * f.outputs().size(), 0.0);
        f.extract_batch(std::span(pairs).subspan(start, n), out);
        if (pass == 0)
          for (double v : out) {
            uint64_t b;
            std::memcpy(&b, &v, 8);
            per_feature[fi].push_back(b);
          }
      }
    }
    if (pass > 0) times.push_back(seconds_since(t0));
  }
  for (const auto& bits : per_feature) r.bits.insert(r.bits.end(), bits.begin(), bits.end());
  // Aggregates after 1 + passes passes over the stream: the same sums at every count.
  for (auto& f : features)
    for (auto& [name, v] : f->aggregates()) {
      uint64_t b;
      std::memcpy(&b, &v, 8);
      r.bits.push_back(b);
    }
  std::sort(times.begin(), times.end());
  r.fps = double(s.pairs.size()) / times[times.size() / 2];
  return r;
}

// Pinned host-to-device copy rate with `gpus` GPUs copying at once (GB/s in all).
double copy_ceiling(int gpus, size_t bytes) {
  std::vector<std::thread> threads;
  std::vector<double> rate(static_cast<size_t>(gpus), 0.0);
  for (int g = 0; g < gpus; ++g)
    threads.emplace_back([&, g] {
      cuda_ok(cudaSetDevice(g), "cudaSetDevice");
      void *host = nullptr, *dev = nullptr;
      cuda_ok(cudaMallocHost(&host, bytes), "cudaMallocHost");
      cuda_ok(cudaMalloc(&dev, bytes), "cudaMalloc");
      std::memset(host, 1, bytes);
      cuda_ok(cudaMemcpy(dev, host, bytes, cudaMemcpyHostToDevice), "copy");
      const int reps = 40;
      const auto t0 = Clock::now();
      for (int i = 0; i < reps; ++i)
        cuda_ok(cudaMemcpy(dev, host, bytes, cudaMemcpyHostToDevice), "copy");
      rate[size_t(g)] = double(bytes) * reps / seconds_since(t0);
      cudaFree(dev);
      cudaFreeHost(host);
    });
  for (auto& t : threads) t.join();
  double total = 0;
  for (double r : rate) total += r;
  return total / 1e9;
}

int run(int argc, char** argv) {
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  const int frames = argc > 1 ? std::max(1, std::atoi(argv[1])) : 600;
  const int passes = argc > 2 ? std::max(1, std::atoi(argv[2])) : 3;
  const int gpus = count_devices(Backend::kCuda);
  if (gpus == 0) {
    std::printf("no CUDA device: nothing to measure\n");
    return 0;
  }
  std::printf(
      "%d CUDA device(s), %u host threads; %d frames of 4K 8-bit 4:2:0 in RAM, %d timed passes\n",
      gpus, std::thread::hardware_concurrency(), frames, passes);
  for (int g = 0; g < gpus; ++g) {
    DeviceOptions o;
    o.backend = Backend::kCuda;
    o.gpu = g;
    std::printf("  %s\n",
                open_device(o, VideoFormat{16, 16, ChromaFormat::k420, 8})->description().c_str());
  }
  const size_t pair_luma = size_t(2) * 3840 * 2160;
  for (int g = 1; g <= gpus; ++g) {
    const double gbs = copy_ceiling(g, pair_luma);
    std::printf("pinned upload ceiling, %d GPU(s) at once: %.1f GB/s = %.0f 4K luma pairs/s\n", g,
                gbs, gbs * 1e9 / double(pair_luma));
  }

  Stream s;
  auto t0 = Clock::now();
  generate(s, frames);
  std::printf("generated %.1f GB in %.1f s\n",
              double(frames) * 2 * double(s.format.frame_bytes()) / 1e9, seconds_since(t0));
  t0 = Clock::now();
  pin(s);
  std::printf("page-locked in %.1f s\n\n", seconds_since(t0));

  struct Mode {
    const char* name;
    std::vector<std::string> specs;
  };
  const Mode modes[] = {
      {"exact, luma", {"ssim"}},
      {"raster, luma", {"ssim=sum=raster"}},
      {"exact ssim + psnr (apsnr)", {"ssim", "psnr=enable_apsnr=true:enable_chroma=false"}}};
  bool all_same = true;
  std::printf("| mode | GPUs | frames/s | vs 1 GPU | bits as 1 GPU |\n|---|---|---|---|---|\n");
  for (const Mode& m : modes) {
    Result one;
    for (int g = 1; g <= gpus; ++g) {
      const Result r = measure(s, g, m.specs, passes);
      if (g == 1) one = r;
      const bool same = r.bits == one.bits;
      all_same = all_same && same;
      std::printf("| %s | %d | %.0f | %.2fx | %s (%zu values) |\n", m.name, g, r.fps,
                  r.fps / one.fps, same ? "identical" : "DIFFERENT", r.bits.size());
    }
  }
  unpin(s);
  std::printf("\nper-frame values and aggregates at every GPU count: %s\n",
              all_same ? "bit-identical" : "NOT IDENTICAL");
  return all_same ? 0 : 1;
}

}  // namespace
}  // namespace exactvq

int main(int argc, char** argv) {
  try {
    return exactvq::run(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "multi_gpu_bench: %s\n", e.what());
    return 2;
  }
}
