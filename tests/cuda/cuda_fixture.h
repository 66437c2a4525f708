// Shared by the CUDA tests: the device (or a visible skip), random pictures, and
// the CPU reference beside the GPU on the same frames.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "core/error.h"
#include "backends/device.h"
#include "metrics/feature.h"
#include "metrics/registry.h"
#include "device_pictures.h"

namespace exactvq::cudatest {

// The CUDA device, opened once; null (and `why`) when none can be used.
inline std::shared_ptr<Device> gpu(std::string* why = nullptr) {
  static std::string reason;
  static std::shared_ptr<Device> device = [] {
    DeviceOptions o;
    o.backend = Backend::kCuda;
    try {
      return open_cuda_device(o, VideoFormat{16, 16, ChromaFormat::k420, 8});
    } catch (const DeviceError& e) {
      reason = e.what();
      return std::shared_ptr<Device>();
    }
  }();
  if (why) *why = reason;
  return device;
}

class CudaTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string why;
    if (!gpu(&why)) GTEST_SKIP() << "no usable CUDA device (" << why << "): GPU test skipped";
  }
};

using testing_devices::Content;
using testing_devices::fill_pair;

inline bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

// Scores `pairs` with feature `spec` on the CPU and with each of `gpu_specs`
// on the GPU (one batch each) and expects every value equal bit for bit;
// returns how many values were compared.
inline int compare_cpu_gpus(const VideoFormat& f, const std::string& spec, const std::vector<std::string>& gpu_specs,
                            const std::vector<FramePair>& pairs, const std::string& what) {
  ThreadPool pool(2);
  auto cpu = make_feature(parse_feature_spec(spec), FeatureContext{f, &pool, nullptr});
  const size_t n = cpu->outputs().size();
  std::vector<double> want(pairs.size() * n);
  cpu->extract_batch(pairs, want);
  const auto cpu_aggregates = cpu->aggregates();
  int compared = 0;
  for (const std::string& gpu_spec : gpu_specs) {
    auto cuda = make_feature(parse_feature_spec(gpu_spec), FeatureContext{f, &pool, gpu()});
    EXPECT_EQ(cuda->outputs(), cpu->outputs());
    std::vector<double> got(pairs.size() * n, -12345.0);
    cuda->extract_batch(pairs, got);
    for (size_t i = 0; i < want.size(); ++i, ++compared)
      EXPECT_TRUE(same_bits(got[i], want[i]))
          << what << " " << f.describe() << " " << gpu_spec << " frame " << i / n << " "
          << cpu->outputs()[i % n] << ": gpu " << got[i] << " cpu " << want[i];
    const auto gpu_aggregates = cuda->aggregates();
    EXPECT_EQ(gpu_aggregates.size(), cpu_aggregates.size()) << what << " " << gpu_spec;
    for (size_t i = 0; i < std::min(cpu_aggregates.size(), gpu_aggregates.size()); ++i, ++compared)
      EXPECT_TRUE(cpu_aggregates[i].first == gpu_aggregates[i].first &&
                  same_bits(cpu_aggregates[i].second, gpu_aggregates[i].second))
          << what << " " << gpu_spec << " " << cpu_aggregates[i].first;
  }
  return compared;
}

// The same spec on both.
inline int compare_cpu_gpu(const VideoFormat& f, const std::string& spec, const std::vector<FramePair>& pairs,
                           const std::string& what) {
  return compare_cpu_gpus(f, spec, {spec}, pairs, what);
}

// `spec` with option fp64=<mode> added (the GPU's native and emulated binary64).
inline std::string with_fp64(const std::string& spec, const char* mode) {
  return spec + (spec.find('=') == std::string::npos ? "=" : ":") + "fp64=" + mode;
}

// `spec` on the CPU against the GPU with fp64=native and with fp64=emulate.
inline int compare_cpu_gpu_fp64_modes(const VideoFormat& f, const std::string& spec,
                                      const std::vector<FramePair>& pairs, const std::string& what) {
  return compare_cpu_gpus(f, spec, {with_fp64(spec, "native"), with_fp64(spec, "emulate")}, pairs, what);
}

}  // namespace exactvq::cudatest
