// The CUDA pipeline's host side (issue C scope 8, issue I scope 2), each table
// beside its ceiling measured in the same process:
//   e2e      frames in RAM through the features, batches as the CLI's reader
//            hands them over, against the pinned host-to-device copy rate of the
//            scored planes; with the pipeline knobs (EXACTVQ_CUDA_MAX_BATCH,
//            EXACTVQ_CUDA_SHORT_TAIL) varied on fresh devices
//   shared   ssim + psnr in one run (one upload) against each alone
//   reading  the CLI's reading path (PairReader on Y4M files in the page cache)
//            at 1..4 threads per input, against the rate at which the same
//            files can merely be read (read() into a small buffer, one and two
//            readers); no GPU needed for this table
// Usage: pipeline_bench [seconds per measurement, default 1] [work dir for the
// Y4M files, default /tmp/exactvq_pipeline_bench] [tables: e2e,shared,reading]
#include <cuda_runtime_api.h>
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "app/pair_reader.h"
#include "core/error.h"
#include "cuda/cuda_resources.h"
#include "features/device_backend.h"
#include "features/feature.h"
#include "io/video_source.h"

namespace exactvq::cuda {
namespace {

double g_seconds = 1.0;

using Clock = std::chrono::steady_clock;

// Median seconds of body() (at least 5 samples, for about g_seconds).
double median_seconds(const std::function<void()>& body) {
  body();  // warm-up
  std::vector<double> samples;
  const auto begin = Clock::now();
  while (samples.size() < 5 ||
         (std::chrono::duration<double>(Clock::now() - begin).count() < g_seconds && samples.size() < 500)) {
    const auto t0 = Clock::now();
    body();
    samples.push_back(std::chrono::duration<double>(Clock::now() - t0).count());
  }
  std::sort(samples.begin(), samples.end());
  return samples[samples.size() / 2];
}

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

// Pinned host-to-device bytes/s: one large copy (the ceiling).
double pinned_rate() {
  const size_t bytes = size_t(2) * 3840 * 2160;
  DeviceBuffer d(bytes);
  PinnedBuffer h(bytes);
  std::memset(h.get(), 3, bytes);
  const double t = median_seconds([&] {
    for (int i = 0; i < 8; ++i)
      check(cudaMemcpyAsync(d.get(), h.get(), bytes, cudaMemcpyHostToDevice, nullptr), "copy");
    check(cudaStreamSynchronize(nullptr), "copy");
  });
  return 8.0 * double(bytes) / t;
}

std::shared_ptr<DeviceBackend> open_gpu() {
  DeviceOptions o;
  o.backend = Backend::kCuda;
  return open_device(o, VideoFormat{16, 16, ChromaFormat::k420, 8});
}

// Frames/s through the features, frames in RAM in the reader's two batches.
double library_fps(const std::shared_ptr<DeviceBackend>& device, const VideoFormat& f,
                   const std::vector<std::string>& specs) {
  ThreadPool pool(int(std::max(2u, std::thread::hardware_concurrency())));
  std::vector<std::unique_ptr<Feature>> features;
  int batch = 1;
  for (const auto& spec : specs) {
    features.push_back(make_feature(parse_feature_spec(spec), FeatureContext{f, &pool, device}));
    batch = std::max(batch, features.back()->batch_frames());
  }
  const int frames = 2 * batch;
  std::vector<Picture> refs(static_cast<size_t>(frames)), dists(static_cast<size_t>(frames));
  for (int i = 0; i < frames; ++i) {
    refs[size_t(i)].allocate(f);
    dists[size_t(i)].allocate(f);
    for (int p = 0; p < f.plane_count(); ++p) {
      fill_random(refs[size_t(i)].plane_data(p), f.plane_bytes(p), f.bitdepth, uint64_t(10 + i));
      fill_random(dists[size_t(i)].plane_data(p), f.plane_bytes(p), f.bitdepth, uint64_t(1000 + i));
    }
  }
  int64_t next = 0;  // frame numbers increase, as in a run
  std::vector<FramePair> pairs(static_cast<size_t>(batch));
  std::vector<double> out(size_t(batch) * 16);
  const double t = median_seconds([&] {
    for (int start = 0; start < frames; start += batch) {
      for (int i = 0; i < batch; ++i)
        pairs[size_t(i)] = {&refs[size_t(start + i)], &dists[size_t(start + i)], next++};
      for (auto& feature : features)
        feature->extract_batch(pairs, std::span(out).first(size_t(batch) * feature->outputs().size()));
    }
  });
  return frames / t;
}

// A fresh device opened under the given pipeline knobs.
std::shared_ptr<DeviceBackend> open_tuned(const char* max_batch, const char* short_tail) {
  if (max_batch) setenv("EXACTVQ_CUDA_MAX_BATCH", max_batch, 1);
  else unsetenv("EXACTVQ_CUDA_MAX_BATCH");
  if (short_tail) setenv("EXACTVQ_CUDA_SHORT_TAIL", short_tail, 1);
  else unsetenv("EXACTVQ_CUDA_SHORT_TAIL");
  auto d = open_gpu();
  unsetenv("EXACTVQ_CUDA_MAX_BATCH");
  unsetenv("EXACTVQ_CUDA_SHORT_TAIL");
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

void e2e_table() {
  const double rate = pinned_rate();
  std::printf("pinned host-to-device ceiling: %.1f GB/s\n", rate / 1e9);
  std::printf("page-locking pictures on first use (cudaHostRegister): 1080p luma planes %.1f GB/s, 4K luma planes %.1f GB/s\n\n",
              register_rate(size_t(1920) * 1080, 128) / 1e9, register_rate(size_t(3840) * 2160, 40) / 1e9);
  std::printf("end to end from frames in RAM (frames/s; share of the pinned-copy ceiling of the scored planes)\n");
  std::printf("| case | ceiling | default (batch 32, short tail) | share | full tail | share | batch 64 | share |\n");
  std::printf("|---|---|---|---|---|---|---|---|\n");
  const Case cases[] = {
      {"4K 8-bit exact luma", {3840, 2160, ChromaFormat::k420, 8}, "ssim", 2.0 * 3840 * 2160},
      {"1080p 8-bit exact luma", {1920, 1080, ChromaFormat::k420, 8}, "ssim", 2.0 * 1920 * 1080},
      {"1080p 10-bit exact luma", {1920, 1080, ChromaFormat::k420, 10}, "ssim", 4.0 * 1920 * 1080},
      {"1080p 8-bit exact chroma", {1920, 1080, ChromaFormat::k420, 8}, "ssim=chroma=true", 3.0 * 1920 * 1080},
  };
  for (const Case& c : cases) {
    const double ceiling = rate / c.bytes;
    const double def = library_fps(open_tuned(nullptr, nullptr), c.f, {c.spec});
    const double full = library_fps(open_tuned(nullptr, "0"), c.f, {c.spec});
    const double big = library_fps(open_tuned("64", nullptr), c.f, {c.spec});
    std::printf("| %s | %.0f | %.0f | %.1f%% | %.0f | %.1f%% | %.0f | %.1f%% |\n", c.name, ceiling, def,
                100 * def / ceiling, full, 100 * full / ceiling, big, 100 * big / ceiling);
  }
  std::printf("\n");
}

void shared_table() {
  std::printf("ssim and psnr in one run (one upload per frame pair) against each alone, from RAM, 8-bit 420 (frames/s)\n");
  std::printf("| size | ssim | psnr | ssim + psnr | together / ssim alone |\n|---|---|---|---|---|\n");
  for (const auto& [name, w, h] : {std::tuple{"1080p", 1920, 1080}, std::tuple{"4K", 3840, 2160}}) {
    const VideoFormat f{w, h, ChromaFormat::k420, 8};
    const double ssim = library_fps(open_gpu(), f, {"ssim"});
    const double psnr = library_fps(open_gpu(), f, {"psnr"});
    const double both = library_fps(open_gpu(), f, {"ssim", "psnr"});
    std::printf("| %s | %.0f | %.0f | %.0f | %.2f |\n", name, ssim, psnr, both, both / ssim);
  }
  std::printf("\n");
}

// Y4M 8-bit 420 of `frames` random frames (as cli_bench.sh writes them).
std::string write_y4m(const std::string& dir, const std::string& name, int w, int h, int frames,
                      uint64_t seed) {
  const std::string path = dir + "/" + name;
  const size_t frame = size_t(w) * h * 3 / 2;
  if (std::filesystem::exists(path) &&
      std::filesystem::file_size(path) > uint64_t(frames) * (frame + 6)) return path;
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
    while (read(fd, buf.data(), buf.size()) > 0) {
    }
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
  std::printf("| input | read(), one reader | read(), two readers | PairReader 1 thread per input | 2 | 3 | 4 | best / one reader |\n");
  std::printf("|---|---|---|---|---|---|---|---|\n");
  for (const auto& [name, w, h, n] : {std::tuple{"1080p", 1920, 1080, 300}, std::tuple{"4K", 3840, 2160, 80}}) {
    const std::string r = write_y4m(dir, std::string(name) + "_ref.y4m", w, h, n, 1);
    const std::string d = write_y4m(dir, std::string(name) + "_dist.y4m", w, h, n, 100);
    const double one = n / cat_seconds({r, d}, false), two = n / cat_seconds({r, d}, true);
    const size_t batch = w > 2000 ? 20 : 32;  // the GPU features' batches
    double fps[4], best = 0;
    for (int t = 1; t <= 4; ++t) best = std::max(best, fps[t - 1] = n / reader_seconds(r, d, batch, t));
    std::printf("| %s, %d frames | %.0f | %.0f | %.0f | %.0f | %.0f | %.0f | %.0f%% |\n", name, n, one, two,
                fps[0], fps[1], fps[2], fps[3], 100 * best / one);
  }
  std::printf("\n");
}

int run(int argc, char** argv) {
  if (argc > 1) g_seconds = std::atof(argv[1]);
  const std::string dir = argc > 2 ? argv[2] : "/tmp/exactvq_pipeline_bench";
  const std::string tables = argc > 3 ? argv[3] : "e2e,shared,reading";
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  if (tables.find("reading") != std::string::npos) reading_table(dir);
  std::shared_ptr<DeviceBackend> device;
  try {
    device = open_gpu();
  } catch (const DeviceError& e) {
    std::printf("no CUDA device (%s): GPU tables skipped\n", e.what());
    return 0;
  }
  std::printf("%s\n\n", device->description().c_str());
  if (tables.find("e2e") != std::string::npos) e2e_table();
  if (tables.find("shared") != std::string::npos) shared_table();
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
