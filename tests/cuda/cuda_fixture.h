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

enum class Content { kRandom, kNoisy, kExtremes };

// A reference and distorted pair: independent random samples, a noisy copy
// (scores near 1), or planes of 0, M and checkerboards (the bounds of the spec).
inline void fill_pair(Picture& ref, Picture& dist, const VideoFormat& f, Content c,
                      std::mt19937_64& rng) {
  ref.allocate(f);
  dist.allocate(f);
  const uint32_t max = f.max_sample();
  for (int p = 0; p < f.plane_count(); ++p) {
    const size_t n = size_t(f.plane_width(p)) * f.plane_height(p);
    const int w = f.plane_width(p);
    const uint32_t pattern = uint32_t(rng() % 4);
    for (size_t i = 0; i < n; ++i) {
      uint32_t a = 0, b = 0;
      const size_t x = i % size_t(w), y = i / size_t(w);
      switch (c) {
        case Content::kRandom:
          a = uint32_t(rng() % (max + 1));
          b = uint32_t(rng() % (max + 1));
          break;
        case Content::kNoisy: {
          a = uint32_t((x * 37 + y * 11 + (rng() % 64)) % (max + 1));
          const int64_t noise = int64_t(rng() % 17) - 8;
          b = uint32_t(std::clamp<int64_t>(int64_t(a) + noise, 0, max));
          break;
        }
        case Content::kExtremes: {
          const bool odd = ((x + y) & 1) != 0;
          a = pattern == 0 ? max : pattern == 1 ? 0 : (odd ? max : 0);
          b = pattern == 2 ? (odd ? 0 : max) : pattern == 3 ? max - a : a;
          break;
        }
      }
      if (f.bitdepth > 8) {
        reinterpret_cast<uint16_t*>(ref.plane_data(p))[i] = uint16_t(a);
        reinterpret_cast<uint16_t*>(dist.plane_data(p))[i] = uint16_t(b);
      } else {
        ref.plane_data(p)[i] = uint8_t(a);
        dist.plane_data(p)[i] = uint8_t(b);
      }
    }
  }
}

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
