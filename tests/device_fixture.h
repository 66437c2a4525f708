// Shared by the device tests (tests/metrics/<m>/device_test.cpp): each test is
// written once and instantiated over the device backends compiled in, each
// backend's first device opened once per process (or a visible skip), and the
// CPU feature beside the device feature on the same frames, bit for bit.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <ostream>
#include <span>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "backends/device.h"
#include "core/error.h"
#include "core/thread_pool.h"
#include "device_pictures.h"
#include "io/video_source.h"
#include "libvmaf_vmaf_vectors.h"
#include "metrics/feature.h"
#include "metrics/registry.h"
#ifdef EXACTVQ_HAVE_OPENCL
#include "backends/opencl/opencl_device.h"
#endif

namespace exactvq {

// GoogleTest prints a backend parameter by its name ("cuda"), not its bytes.
inline void PrintTo(Backend backend, std::ostream* os) { *os << backend_name(backend); }

}  // namespace exactvq

namespace exactvq::device_testing {

using testing_devices::Content;
using testing_devices::fill_pair;
using testing_devices::PictureFrames;
using testing_devices::PictureSize;
using testing_devices::seeded_frames;

// A file's pictures, every frame.
inline std::vector<Picture> read_pictures(const std::filesystem::path& path,
                                          const RawOptions& raw) {
  std::vector<Picture> pictures;
  auto source = open_video(path.string(), raw);
  for (Picture p; source->read_frame(p);) pictures.push_back(p);
  return pictures;
}

// Calls body(pair, frames) for every public VMAF vector pair
// (testing_vectors::kVmafVectors, which the caller checks is there), its
// pictures read whole.
inline void for_each_vmaf_pair(
    const std::function<void(const testing_vectors::VmafPair&, const PictureFrames&)>& body) {
  for (const testing_vectors::VmafPair& pair : testing_vectors::load_vmaf_pairs())
    body(pair,
         PictureFrames(read_pictures(pair.ref, pair.raw), read_pictures(pair.dist, pair.raw)));
}

// The device backends this build has: the values every device test runs over.
inline std::vector<Backend> compiled_backends() {
  std::vector<Backend> backends;
#ifdef EXACTVQ_HAVE_CUDA
  backends.push_back(Backend::kCuda);
#endif
#ifdef EXACTVQ_HAVE_OPENCL
  backends.push_back(Backend::kOpenCL);
#endif
  return backends;
}

// The instance's name in the test's name: ".../cuda", ".../opencl".
inline std::string backend_label(const ::testing::TestParamInfo<Backend>& info) {
  return backend_name(info.param);
}

// A device test's instantiation over every backend compiled in.
#define EXACTVQ_ON_EVERY_DEVICE_BACKEND(suite)                                                  \
  INSTANTIATE_TEST_SUITE_P(Backends, suite,                                                     \
                           ::testing::ValuesIn(::exactvq::device_testing::compiled_backends()), \
                           ::exactvq::device_testing::backend_label)

struct OpenedDevice {
  std::shared_ptr<Device> device;  // null when it cannot be used
  std::string reason;              // why not
};

inline OpenedDevice open_first_device(Backend backend) {
  DeviceOptions o;
  o.backend = backend;
  try {
    const VideoFormat any{16, 16, ChromaFormat::k420, 8};
    return {backend == Backend::kCuda ? open_cuda_device(o, any) : open_opencl_device(o, any), ""};
  } catch (const DeviceError& e) {
    return {nullptr, e.what()};
  }
}

// `backend`'s first device, opened once and shared by the process's tests.
inline const OpenedDevice& shared_device(Backend backend) {
  if (backend == Backend::kCuda) {
    static const OpenedDevice cuda = open_first_device(Backend::kCuda);
    return cuda;
  }
  static const OpenedDevice opencl = open_first_device(Backend::kOpenCL);
  return opencl;
}

// Skips the running test, saying why, where `backend` has no device. CUDA
// skips whatever stops it; OpenCL skips only where the ICD loader finds no
// device at all: a device that fails to open or to build the kernels fails.
inline void skip_without_device(Backend backend) {
  const OpenedDevice& d = shared_device(backend);
  if (backend == Backend::kCuda) {
    if (!d.device) GTEST_SKIP() << "no usable CUDA device (" << d.reason << "): GPU test skipped";
    return;
  }
  if (count_opencl_devices() == 0)
    GTEST_SKIP() << "no OpenCL device (the ICD loader found none): OpenCL test skipped";
  if (!d.device) FAIL() << "OpenCL device 0 is present but unusable: " << d.reason;
}

// The planes the device has uploaded so far, where the backend counts them
// (OpenCL); nothing elsewhere.
inline std::optional<int64_t> plane_uploads(const Device& device) {
#ifdef EXACTVQ_HAVE_OPENCL
  if (const auto* opencl = dynamic_cast<const opencl::OpenclDevice*>(&device))
    return opencl->counters().plane_uploads;
#endif
  (void)device;
  return std::nullopt;
}

inline bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

// `spec` with option fp64=<mode> added.
inline std::string with_fp64(const std::string& spec, const char* mode) {
  return spec + (spec.find('=') == std::string::npos ? "=" : ":") + "fp64=" + mode;
}

// How the frames reach the features: all in one batch (numbered, as a run
// hands them over), or one loose pair at a time (FramePair::kLoose).
enum class Pace { kOneBatch, kLoosePairs };

struct DeviceComparison {
  int compared = 0;
  std::vector<double> got;       // the first device spec's values, frame-major
  std::optional<bool> uploaded;  // whether the device uploaded planes, where it counts them
};

// Scores `pairs` with `spec` on the CPU once and with each of `device_specs` on
// `device`, expecting every value and aggregate equal bit for bit.
inline DeviceComparison compare_on_device(const std::shared_ptr<Device>& device,
                                          const VideoFormat& f, const std::string& spec,
                                          const std::vector<std::string>& device_specs,
                                          const std::vector<FramePair>& pairs,
                                          const std::string& what, Pace pace = Pace::kOneBatch) {
  ThreadPool pool(2);
  auto score = [&](Feature& feature, std::vector<double>& out) {
    const size_t n = feature.outputs().size();
    if (pace == Pace::kOneBatch) {
      feature.extract_batch(pairs, out);
      return;
    }
    for (size_t i = 0; i < pairs.size(); ++i)
      feature.extract(*pairs[i].ref, *pairs[i].dist, std::span<double>(out).subspan(i * n, n));
  };
  auto cpu = make_feature(parse_feature_spec(spec), FeatureContext{f, &pool, nullptr});
  const size_t n = cpu->outputs().size();
  std::vector<double> want(pairs.size() * n);
  score(*cpu, want);
  const auto want_aggregates = cpu->aggregates();
  DeviceComparison r;
  const std::optional<int64_t> uploads_before = plane_uploads(*device);
  for (const std::string& device_spec : device_specs) {
    auto on_device =
        make_feature(parse_feature_spec(device_spec), FeatureContext{f, &pool, device});
    EXPECT_EQ(on_device->outputs(), cpu->outputs()) << what << " " << device_spec;
    std::vector<double> got(pairs.size() * n, -12345.0);
    score(*on_device, got);
    for (size_t i = 0; i < want.size(); ++i, ++r.compared)
      EXPECT_TRUE(same_bits(got[i], want[i]))
          << what << " " << f.describe() << " " << device_spec << " frame " << i / n << " "
          << cpu->outputs()[i % n] << ": device " << fmt::format("{:a}", got[i]) << ", cpu "
          << fmt::format("{:a}", want[i]);
    const auto got_aggregates = on_device->aggregates();
    EXPECT_EQ(got_aggregates.size(), want_aggregates.size()) << what << " " << device_spec;
    for (size_t i = 0; i < std::min(want_aggregates.size(), got_aggregates.size());
         ++i, ++r.compared)
      EXPECT_TRUE(want_aggregates[i].first == got_aggregates[i].first &&
                  same_bits(want_aggregates[i].second, got_aggregates[i].second))
          << what << " " << device_spec << " " << want_aggregates[i].first;
    if (r.got.empty()) r.got = std::move(got);
  }
  if (uploads_before) r.uploaded = *plane_uploads(*device) > *uploads_before;
  return r;
}

// A device test: one instance per backend (EXACTVQ_ON_EVERY_DEVICE_BACKEND).
class DeviceTest : public ::testing::TestWithParam<Backend> {
 protected:
  void SetUp() override { skip_without_device(GetParam()); }

  Backend backend() const { return GetParam(); }
  const std::shared_ptr<Device>& device() const { return shared_device(GetParam()).device; }

  // The spellings of `spec` the device scores: CUDA both its binary64 modes
  // (fp64=native, fp64=emulate), OpenCL the spec alone (its binary64 steps are
  // softfp's whatever the option).
  std::vector<std::string> device_specs(const std::string& spec) const {
    if (backend() == Backend::kCuda) return {with_fp64(spec, "native"), with_fp64(spec, "emulate")};
    return {spec};
  }

  // `spec` on the CPU and in device_specs(spec) on the device.
  DeviceComparison compare(const VideoFormat& f, const std::string& spec,
                           const std::vector<FramePair>& pairs, const std::string& what) const {
    return compare_on_device(device(), f, spec, device_specs(spec), pairs, what);
  }

  // The tag of this backend's summary lines: "[ cuda     ]", "[ opencl   ]".
  std::string tag() const { return fmt::format("[ {:<9}]", backend_name(backend())); }
};

// A test of one backend's own behaviour (CUDA's lanes and chunks, OpenCL's
// counters): skips as DeviceTest does where that backend has no device.
template <Backend kBackend>
class OneBackendTest : public ::testing::Test {
 protected:
  void SetUp() override { skip_without_device(kBackend); }
  static const std::shared_ptr<Device>& device() { return shared_device(kBackend).device; }
};

}  // namespace exactvq::device_testing
