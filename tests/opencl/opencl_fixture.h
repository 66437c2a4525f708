// Shared by the OpenCL tests: the device opened once (or a visible skip), the
// CPU feature beside the device feature on the same frames, random pictures and
// the public vectors.
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
#include "device_pictures.h"

namespace exactvq::opencltest {

namespace fs = std::filesystem;

// The device, opened once; null (and the reason) when none can be used.
inline std::shared_ptr<opencl::OpenclDevice> device(std::string* why = nullptr) {
  static std::string reason;
  static std::shared_ptr<opencl::OpenclDevice> opened = [] {
    try {
      return std::make_shared<opencl::OpenclDevice>(0);
    } catch (const DeviceError& e) {
      reason = e.what();
      return std::shared_ptr<opencl::OpenclDevice>();
    }
  }();
  if (why) *why = reason;
  return opened;
}

class OpenclTest : public ::testing::Test {
 protected:
  void SetUp() override {
    // No device at all: skip, visibly. A device that fails to open or to build
    // the kernels is a failure, not a skip.
    if (opencl::list_devices().empty())
      GTEST_SKIP() << "no OpenCL device (the ICD loader found none): OpenCL test skipped";
    std::string why;
    if (!device(&why)) FAIL() << "OpenCL device 0 is present but unusable: " << why;
  }
};

inline bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

// The DeviceError `body` throws, or "(no DeviceError)".
inline std::string message_of(const std::function<void()>& body) {
  try {
    body();
  } catch (const DeviceError& e) {
    return e.what();
  }
  return "(no DeviceError)";
}

inline bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

// `spec` over `pairs` (one batch) on the CPU and on the device: every value and
// aggregate equal bit for bit. Gives the count compared, the device's values
// (frame-major) and whether the device uploaded planes (it computed them).
struct BatchComparison {
  int compared = 0;
  bool uploaded = false;
  std::vector<double> got;
};

inline BatchComparison compare_batch(const VideoFormat& f, const std::string& spec,
                                     const std::vector<FramePair>& pairs, const std::string& what) {
  ThreadPool pool(2);
  const FeatureSpec parsed = parse_feature_spec(spec);
  auto cpu = make_feature(parsed, FeatureContext{f, &pool, nullptr});
  auto ocl = make_feature(parsed, FeatureContext{f, &pool, device()});
  const size_t n = cpu->outputs().size();
  EXPECT_EQ(ocl->outputs(), cpu->outputs());
  BatchComparison r;
  std::vector<double> want(pairs.size() * n);
  r.got.assign(pairs.size() * n, -12345.0);
  cpu->extract_batch(pairs, want);
  const int64_t uploads = device()->counters().plane_uploads;
  ocl->extract_batch(pairs, r.got);
  r.uploaded = device()->counters().plane_uploads > uploads;
  for (size_t i = 0; i < want.size(); ++i, ++r.compared)
    EXPECT_TRUE(same_bits(r.got[i], want[i]))
        << what << " " << f.describe() << " " << spec << " frame " << i / n << " " << cpu->outputs()[i % n]
        << ": opencl " << fmt::format("{:a}", r.got[i]) << ", cpu " << fmt::format("{:a}", want[i]);
  const auto want_aggregates = cpu->aggregates(), got_aggregates = ocl->aggregates();
  EXPECT_EQ(got_aggregates.size(), want_aggregates.size()) << what << " " << spec;
  for (size_t i = 0; i < std::min(want_aggregates.size(), got_aggregates.size()); ++i, ++r.compared)
    EXPECT_TRUE(want_aggregates[i].first == got_aggregates[i].first &&
                same_bits(want_aggregates[i].second, got_aggregates[i].second))
        << what << " " << spec << " " << want_aggregates[i].first;
  return r;
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
          << fmt::format("{:a}", want[i].second) << ", opencl " << fmt::format("{:a}", got[i].second);
    return want.size();
  }

 private:
  std::string spec_;
  std::unique_ptr<Feature> cpu_, gpu_;
};

// Samples: independent noise, a noisy copy (scores near 1), or extremes 0 and M.
inline void fill(Picture& ref, Picture& dist, const VideoFormat& f, int content, std::mt19937_64& rng) {
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

using testing_devices::Content;
using testing_devices::fill_pair;

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
