// OpenCL backend throughput, for the record (on PoCL in CI it is OpenCL on the
// CPU), from frames in RAM, 8-bit 4:2:0 at 576x324 and 1080p:
//  - table "ssim": frames/s of the ssim feature, exact and raster, beside the
//    CPU feature (one thread) on the same frames in the same process;
//  - table "features": frames/s of ssim alone, psnr alone and both in one run,
//    where the two share the device's frame pair and the SSIM pass computes the
//    SSE (numbered frames, as exactvq scores them), and both without sharing
//    (frames passed without a number: each feature uploads, psnr runs its own
//    kernel) for comparison;
//  - table "vmaf": frames/s of adm alone and of VMAF's three features (motion,
//    vif, adm) in one run, on the device and beside the CPU features (one
//    thread) on the same frames in the same process.
// Every configuration is measured `--runs` times, the configurations taking
// turns (so a change in the machine's load touches all of them alike); the
// table gives the median frames/s and the range of the runs, and the median of
// frames per second of the process's CPU time (PoCL's threads included), which
// a busy machine disturbs less than the wall clock.
// Usage: opencl_bench [--seconds S (per run, default 1)] [--runs N (default 5)]
//                     [--table ssim|features|vmaf|all] [--size WxH (default both)]
//                     [--opencl-device N]
#include <algorithm>
#include <chrono>
#include <ctime>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "core/error.h"
#include "backends/device.h"
#include "metrics/feature.h"
#include "metrics/registry.h"

namespace exactvq {
namespace {

// A reference and a noisy copy of it: smooth gradients plus noise, as video is.
void fill(Picture& ref, Picture& dist, const VideoFormat& f) {
  std::mt19937_64 rng(1);
  ref.allocate(f);
  dist.allocate(f);
  for (int p = 0; p < f.plane_count(); ++p) {
    const int w = f.plane_width(p), h = f.plane_height(p);
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x) {
        const int v = (x * 255 / w + y * 255 / h) / 2 + int(rng() % 16);
        const size_t i = size_t(y) * size_t(w) + size_t(x);
        ref.plane_data(p)[i] = uint8_t(std::min(v, 255));
        dist.plane_data(p)[i] = uint8_t(std::clamp(v + int(rng() % 9) - 4, 0, 255));
      }
  }
}

// One way of scoring a frame pair, measured as frames/s.
struct Config {
  std::string name;
  std::vector<std::string> specs;
  std::shared_ptr<Device> device;    // null: the CPU
  bool numbered = true;              // frames carry their number (shared on a device)
  bool from_zero = false;            // numbered from 0 in each run (motion needs the run's order)
  std::vector<double> fps = {};      // one per run
  std::vector<double> cpu_fps = {};  // frames per second of the process's CPU time
};

// The CPU time of the whole process (PoCL's worker threads included).
double process_cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return double(t.tv_sec) + double(t.tv_nsec) * 1e-9;
}

double seconds_since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

// Frames/s of one run (wall clock, process CPU time): the features made afresh
// (not timed), one frame to warm up, then frames until `seconds` have passed
// (at least 2).
std::pair<double, double> measure(const Config& c, const VideoFormat& f, const Picture& ref,
                                  const Picture& dist, double seconds, int64_t& frame_number) {
  std::vector<std::unique_ptr<Feature>> features;
  for (const auto& s : c.specs)
    features.push_back(make_feature(parse_feature_spec(s), FeatureContext{f, nullptr, c.device}));
  std::vector<double> values;
  int64_t run_frames = 0;
  int64_t& number = c.from_zero ? run_frames : frame_number;
  auto score = [&] {
    const FramePair pair{&ref, &dist, number++};
    for (auto& feature : features) {
      values.resize(feature->outputs().size());
      if (c.numbered)
        feature->extract_batch({&pair, 1}, values);
      else
        feature->extract(ref, dist, values);
    }
  };
  score();
  const auto begin = std::chrono::steady_clock::now();
  const double cpu_begin = process_cpu_seconds();
  int frames = 0;
  while (frames < 2 || seconds_since(begin) < seconds) {
    score();
    ++frames;
  }
  return {frames / seconds_since(begin), frames / (process_cpu_seconds() - cpu_begin)};
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

void run_table(std::vector<Config>& configs, const VideoFormat& f, double seconds, int runs) {
  Picture ref, dist;
  fill(ref, dist, f);
  int64_t frame_number = 0;
  for (int r = 0; r < runs; ++r)
    for (Config& c : configs) {
      const auto [wall, cpu] = measure(c, f, ref, dist, seconds, frame_number);
      c.fps.push_back(wall);
      c.cpu_fps.push_back(cpu);
    }
  for (const Config& c : configs) {
    const auto [lo, hi] = std::minmax_element(c.fps.begin(), c.fps.end());
    std::printf("| %-9s | %-32s | %10.2f | %7.2f - %-7.2f | %12.2f |\n",
                fmt::format("{}x{}", f.width, f.height).c_str(), c.name.c_str(), median(c.fps), *lo,
                *hi, median(c.cpu_fps));
  }
  std::fflush(stdout);
}

void header(const char* what) {
  std::printf("\n| size      | %-32s | median fps | range of runs     | per CPU-second |\n", what);
  std::printf(
      "|-----------|----------------------------------|-----------:|-------------------|-----------"
      "----:|\n");
}

int run(int argc, char** argv) {
  double seconds = 1.0;
  int runs = 5;
  std::string table = "all";
  std::pair<int, int> size{0, 0};
  DeviceOptions o;
  o.backend = Backend::kOpenCL;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--opencl-device" && i + 1 < argc)
      o.opencl_device = std::atoi(argv[++i]);
    else if (a == "--seconds" && i + 1 < argc)
      seconds = std::atof(argv[++i]);
    else if (a == "--runs" && i + 1 < argc)
      runs = std::max(1, std::atoi(argv[++i]));
    else if (a == "--table" && i + 1 < argc)
      table = argv[++i];
    else if (a == "--size" && i + 1 < argc &&
             std::sscanf(argv[i + 1], "%dx%d", &size.first, &size.second) == 2)
      ++i;
    else {
      std::fprintf(stderr,
                   "usage: opencl_bench [--seconds S] [--runs N] [--table ssim|features|vmaf|all] "
                   "[--size WxH] [--opencl-device N]\n");
      return 2;
    }
  }
  const VideoFormat probe{16, 16, ChromaFormat::k420, 8};
  std::shared_ptr<Device> device;
  try {
    device = open_device(o, probe);
  } catch (const DeviceError& e) {
    std::printf("no OpenCL device: %s\n", e.what());
    return 0;
  }
  std::printf("%s; 8-bit 4:2:0 frames in RAM; %d runs of %.1f s each per row, rows taking turns\n",
              device->description().c_str(), runs, seconds);
  std::vector<std::pair<int, int>> sizes = {{576, 324}, {1920, 1080}};
  if (size.first > 0 && size.second > 0) sizes = {size};
  if (table == "ssim" || table == "all") {
    header("ssim feature (CPU: one thread)");
    for (const auto& [w, h] : sizes) {
      std::vector<Config> configs;
      for (const char* mode : {"exact", "raster"}) {
        const std::string spec = std::string("ssim=sum=") + mode;
        configs.push_back({fmt::format("opencl {}", spec), {spec}, device, true});
        configs.push_back({fmt::format("cpu    {}", spec), {spec}, nullptr, true});
      }
      run_table(configs, VideoFormat{w, h, ChromaFormat::k420, 8}, seconds, runs);
    }
  }
  if (table == "features" || table == "all") {
    header("opencl features in one run");
    for (const auto& [w, h] : sizes) {
      std::vector<Config> configs = {
          {"ssim", {"ssim"}, device, true},
          {"psnr", {"psnr"}, device, true},
          {"ssim + psnr, shared", {"ssim", "psnr"}, device, true},
          {"ssim + psnr, not shared", {"ssim", "psnr"}, device, false},
          {"ssim chroma", {"ssim=chroma=true"}, device, true},
          {"ssim chroma + psnr, shared", {"ssim=chroma=true", "psnr"}, device, true},
          {"ssim chroma + psnr, not shared", {"ssim=chroma=true", "psnr"}, device, false},
      };
      run_table(configs, VideoFormat{w, h, ChromaFormat::k420, 8}, seconds, runs);
    }
  }
  if (table == "vmaf" || table == "all") {
    header("VMAF's features (CPU: one thread)");
    for (const auto& [w, h] : sizes) {
      const std::vector<std::string> vmaf = {"motion", "vif", "adm"};
      std::vector<Config> configs = {
          {"opencl adm", {"adm"}, device, true, true},
          {"cpu    adm", {"adm"}, nullptr, true, true},
          {"opencl motion + vif + adm", vmaf, device, true, true},
          {"cpu    motion + vif + adm", vmaf, nullptr, true, true},
      };
      run_table(configs, VideoFormat{w, h, ChromaFormat::k420, 8}, seconds, runs);
    }
  }
  return 0;
}

}  // namespace
}  // namespace exactvq

int main(int argc, char** argv) { return exactvq::run(argc, argv); }
