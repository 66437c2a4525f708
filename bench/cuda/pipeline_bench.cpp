// The CUDA pipeline's host side, each table beside its ceiling measured in the
// same process:
//   e2e      frames in RAM through the features, batches as the CLI's reader
//            hands them over, against the pinned host-to-device copy rate of the
//            scored planes, both the ceiling measured once and a pinned copy
//            of the same bytes after each sample (side by side: the link's
//            rate drifts by a few percent within a run); the pipeline with
//            every upload knob off, the default, and a few knobs of
//            backends/cuda/batch_runner.h (kConfigs), each on a fresh device;
//            with EXACTVQ_CUDA_TRACE=1, copy_trace.h's timeline of each
//            configuration on standard error
//   copies   host-to-device copies alone, the library's pattern and others,
//            against the same ceiling: one copy per plane or a batch call per
//            chunk, from page-locked heap planes or from one page-locked slab
//   shared   ssim + psnr in one run (one upload) against each alone
//   vmaf     VMAF's features (the model's motion, vif and adm) per stage: the
//            pinned upload of the luma planes, each feature alone on frames
//            already on the GPU, the model on the host; then the three in one
//            run from RAM (one upload) against the pinned ceiling, side by side
//   float    float_ssim (default, the AOM CTC setting) and float_ms_ssim from
//            RAM against the pinned ceiling of the luma planes, side by side
//   reading  the CLI's reading path (PairReader on Y4M files in the page cache)
//            at 1..4 threads per input, against the rate at which the same
//            files can merely be read (read() into a small buffer, one and two
//            readers); no GPU needed for this table
// Usage: pipeline_bench [seconds per measurement, default 1] [work dir for the
// Y4M files, default /tmp/exactvq_pipeline_bench] [tables: copies,e2e,shared,reading,vmaf,float]
#include <cuda_runtime_api.h>
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <filesystem>
#include <fstream>
#include <functional>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include "app/pair_reader.h"
#include "core/error.h"
#include "backends/cuda/cuda_resources.h"
#include "backends/device.h"
#include "metrics/feature.h"
#include "metrics/registry.h"
#include "metrics/vmaf/model.h"
#include "metrics/vmaf/predict.h"
#include "io/video_source.h"

namespace exactvq::cuda {
namespace {

double g_seconds = 1.0;

using Clock = std::chrono::steady_clock;

// Seconds of each run of body() after a warm-up: at least 5 runs, for about
// g_seconds; after(seconds), when given, runs untimed after each timed run.
std::vector<double> sample_seconds(const std::function<void()>& body,
                                   const std::function<void(double)>& after = nullptr) {
  body();  // warm-up
  std::vector<double> samples;
  const auto begin = Clock::now();
  while (samples.size() < 5 ||
         (std::chrono::duration<double>(Clock::now() - begin).count() < g_seconds &&
          samples.size() < 500)) {
    const auto t0 = Clock::now();
    body();
    samples.push_back(std::chrono::duration<double>(Clock::now() - t0).count());
    if (after) after(samples.back());
  }
  return samples;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0.0 : v[v.size() / 2];
}

double median_seconds(const std::function<void()>& body) { return median(sample_seconds(body)); }

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

// Host-to-device copies from one page-locked 16.6 MB buffer (the ceiling).
class CeilingCopy {
 public:
  static constexpr size_t kBytes = size_t(2) * 3840 * 2160;
  CeilingCopy() : d_(kBytes), h_(kBytes) { std::memset(h_.get(), 3, kBytes); }
  // Copies `bytes` in all, kBytes at a time, and waits for them.
  void copy(double bytes) {
    for (double left = bytes; left > 0; left -= double(kBytes)) {
      const size_t n = size_t(std::min(left, double(kBytes)));
      check(cudaMemcpyAsync(d_.get(), h_.get(), n, cudaMemcpyHostToDevice, nullptr), "copy");
    }
    check(cudaStreamSynchronize(nullptr), "copy");
  }

 private:
  DeviceBuffer d_;
  PinnedBuffer h_;
};

// Pinned host-to-device bytes/s: the buffer copied 8 times back to back.
double pinned_rate() {
  CeilingCopy ceiling;
  const double bytes = 8.0 * double(CeilingCopy::kBytes);
  return bytes / median_seconds([&] { ceiling.copy(bytes); });
}

// The same copies, each from a different page-locked buffer of 1 GiB in all
// (written once, long before: read from memory, not from the CPU's caches),
// as frames in RAM are: bytes/s.
double pinned_streaming_rate() {
  const size_t bytes = size_t(2) * 3840 * 2160;
  const int count = int((size_t{1} << 30) / bytes);
  DeviceBuffer d(bytes);
  std::vector<PinnedBuffer> h;
  for (int i = 0; i < count; ++i) {
    h.emplace_back(bytes);
    std::memset(h.back().get(), 3 + i, bytes);
  }
  const double t = median_seconds([&] {
    for (int i = 0; i < count; ++i)
      check(cudaMemcpyAsync(d.get(), h[size_t(i)].get(), bytes, cudaMemcpyHostToDevice, nullptr),
            "copy");
    check(cudaStreamSynchronize(nullptr), "copy");
  });
  return double(count) * double(bytes) / t;
}

std::shared_ptr<Device> open_gpu() {
  DeviceOptions o;
  o.backend = Backend::kCuda;
  return open_device(o, VideoFormat{16, 16, ChromaFormat::k420, 8});
}

// Random pictures of one format, made as a benchmark first needs them and kept
// for the next (filling gigabytes at 4K takes longer than measuring). With
// `on_gpu`, each picture is copied once into device memory and handed over as a
// device picture (Picture::in_device_memory): no host-to-device copy in a run.
class PicturePool {
 public:
  explicit PicturePool(const VideoFormat& f, bool on_gpu = false) : f_(f), on_gpu_(on_gpu) {}
  void reserve(int frames) {
    while (int(refs_.size()) < frames) {
      const int i = int(refs_.size());
      refs_.emplace_back().allocate(f_);
      dists_.emplace_back().allocate(f_);
      for (int p = 0; p < f_.plane_count(); ++p) {
        fill_random(refs_.back().plane_data(p), f_.plane_bytes(p), f_.bitdepth, uint64_t(10 + i));
        fill_random(dists_.back().plane_data(p), f_.plane_bytes(p), f_.bitdepth,
                    uint64_t(1000 + i));
      }
      if (on_gpu_) {
        refs_.back() = to_device(refs_.back());
        dists_.back() = to_device(dists_.back());
      }
    }
  }
  Picture* ref(int i) { return &refs_[size_t(i)]; }
  Picture* dist(int i) { return &dists_[size_t(i)]; }

 private:
  Picture to_device(const Picture& host) {
    const size_t bytes = Picture::span_bytes(f_, f_.plane_count());
    DeviceBuffer& d = device_.emplace_back(bytes);
    check(cudaMemcpy(d.get(), host.plane(0).data, bytes, cudaMemcpyHostToDevice), "upload");
    return Picture::in_device_memory(f_, d.get<uint8_t>());
  }
  VideoFormat f_;
  bool on_gpu_;
  std::deque<Picture> refs_, dists_;  // a deque: pictures stay in place as it grows
  std::deque<DeviceBuffer> device_;
};

struct Throughput {
  double fps = 0;    // median frames/s
  double share = 0;  // median of (ceiling time / library time) over side-by-side samples
};

// Frames/s through the features, frames in RAM in the reader's two batches;
// with `ceiling`, each sample is followed by a pinned copy of the same bytes,
// so that the share compares the two at the same moment (the link's rate
// drifts by a few percent within a run).
Throughput library_fps_of(const std::shared_ptr<Device>& device, const VideoFormat& f,
                          const std::vector<FeatureSpec>& specs, PicturePool& pictures,
                          CeilingCopy* ceiling = nullptr, double bytes_per_frame = 0) {
  ThreadPool pool(int(std::max(2u, std::thread::hardware_concurrency())));
  std::vector<std::unique_ptr<Feature>> features;
  int batch = 1;
  for (const auto& spec : specs) {
    features.push_back(make_feature(spec, FeatureContext{f, &pool, device}));
    batch = std::max(batch, features.back()->batch_frames());
  }
  const int frames = 2 * batch;
  pictures.reserve(frames);
  int64_t next = 0;  // frame numbers increase, as in a run
  std::vector<FramePair> pairs(static_cast<size_t>(batch));
  std::vector<double> out(size_t(batch) * 16);
  const auto body = [&] {
    for (int start = 0; start < frames; start += batch) {
      for (int i = 0; i < batch; ++i)
        pairs[size_t(i)] = {pictures.ref(start + i), pictures.dist(start + i), next++};
      for (auto& feature : features)
        feature->extract_batch(pairs,
                               std::span(out).first(size_t(batch) * feature->outputs().size()));
    }
  };
  std::vector<double> shares;
  const std::vector<double> seconds = sample_seconds(body, [&](double library_seconds) {
    if (!ceiling) return;
    const auto t0 = Clock::now();
    ceiling->copy(bytes_per_frame * frames);
    shares.push_back(std::chrono::duration<double>(Clock::now() - t0).count() / library_seconds);
  });
  return {frames / median(seconds), median(shares)};
}

Throughput library_fps(const std::shared_ptr<Device>& device, const VideoFormat& f,
                       const std::vector<std::string>& specs, PicturePool& pictures,
                       CeilingCopy* ceiling = nullptr, double bytes_per_frame = 0) {
  std::vector<FeatureSpec> parsed;
  for (const auto& spec : specs) parsed.push_back(parse_feature_spec(spec));
  return library_fps_of(device, f, parsed, pictures, ceiling, bytes_per_frame);
}

// A fresh device opened under pipeline knobs ("NAME=value NAME=value ...",
// see backends/cuda/batch_runner.h); the others at their defaults.
std::shared_ptr<Device> open_tuned(const std::string& knobs) {
  static const char* const kKnobs[] = {"EXACTVQ_CUDA_MAX_BATCH", "EXACTVQ_CUDA_SHORT_TAIL",
                                       "EXACTVQ_CUDA_BATCH_COPIES", "EXACTVQ_CUDA_COPY_STREAM",
                                       "EXACTVQ_CUDA_MIN_CHUNK"};
  for (const char* k : kKnobs) unsetenv(k);
  std::istringstream in(knobs);
  for (std::string kv; in >> kv;) {
    const size_t eq = kv.find('=');
    setenv(kv.substr(0, eq).c_str(), kv.substr(eq + 1).c_str(), 1);
  }
  auto d = open_gpu();
  for (const char* k : kKnobs) unsetenv(k);
  return d;
}

struct Case {
  const char* name;
  VideoFormat f;
  const char* spec;
  double bytes;  // uploaded per frame pair
};

// Page-locking pictures on first use (PinnedRegistry: cudaHostRegister, portable)
// and releasing them: bytes/s, for buffers of `bytes` fresh from the heap.
double register_rate(size_t bytes, int count) {
  std::vector<std::vector<uint8_t>> bufs(static_cast<size_t>(count));
  for (auto& b : bufs) b.assign(bytes, 1);
  const auto t0 = Clock::now();
  for (auto& b : bufs)
    check(cudaHostRegister(b.data(), bytes, cudaHostRegisterPortable), "cudaHostRegister");
  const double t = std::chrono::duration<double>(Clock::now() - t0).count();
  for (auto& b : bufs) cudaHostUnregister(b.data());
  return double(bytes) * count / t;
}

// The pipeline's shapes compared end to end; the first has every upload knob
// off, the second is the default.
struct Config {
  const char* name;
  const char* knobs;
};
constexpr Config kConfigs[] = {
    {"a copy per plane on its lane, batch 32 (every knob off)",
     "EXACTVQ_CUDA_BATCH_COPIES=0 EXACTVQ_CUDA_COPY_STREAM=0 EXACTVQ_CUDA_MIN_CHUNK=1 "
     "EXACTVQ_CUDA_MAX_BATCH=32"},
    {"batched copies, copy stream, batch 64, one read-back a batch (default)", ""},
    {"default, batch 32", "EXACTVQ_CUDA_MAX_BATCH=32"},
    {"default, full tail", "EXACTVQ_CUDA_SHORT_TAIL=0"},
};

void e2e_table() {
  const double rate = pinned_rate();
  std::printf("pinned host-to-device ceiling: %.1f GB/s\n", rate / 1e9);
  const double streaming = pinned_streaming_rate();
  std::printf(
      "pinned host-to-device, 1 GiB of distinct buffers (not in the CPU's caches): %.1f GB/s "
      "(%.1f%% of the ceiling); the ceiling again: %.1f GB/s\n",
      streaming / 1e9, 100 * streaming / rate, pinned_rate() / 1e9);
  std::printf(
      "page-locking pictures on first use (cudaHostRegister): 1080p luma planes %.1f GB/s, 4K luma "
      "planes %.1f GB/s\n\n",
      register_rate(size_t(1920) * 1080, 128) / 1e9, register_rate(size_t(3840) * 2160, 40) / 1e9);
  std::printf(
      "end to end from frames in RAM (frames/s; share of the pinned-copy ceiling of the scored "
      "planes:\n"
      "first against the ceiling measured once above, then the median over samples of the "
      "library's\n"
      "time against a pinned copy of the same bytes right after it, side by side)\n");
  std::printf("| case | ceiling |");
  for (const Config& k : kConfigs) std::printf(" %s | share | side by side |", k.name);
  std::printf("\n|---|---|");
  for (size_t i = 0; i < std::size(kConfigs); ++i) std::printf("---|---|---|");
  std::printf("\n");
  const Case cases[] = {
      {"4K 8-bit exact luma", {3840, 2160, ChromaFormat::k420, 8}, "ssim", 2.0 * 3840 * 2160},
      {"1080p 8-bit exact luma", {1920, 1080, ChromaFormat::k420, 8}, "ssim", 2.0 * 1920 * 1080},
      {"1080p 10-bit exact luma", {1920, 1080, ChromaFormat::k420, 10}, "ssim", 4.0 * 1920 * 1080},
      {"1080p 8-bit exact chroma",
       {1920, 1080, ChromaFormat::k420, 8},
       "ssim=chroma=true",
       3.0 * 1920 * 1080},
  };
  CeilingCopy side_by_side;
  for (const Case& c : cases) {
    const double ceiling = rate / c.bytes;
    PicturePool pictures(c.f);
    std::printf("| %s | %.0f |", c.name, ceiling);
    // One after the other in one process, so a drift of the card's clocks touches all alike.
    for (const Config& k : kConfigs) {
      const Throughput t =
          library_fps(open_tuned(k.knobs), c.f, {c.spec}, pictures, &side_by_side, c.bytes);
      std::printf(" %.0f | %.1f%% | %.1f%% |", t.fps, 100 * t.fps / ceiling, 100 * t.share);
    }
    std::printf("\n");
  }
  std::printf("\n");
}

// `count` host planes of `bytes`, page-locked either each on its own (heap
// buffers registered as PinnedRegistry does) or back to back in one
// cudaHostAlloc slab.
class HostPlanes {
 public:
  HostPlanes(size_t bytes, int count, bool slab) {
    if (slab) {
      slab_ = PinnedBuffer(bytes * size_t(count));
      std::memset(slab_.get(), 5, slab_.bytes());
      for (int i = 0; i < count; ++i) at_.push_back(slab_.get() + size_t(i) * bytes);
      return;
    }
    heap_.resize(size_t(count));
    for (auto& h : heap_) {
      h.assign(bytes, 5);
      check(cudaHostRegister(h.data(), bytes, cudaHostRegisterPortable), "cudaHostRegister");
      at_.push_back(h.data());
    }
  }
  ~HostPlanes() {
    for (auto& h : heap_) cudaHostUnregister(h.data());
  }
  const uint8_t* operator[](size_t i) const { return at_[i]; }

 private:
  std::vector<std::vector<uint8_t>> heap_;
  PinnedBuffer slab_;
  std::vector<const uint8_t*> at_;
};

enum class CopyPattern {
  kPlaneLanes,  // a cudaMemcpyAsync per plane, chunks round robin on 3 streams (the library before)
  kBatchLanes,  // a cudaMemcpyBatchAsync per chunk, 3 streams
  kBatchAnyOrder,  // the same with cudaMemcpySrcAccessOrderAny
  kPlaneOne,       // a cudaMemcpyAsync per plane, one stream
  kBatchAll,       // one cudaMemcpyBatchAsync for every plane, one stream
  kChunkLanes,     // one cudaMemcpyAsync per chunk (its planes adjacent in host memory), 3 streams
};

bool batch_copy(std::vector<void*>& dst, std::vector<const void*>& src, std::vector<size_t>& bytes,
                cudaMemcpySrcAccessOrder order, cudaStream_t stream) {
  cudaMemcpyAttributes attr{};
  attr.srcAccessOrder = order;
  size_t first = 0;
  const bool ok = cudaMemcpyBatchAsync(dst.data(), src.data(), bytes.data(), dst.size(), &attr,
                                       &first, 1, stream) == cudaSuccess;
  dst.clear(), src.clear(), bytes.clear();
  if (!ok) cudaGetLastError();
  return ok;
}

// Seconds to copy `count` planes of `bytes` (pairs of a chunk of `chunk`
// frames adjacent) to the device in `pattern`; negative if the driver refused
// a batch call.
double copy_seconds(const HostPlanes& host, uint8_t* device, size_t bytes, int count, int chunk,
                    CopyPattern pattern) {
  static Stream lanes[3];
  std::vector<void*> dst;
  std::vector<const void*> src;
  std::vector<size_t> sizes;
  bool refused = false;
  const double t = median_seconds([&] {
    const int per_chunk = 2 * chunk;  // a reference and a distorted plane per frame
    for (int c = 0; c * per_chunk < count; ++c) {
      const int first = c * per_chunk, n = std::min(per_chunk, count - first);
      const bool one_stream =
          pattern == CopyPattern::kPlaneOne || pattern == CopyPattern::kBatchAll;
      const cudaStream_t s = one_stream ? lanes[0].get() : lanes[c % 3].get();
      if (pattern == CopyPattern::kChunkLanes) {
        check(cudaMemcpyAsync(device + size_t(first) * bytes, host[size_t(first)],
                              size_t(n) * bytes, cudaMemcpyHostToDevice, s),
              "copy");
        continue;
      }
      for (int i = first; i < first + n; ++i) {
        if (pattern == CopyPattern::kPlaneLanes || pattern == CopyPattern::kPlaneOne) {
          check(cudaMemcpyAsync(device + size_t(i) * bytes, host[size_t(i)], bytes,
                                cudaMemcpyHostToDevice, s),
                "copy");
          continue;
        }
        dst.push_back(device + size_t(i) * bytes);
        src.push_back(host[size_t(i)]);
        sizes.push_back(bytes);
      }
      if (pattern == CopyPattern::kBatchLanes || pattern == CopyPattern::kBatchAnyOrder)
        refused |= !batch_copy(dst, src, sizes,
                               pattern == CopyPattern::kBatchLanes ? cudaMemcpySrcAccessOrderStream
                                                                   : cudaMemcpySrcAccessOrderAny,
                               s);
    }
    if (pattern == CopyPattern::kBatchAll)
      refused |= !batch_copy(dst, src, sizes, cudaMemcpySrcAccessOrderStream, lanes[0].get());
    for (auto& l : lanes) check(cudaStreamSynchronize(l.get()), "copy");
  });
  return refused ? -1.0 : t;
}

void copies_table() {
  const double rate = pinned_rate();
  int driver = 0, runtime = 0;
  cudaDriverGetVersion(&driver);
  cudaRuntimeGetVersion(&runtime);
  std::printf(
      "host-to-device copies of 32 frame pairs (64 planes), no kernels; driver %d, runtime %d; "
      "pinned ceiling %.1f GB/s (one 16.6 MB cudaHostAlloc buffer, 8 copies of it back to back)\n",
      driver, runtime, rate / 1e9);
  std::printf(
      "share of the ceiling (negative: the batch call was refused); last column: time per copy "
      "above the ceiling, library pattern before\n");
  std::printf(
      "| planes | heap, a copy per plane, 3 lanes (before) | heap, batch call per chunk, 3 lanes | "
      "the same, source order any | heap, a copy per plane, 1 stream | heap, one batch call, 1 "
      "stream | "
      "slab, a copy per plane, 3 lanes | slab, a copy per chunk, 3 lanes | us per copy |\n");
  std::printf("|---|---|---|---|---|---|---|---|---|\n");
  const int count = 64;
  for (const auto& [name, bytes, chunk] :
       {std::tuple{"1080p luma 8-bit", size_t(1920) * 1080, 4},
        std::tuple{"4K luma 8-bit", size_t(3840) * 2160, 1},
        std::tuple{"1080p chroma 420 8-bit", size_t(960) * 540, 4}}) {
    DeviceBuffer device(bytes * count);
    const double ideal = double(bytes) * count / rate;
    auto share = [&](double t) { return t < 0 ? -1.0 : 100 * ideal / t; };
    double before = 0;
    std::printf("| %s, chunks of %d |", name, chunk);
    {
      const HostPlanes heap(bytes, count, false);
      for (CopyPattern p :
           {CopyPattern::kPlaneLanes, CopyPattern::kBatchLanes, CopyPattern::kBatchAnyOrder,
            CopyPattern::kPlaneOne, CopyPattern::kBatchAll}) {
        const double t = copy_seconds(heap, device.get(), bytes, count, chunk, p);
        if (p == CopyPattern::kPlaneLanes) before = t;
        std::printf(" %.1f%% |", share(t));
      }
    }
    const HostPlanes slab(bytes, count, true);
    for (CopyPattern p : {CopyPattern::kPlaneLanes, CopyPattern::kChunkLanes})
      std::printf(" %.1f%% |", share(copy_seconds(slab, device.get(), bytes, count, chunk, p)));
    std::printf(" %.2f |\n", 1e6 * (before - ideal) / count);
  }
  std::printf("\n");
}

void shared_table() {
  std::printf(
      "ssim and psnr in one run (one upload per frame pair) against each alone, from RAM, 8-bit "
      "420 (frames/s)\n");
  std::printf(
      "| size | ssim | psnr | ssim + psnr | together / ssim alone |\n|---|---|---|---|---|\n");
  for (const auto& [name, w, h] : {std::tuple{"1080p", 1920, 1080}, std::tuple{"4K", 3840, 2160}}) {
    const VideoFormat f{w, h, ChromaFormat::k420, 8};
    PicturePool pictures(f);
    const double ssim = library_fps(open_gpu(), f, {"ssim"}, pictures).fps;
    const double psnr = library_fps(open_gpu(), f, {"psnr"}, pictures).fps;
    const double both = library_fps(open_gpu(), f, {"ssim", "psnr"}, pictures).fps;
    std::printf("| %s | %.0f | %.0f | %.0f | %.2f |\n", name, ssim, psnr, both, both / ssim);
  }
  std::printf("\n");
}

// VMAF v0.6.1 per stage and end to end, 8-bit 4:2:0 (its features read luma only).
void vmaf_table() {
  const vmaf::Model model = vmaf::builtin_model("vmaf_v0.6.1");
  // Temporal features first, as FeatureSet calls them: motion's pass computes the
  // others too (BatchRunner), while a pass another feature asked for cannot take motion.
  std::vector<FeatureSpec> all = vmaf::extractor_specs(model);
  std::stable_partition(all.begin(), all.end(),
                        [](const FeatureSpec& f) { return f.name == "motion"; });
  std::vector<double> inputs(model.features.size(), 0.5);
  volatile double sink = 0;
  const double model_us = 1e6 / 1000 * median_seconds([&] {
                            for (int i = 0; i < 1000; ++i) {
                              inputs[0] = 0.25 + i * 1e-4;
                              sink = sink + vmaf::predict(model, inputs);
                            }
                          });
  const double rate = pinned_rate();
  CeilingCopy side_by_side;
  std::printf(
      "VMAF v0.6.1 per stage, 8-bit 4:2:0 (microseconds a frame pair): the pinned upload of the "
      "two luma\n"
      "planes at the ceiling measured once (%.1f GB/s); each feature alone on frames already on "
      "the GPU\n"
      "(its kernels and its device-to-device copy); the model's prediction on the host, one "
      "thread\n",
      rate / 1e9);
  std::printf("| size | upload |");
  for (const FeatureSpec& spec : all) std::printf(" %s |", spec.name.c_str());
  std::printf(" model | sum | features together on the GPU |\n|---|---|");
  for (size_t k = 0; k < all.size(); ++k) std::printf("---|");
  std::printf("---|---|---|\n");
  struct Row {
    const char* name;
    VideoFormat f;
    double together_gpu = 0;
  };
  Row rows[] = {{"1080p", {1920, 1080, ChromaFormat::k420, 8}},
                {"4K", {3840, 2160, ChromaFormat::k420, 8}}};
  for (Row& r : rows) {
    const double bytes = 2.0 * r.f.width * r.f.height;
    PicturePool on_gpu(r.f, /*on_gpu=*/true);
    double sum = bytes / rate * 1e6 + model_us;
    std::printf("| %s | %.1f |", r.name, bytes / rate * 1e6);
    for (const FeatureSpec& spec : all) {
      const double us = 1e6 / library_fps_of(open_gpu(), r.f, {spec}, on_gpu).fps;
      std::printf(" %.1f |", us);
      sum += us;
    }
    r.together_gpu = library_fps_of(open_gpu(), r.f, all, on_gpu).fps;
    std::printf(" %.2f | %.1f | %.1f |\n", model_us, sum, 1e6 / r.together_gpu);
  }
  std::printf(
      "\nVMAF's features in one run from frames in RAM (one upload) against the pinned ceiling of "
      "the luma\n"
      "planes (frames/s; share: of the ceiling measured once, then side by side; the kernel-only "
      "rate is\n"
      "the features together on frames already on the GPU)\n");
  std::printf(
      "| size | pinned ceiling | kernel-only | from RAM | share of ceiling | side by side | of "
      "kernel-only |\n"
      "|---|---|---|---|---|---|---|\n");
  for (const Row& r : rows) {
    const double bytes = 2.0 * r.f.width * r.f.height, ceiling = rate / bytes;
    PicturePool pictures(r.f);
    const Throughput t = library_fps_of(open_gpu(), r.f, all, pictures, &side_by_side, bytes);
    std::printf("| %s | %.0f | %.0f | %.0f | %.1f%% | %.1f%% | %.1f%% |\n", r.name, ceiling,
                r.together_gpu, t.fps, 100 * t.fps / ceiling, 100 * t.share,
                100 * t.fps / r.together_gpu);
  }
  std::printf("\n");
}

// The float SSIMs from frames in RAM, 8-bit 4:2:0 (they read luma only).
void float_table() {
  const double rate = pinned_rate();
  CeilingCopy side_by_side;
  std::printf(
      "float SSIMs from frames in RAM against the pinned ceiling of the luma planes (frames/s; "
      "share: of\n"
      "the ceiling measured once, then side by side)\n");
  std::printf(
      "| size | feature | pinned ceiling | from RAM | share | side by side "
      "|\n|---|---|---|---|---|---|\n");
  for (const auto& [name, w, h] : {std::tuple{"1080p", 1920, 1080}, std::tuple{"4K", 3840, 2160}}) {
    const VideoFormat f{w, h, ChromaFormat::k420, 8};
    const double bytes = 2.0 * w * h, ceiling = rate / bytes;
    PicturePool pictures(f);
    for (const char* spec :
         {"float_ssim", "float_ssim=scale=1:enable_db=true:clip_db=true", "float_ms_ssim"}) {
      const Throughput t = library_fps(open_gpu(), f, {spec}, pictures, &side_by_side, bytes);
      std::printf("| %s | `%s` | %.0f | %.0f | %.1f%% | %.1f%% |\n", name, spec, ceiling, t.fps,
                  100 * t.fps / ceiling, 100 * t.share);
    }
  }
  std::printf("\n");
}

// Y4M 8-bit 420 of `frames` random frames.
std::string write_y4m(const std::string& dir, const std::string& name, int w, int h, int frames,
                      uint64_t seed) {
  const std::string path = dir + "/" + name;
  const size_t frame = size_t(w) * h * 3 / 2;
  if (std::filesystem::exists(path) &&
      std::filesystem::file_size(path) > uint64_t(frames) * (frame + 6))
    return path;
  std::ofstream out(path, std::ios::binary);
  out << "YUV4MPEG2 W" << w << " H" << h << " F25:1 Ip A1:1 C420jpeg\n";
  std::vector<uint8_t> buf(frame);
  for (int i = 0; i < frames; ++i) {
    fill_random(buf.data(), buf.size(), 8, seed + uint64_t(i) % 7);
    out << "FRAME\n";
    out.write(reinterpret_cast<const char*>(buf.data()), std::streamsize(buf.size()));
  }
  return path;
}

// Seconds to read the files with read() into a 128 KiB buffer (as cat does),
// one after the other or each by its own thread.
double cat_seconds(const std::vector<std::string>& paths, bool parallel) {
  auto read_one = [](const std::string& p) {
    const int fd = open(p.c_str(), O_RDONLY);
    std::vector<char> buf(128 << 10);
    while (read(fd, buf.data(), buf.size()) > 0) {}
    close(fd);
  };
  return median_seconds([&] {
    if (!parallel) {
      for (const auto& p : paths) read_one(p);
      return;
    }
    std::vector<std::thread> ts;
    for (const auto& p : paths) ts.emplace_back(read_one, p);
    for (auto& t : ts) t.join();
  });
}

// Seconds for the CLI's reading path to deliver every pair, batches of `batch`.
double reader_seconds(const std::string& r, const std::string& d, size_t batch, int threads) {
  return median_seconds([&] {
    auto ref = open_video(r, {});
    auto dist = open_video(d, {});
    PairReader reader(*ref, *dist, {}, /*parallel=*/true, threads);
    FrameBatch b(batch);
    do reader.fill(b);
    while (!b.last && !b.error);
  });
}

void reading_table(const std::string& dir) {
  std::filesystem::create_directories(dir);
  std::printf("reading Y4M from the page cache, 8-bit 420 (frame pairs/s), %u host threads\n",
              std::thread::hardware_concurrency());
  std::printf(
      "| input | read(), one reader | read(), two readers | PairReader 1 thread per input | 2 | 3 "
      "| 4 | best / one reader |\n");
  std::printf("|---|---|---|---|---|---|---|---|\n");
  for (const auto& [name, w, h, n] :
       {std::tuple{"1080p", 1920, 1080, 300}, std::tuple{"4K", 3840, 2160, 80}}) {
    const std::string r = write_y4m(dir, std::string(name) + "_ref.y4m", w, h, n, 1);
    const std::string d = write_y4m(dir, std::string(name) + "_dist.y4m", w, h, n, 100);
    const double one = n / cat_seconds({r, d}, false), two = n / cat_seconds({r, d}, true);
    const size_t batch = w > 2000 ? 20 : 32;  // the GPU features' batches
    double fps[4], best = 0;
    for (int t = 1; t <= 4; ++t)
      best = std::max(best, fps[t - 1] = n / reader_seconds(r, d, batch, t));
    std::printf("| %s, %d frames | %.0f | %.0f | %.0f | %.0f | %.0f | %.0f | %.0f%% |\n", name, n,
                one, two, fps[0], fps[1], fps[2], fps[3], 100 * best / one);
  }
  std::printf("\n");
}

int run(int argc, char** argv) {
  if (argc > 1) g_seconds = std::atof(argv[1]);
  const std::string dir = argc > 2 ? argv[2] : "/tmp/exactvq_pipeline_bench";
  const std::string tables = argc > 3 ? argv[3] : "copies,e2e,shared,reading,vmaf,float";
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  if (tables.find("reading") != std::string::npos) reading_table(dir);
  std::shared_ptr<Device> device;
  try {
    device = open_gpu();
  } catch (const DeviceError& e) {
    std::printf("no CUDA device (%s): GPU tables skipped\n", e.what());
    return 0;
  }
  std::printf("%s\n\n", device->description().c_str());
  if (tables.find("copies") != std::string::npos) copies_table();
  if (tables.find("e2e") != std::string::npos) e2e_table();
  if (tables.find("shared") != std::string::npos) shared_table();
  if (tables.find("vmaf") != std::string::npos) vmaf_table();
  if (tables.find("float") != std::string::npos) float_table();
  return 0;
}

}  // namespace
}  // namespace exactvq::cuda

int main(int argc, char** argv) {
  try {
    return exactvq::cuda::run(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "pipeline_bench: %s\n", e.what());
    return 1;
  }
}
