// Shared by the OpenCL tests: the device opened once (or a visible skip, as
// device_fixture.h has it for every backend), the CPU feature beside the device
// feature frame by frame, errors' messages, random pictures and the public
// vectors.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "core/error.h"
#include "core/thread_pool.h"
#include "backends/device.h"
#include "metrics/feature.h"
#include "metrics/registry.h"
#include "io/video_source.h"
#include "libvmaf_vector_pairs.h"
#include "backends/opencl/opencl_device.h"
#include "device_fixture.h"

namespace exactvq::opencltest {

namespace fs = std::filesystem;

// The device, opened once and shared with the device tests; null when none
// can be used.
inline std::shared_ptr<opencl::OpenclDevice> device() {
  return std::dynamic_pointer_cast<opencl::OpenclDevice>(
      device_testing::shared_device(Backend::kOpenCL).device);
}

// No device at all: a visible skip; a device that fails to open or to build
// the kernels: a failure.
class OpenclTest : public device_testing::OneBackendTest<Backend::kOpenCL> {
 protected:
  static std::shared_ptr<opencl::OpenclDevice> device() { return opencltest::device(); }
};

using device_testing::same_bits;

// The DeviceError `body` throws, or "(no DeviceError)".
inline std::string message_of(const std::function<void()>& body) {
  try {
    body();
  } catch (const DeviceError& e) {
    return e.what();
  }
  return "(no DeviceError)";
}

inline bool contains(const std::string& s, const std::string& part) {
  return s.find(part) != std::string::npos;
}

// The feature on the CPU and on the device for one format and option string,
// compared frame after frame.
class Twins {
 public:
  Twins(const VideoFormat& f, const std::string& spec) : spec_(spec) {
    cpu_ = make_feature(parse_feature_spec(spec), FeatureContext{f, nullptr, nullptr});
    gpu_ = make_feature(parse_feature_spec(spec), FeatureContext{f, nullptr, device()});
  }

  // Returns the number of values compared.
  size_t compare(const Picture& ref, const Picture& dist, const std::string& where) {
    const size_t n = cpu_->outputs().size();
    std::vector<double> want(n), got(n);
    cpu_->extract(ref, dist, want);
    gpu_->extract(ref, dist, got);
    for (size_t i = 0; i < n; ++i)
      EXPECT_TRUE(same_bits(want[i], got[i]))
          << where << " " << spec_ << " " << cpu_->outputs()[i] << ": cpu "
          << fmt::format("{:a}", want[i]) << ", opencl " << fmt::format("{:a}", got[i]);
    return n;
  }

  // The run's aggregate values (psnr's apsnr_*), compared; returns how many.
  size_t compare_aggregates(const std::string& where) {
    const auto want = cpu_->aggregates(), got = gpu_->aggregates();
    EXPECT_EQ(want.size(), got.size()) << where;
    for (size_t i = 0; i < std::min(want.size(), got.size()); ++i)
      EXPECT_TRUE(want[i].first == got[i].first && same_bits(want[i].second, got[i].second))
          << where << " " << spec_ << " " << want[i].first << ": cpu "
          << fmt::format("{:a}", want[i].second) << ", opencl "
          << fmt::format("{:a}", got[i].second);
    return want.size();
  }

 private:
  std::string spec_;
  std::unique_ptr<Feature> cpu_, gpu_;
};

// Samples: independent noise, a noisy copy (scores near 1), or extremes 0 and M.
inline void fill(Picture& ref, Picture& dist, const VideoFormat& f, int content,
                 std::mt19937_64& rng) {
  ref.allocate(f);
  dist.allocate(f);
  const uint64_t max = f.max_sample();
  for (int p = 0; p < f.plane_count(); ++p) {
    const size_t n = size_t(f.plane_width(p)) * size_t(f.plane_height(p));
    for (size_t i = 0; i < n; ++i) {
      uint64_t a = rng() % (max + 1), b = rng() % (max + 1);
      if (content == 1) b = std::min(max, a + rng() % 4);
      if (content == 2) {
        a = rng() % 2 ? max : 0;
        b = rng() % 3 ? max - a : a;
      }
      if (f.bitdepth == 8) {
        ref.plane_data(p)[i] = uint8_t(a);
        dist.plane_data(p)[i] = uint8_t(b);
      } else {
        reinterpret_cast<uint16_t*>(ref.plane_data(p))[i] = uint16_t(a);
        reinterpret_cast<uint16_t*>(dist.plane_data(p))[i] = uint16_t(b);
      }
    }
  }
}

using device_testing::Content;
using device_testing::fill_pair;

// Calls body(name, ref, dist) for every public vector pair (../shared/vectors);
// false when the vectors are absent.
inline bool for_each_public_vector(
    const std::function<void(const std::string&, VideoSource&, VideoSource&)>& body) {
  if (!testing_vectors::vectors_present()) return false;
  for (const testing_vectors::Pair& p : testing_vectors::load_pairs()) {
    auto ref = open_video(p.ref.string(), p.raw);
    auto dist = open_video(p.dist.string(), p.raw);
    body(p.info.at("name").get<std::string>(), *ref, *dist);
  }
  return true;
}

}  // namespace exactvq::opencltest
