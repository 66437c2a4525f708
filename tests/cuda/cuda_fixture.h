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

// Scores `pairs` with feature `spec` on the CPU and on the GPU (one batch) and
// expects every value equal bit for bit; returns how many values were compared.
inline int compare_cpu_gpu(const VideoFormat& f, const std::string& spec,
                           const std::vector<FramePair>& pairs, const std::string& what) {
  ThreadPool pool(2);
  const FeatureSpec parsed = parse_feature_spec(spec);
  auto cpu = make_feature(parsed, FeatureContext{f, &pool, nullptr});
  auto cuda = make_feature(parsed, FeatureContext{f, &pool, gpu()});
  const size_t n = cpu->outputs().size();
  EXPECT_EQ(cuda->outputs(), cpu->outputs());
  std::vector<double> want(pairs.size() * n), got(pairs.size() * n, -12345.0);
  cpu->extract_batch(pairs, want);
  cuda->extract_batch(pairs, got);
  int compared = 0;
  for (size_t i = 0; i < want.size(); ++i, ++compared)
    EXPECT_TRUE(same_bits(got[i], want[i]))
        << what << " " << f.describe() << " " << spec << " frame " << i / n << " "
        << cpu->outputs()[i % n] << ": gpu " << got[i] << " cpu " << want[i];
  const auto cpu_aggregates = cpu->aggregates(), gpu_aggregates = cuda->aggregates();
  EXPECT_EQ(gpu_aggregates.size(), cpu_aggregates.size()) << what << " " << spec;
  for (size_t i = 0; i < std::min(cpu_aggregates.size(), gpu_aggregates.size()); ++i, ++compared)
    EXPECT_TRUE(cpu_aggregates[i].first == gpu_aggregates[i].first &&
                same_bits(cpu_aggregates[i].second, gpu_aggregates[i].second))
        << what << " " << spec << " " << cpu_aggregates[i].first;
  return compared;
}

}  // namespace exactvq::cudatest
