// OpenCL backend throughput, for the record (on PoCL in CI it is OpenCL on the
// CPU): frames/s of the ssim feature from frames in RAM at 576x324 and 1080p
// 8-bit, exact and raster, beside the CPU feature (one thread) on the same
// frames in the same process. Medians of repeated frames.
// Usage: opencl_bench [seconds per measurement, default 2] [--opencl-device N]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "core/error.h"
#include "features/device_backend.h"
#include "features/feature.h"

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

// Median seconds per frame of `feature`, over at least 3 frames and `seconds`.
double median_frame_seconds(Feature& feature, const Picture& ref, const Picture& dist, double seconds) {
  std::vector<double> out(feature.outputs().size()), samples;
  feature.extract(ref, dist, out);  // warm-up
  const auto begin = std::chrono::steady_clock::now();
  while (samples.size() < 3 ||
         std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count() < seconds) {
    const auto t0 = std::chrono::steady_clock::now();
    feature.extract(ref, dist, out);
    samples.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  std::sort(samples.begin(), samples.end());
  return samples[samples.size() / 2];
}

int run(int argc, char** argv) {
  double seconds = 2.0;
  DeviceOptions o;
  o.backend = Backend::kOpenCL;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--opencl-device") == 0 && i + 1 < argc) o.opencl_device = std::atoi(argv[++i]);
    else seconds = std::atof(argv[i]);
  }
  const VideoFormat probe{16, 16, ChromaFormat::k420, 8};
  std::shared_ptr<DeviceBackend> device;
  try {
    device = open_device(o, probe);
  } catch (const DeviceError& e) {
    std::printf("no OpenCL device: %s\n", e.what());
    return 0;
  }
  std::printf("%s\n", device->description().c_str());
  std::printf("%-10s %-7s %14s %14s %8s\n", "size", "sum", "opencl fps", "cpu 1T fps", "ratio");
  for (const auto& [w, h] : {std::pair{576, 324}, std::pair{1920, 1080}}) {
    const VideoFormat f{w, h, ChromaFormat::k420, 8};
    Picture ref, dist;
    fill(ref, dist, f);
    for (const char* mode : {"exact", "raster"}) {
      const FeatureSpec spec = parse_feature_spec(std::string("ssim=sum=") + mode);
      auto gpu = make_feature(spec, FeatureContext{f, nullptr, device});
      auto cpu = make_feature(spec, FeatureContext{f, nullptr, nullptr});
      const double t_gpu = median_frame_seconds(*gpu, ref, dist, seconds);
      const double t_cpu = median_frame_seconds(*cpu, ref, dist, seconds);
      std::printf("%-10s %-7s %14.1f %14.1f %8.2f\n", (std::to_string(w) + "x" + std::to_string(h)).c_str(), mode, 1.0 / t_gpu,
                  1.0 / t_cpu, t_cpu / t_gpu);
    }
  }
  return 0;
}

}  // namespace
}  // namespace exactvq

int main(int argc, char** argv) { return exactvq::run(argc, argv); }
