// float_ssim and float_ms_ssim on OpenCL's own terms (its shared cases are in
// device_test.cpp): a run shared with ssim and vif uploads each frame's planes
// once (the device's counters), loose pairs afterwards, two devices (the split
// engine), and faults (fault_injection.h). Without an OpenCL device every case
// skips.
#include <cstdio>

#include "backends/multi/multi_device.h"
#include "backends/opencl/opencl_fixture.h"

namespace exactvq::opencltest {
namespace {

using opencl::Faults;

// float_ssim beside ssim and vif on one device (the frame's planes uploaded
// once for all), and a loose pair (its own upload) afterwards.
TEST_F(OpenclTest, FloatSsimSharesTheDeviceAndScoresLoosePairs) {
  const VideoFormat f{180, 177, ChromaFormat::k420, 10};
  std::mt19937_64 rng(0x5ea4);
  const device_testing::PictureFrames frames = device_testing::seeded_frames(f, 3, rng);
  const std::vector<FramePair>& pairs = frames.pairs;
  ThreadPool pool(2);
  const char* specs[] = {"float_ms_ssim=enable_lcs=true", "ssim", "float_ssim=enable_lcs=true",
                         "vif"};
  std::vector<std::unique_ptr<Feature>> cpu, ocl;
  for (const char* spec : specs) {
    cpu.push_back(make_feature(parse_feature_spec(spec), FeatureContext{f, &pool, nullptr}));
    ocl.push_back(make_feature(parse_feature_spec(spec), FeatureContext{f, &pool, device()}));
  }
  const int64_t uploads = device()->counters().plane_uploads;
  for (size_t i = 0; i < pairs.size(); ++i)
    for (size_t k = 0; k < cpu.size(); ++k) {
      const size_t n = cpu[k]->outputs().size();
      std::vector<double> want(n), got(n);
      cpu[k]->extract_batch({&pairs[i], 1}, want);
      ocl[k]->extract_batch({&pairs[i], 1}, got);
      for (size_t j = 0; j < n; ++j)
        EXPECT_TRUE(same_bits(got[j], want[j]))
            << specs[k] << " frame " << i << " " << cpu[k]->outputs()[j];
    }
  // Luma once a frame (reference and distorted) for all four features.
  EXPECT_EQ(device()->counters().plane_uploads - uploads, int64_t(2 * pairs.size()));
  for (size_t k = 0; k < cpu.size(); k += 2) {
    std::vector<double> want(cpu[k]->outputs().size()), got(want.size());
    cpu[k]->extract(frames.refs[1], frames.dists[1], want);
    ocl[k]->extract(frames.refs[1], frames.dists[1], got);
    for (size_t j = 0; j < want.size(); ++j)
      EXPECT_TRUE(same_bits(got[j], want[j])) << specs[k] << " loose pair " << cpu[k]->outputs()[j];
  }
}

// Several devices (the split engine): two objects of device 0, each scoring its
// share of a batch.
TEST_F(OpenclTest, FloatSsimSplitOverTwoDevicesEqualsCpu) {
  const VideoFormat f{177, 176, ChromaFormat::k420, 12};
  std::mt19937_64 rng(0x5b117);
  const device_testing::PictureFrames frames = device_testing::seeded_frames(f, 5, rng);
  const std::vector<FramePair>& pairs = frames.pairs;
  auto split = std::make_shared<MultiDevice>(std::vector<std::shared_ptr<Device>>{
      std::make_shared<opencl::OpenclDevice>(0), std::make_shared<opencl::OpenclDevice>(0)});
  ThreadPool pool(2);
  for (const char* spec : {"float_ssim=scale=1:enable_lcs=true", "float_ms_ssim=enable_lcs=true"}) {
    auto cpu = make_feature(parse_feature_spec(spec), FeatureContext{f, &pool, nullptr});
    auto two = make_feature(parse_feature_spec(spec), FeatureContext{f, &pool, split});
    const size_t n = cpu->outputs().size();
    std::vector<double> want(pairs.size() * n), got(want.size(), -1.0);
    cpu->extract_batch(pairs, want);
    two->extract_batch(pairs, got);
    for (size_t i = 0; i < want.size(); ++i)
      EXPECT_TRUE(same_bits(got[i], want[i]))
          << spec << " frame " << i / n << " " << cpu->outputs()[i % n];
  }
}

// ---- Faults (fault_injection.h): each a DeviceError naming the device, the
// frame and float_ssim, nothing leaked.

const VideoFormat kFaultFormat{180, 176, ChromaFormat::k420, 8};

void score_ms_ssim(const std::shared_ptr<opencl::OpenclDevice>& dev,
                   const std::vector<Picture>& refs, const std::vector<Picture>& dists,
                   int* scored = nullptr) {
  auto feature = make_feature(parse_feature_spec("float_ms_ssim=enable_lcs=true"),
                              FeatureContext{kFaultFormat, nullptr, dev});
  std::vector<double> values(feature->outputs().size());
  for (size_t i = 0; i < refs.size(); ++i) {
    const FramePair pair{&refs[i], &dists[i], int64_t(i)};
    feature->extract_batch({&pair, 1}, values);
    if (scored) ++*scored;
  }
}

TEST_F(OpenclTest, FloatSsimFaults) {
  const long handles = opencl::live_handle_count();
  std::mt19937_64 rng(0xfa17);
  std::vector<Picture> refs(4), dists(4);
  for (size_t i = 0; i < refs.size(); ++i)
    fill_pair(refs[i], dists[i], kFaultFormat, Content::kNoisy, rng);
  // Every allocation in turn.
  int failures = 0;
  for (int n = 1; n < 60; ++n) {
    const std::string spec = fmt::format("alloc@{}", n);
    const std::string m = message_of([&] {
      score_ms_ssim(std::make_shared<opencl::OpenclDevice>(0, nullptr, Faults::parse(spec.c_str())),
                    refs, dists);
    });
    EXPECT_EQ(opencl::live_handle_count(), handles) << spec;
    if (m == "(no DeviceError)") break;
    ++failures;
    EXPECT_TRUE(contains(m, "OpenCL: cannot allocate ") &&
                contains(m, "injected by EXACTVQ_OPENCL_FAULT=" + spec) &&
                contains(m, "opencl device 0 (") && contains(m, "float_ms_ssim"))
        << spec << ": " << m;
  }
  EXPECT_GE(failures, 15);  // taps, 5 scales x 2 planes, the passes, terms, sums, frame planes
  {
    int scored = 0;
    auto dev = std::make_shared<opencl::OpenclDevice>(0, nullptr, Faults::parse("enqueue@2"));
    const std::string m = message_of([&] { score_ms_ssim(dev, refs, dists, &scored); });
    EXPECT_EQ(scored, 2);
    EXPECT_TRUE(contains(m, "opencl device 0 (") &&
                contains(m, "frame 2, float_ms_ssim: OpenCL clEnqueueNDRangeKernel (fs_convert)") &&
                contains(m, "CL_OUT_OF_RESOURCES") &&
                contains(m, "injected by EXACTVQ_OPENCL_FAULT=enqueue@2"))
        << m;
  }
  {
    int scored = 0;
    auto dev = std::make_shared<opencl::OpenclDevice>(0, nullptr, Faults::parse("lost@3"));
    const std::string m = message_of([&] { score_ms_ssim(dev, refs, dists, &scored); });
    EXPECT_EQ(scored, 3);
    EXPECT_TRUE(contains(m, "frame 3, float_ms_ssim: OpenCL") &&
                contains(m, "the device was lost before frame 3"))
        << m;
  }
  {
    auto dev = std::make_shared<opencl::OpenclDevice>(0, nullptr, Faults::parse("build@2"));
    const std::string m = message_of([&] {
      make_feature(parse_feature_spec("float_ssim"), FeatureContext{kFaultFormat, nullptr, dev});
    });
    EXPECT_TRUE(contains(m, "opencl device 0 (") &&
                contains(m, "feature float_ssim: OpenCL build of the float_ssim kernels failed") &&
                contains(m, "injected by EXACTVQ_OPENCL_FAULT=build@2"))
        << m;
  }
  EXPECT_EQ(opencl::live_handle_count(), handles);
  std::printf(
      "[ opencl   ] float_ms_ssim: %d allocation points failed in turn, each a DeviceError\n",
      failures);
}

}  // namespace
}  // namespace exactvq::opencltest
