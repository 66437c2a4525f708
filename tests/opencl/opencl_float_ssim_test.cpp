// float_ssim and float_ms_ssim on the OpenCL device (binary64 steps on softfp)
// against the CPU and libvmaf's stored values, bit for bit: the public vector
// pairs (the first frame of each in CI, every frame with
// EXACTVQ_OPENCL_FLOAT_SSIM_ALL=1), seeded pictures of small, odd and MS-SSIM
// sizes at 8 to 16 bits under the options (1080p with the variable set), the
// sizes MS-SSIM refuses, a run shared with ssim and vif, loose pairs, two
// devices (the split engine), faults,
// and the command line. Without an OpenCL device every case skips.
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "backends/multi/multi_device.h"
#include "cli/cli_test_util.h"
#include "float_ssim/float_ssim_vectors.h"
#include "metrics/float_ssim/reference.h"
#include "opencl_fixture.h"
#include "vif/vif_clips.h"

namespace exactvq::opencltest {
namespace {

using opencl::Faults;

// The larger sweeps (every public frame, 1080p), for runs that can afford
// PoCL's time.
bool everything() {
  const char* v = std::getenv("EXACTVQ_OPENCL_FLOAT_SSIM_ALL");
  return v && std::string(v) == "1";
}

// Whether the CPU scores `spec` on pictures of `f` (InputError: libvmaf gives no
// value, e.g. MS-SSIM under 176); the device must refuse the same.
bool scoreable(const VideoFormat& f, const std::string& spec) {
  try {
    make_feature(parse_feature_spec(spec), FeatureContext{f, nullptr, nullptr});
  } catch (const InputError&) {
    EXPECT_THROW(make_feature(parse_feature_spec(spec), FeatureContext{f, nullptr, device()}), InputError) << spec;
    return false;
  }
  return true;
}

// `spec` over `pairs` on the CPU and the device; every value equal. Returns the
// device's values (frame-major) through `got` when given, and the count compared.
int compare_float_ssim(const VideoFormat& f, const std::string& spec, const std::vector<FramePair>& pairs,
                       const std::string& what, std::vector<double>* got_out = nullptr) {
  BatchComparison r = compare_batch(f, spec, pairs, what);
  if (got_out) *got_out = std::move(r.got);
  return r.compared;
}

// NaN where libvmaf wrote null, else the same bits.
bool same_value(double mine, const nlohmann::json& stored) {
  return stored.is_null() ? std::isnan(mine) : same_bits(mine, testing_vectors::stored_value(stored));
}

TEST_F(OpenclTest, FloatSsimPublicVectorsEqualCpuAndLibvmaf) {
  if (!fs::exists(testing_vectors::kVmafVectors))
    GTEST_SKIP() << "no shared vectors at " << testing_vectors::kVmafVectors;
  const bool all = everything();
  int compared = 0, stored = 0, pairs_scored = 0;
  for (const auto& pair : testing_vectors::load_vmaf_pairs()) {
    std::vector<Picture> refs = vif_testing::read_pictures(pair.ref, pair.raw);
    std::vector<Picture> dists = vif_testing::read_pictures(pair.dist, pair.raw);
    if (!all) {
      refs.resize(1);
      dists.resize(1);
    }
    const VideoFormat f = refs.at(0).format;
    std::vector<FramePair> frames;
    for (size_t i = 0; i < refs.size(); ++i) frames.push_back({&refs[i], &dists[i], int64_t(i)});
    for (const char* run : float_ssim::testing::kRuns)
      for (const std::string key : {"float_ssim", "float_ms_ssim"}) {
        const bool ctc = std::string(run) == "float_ssim_ctc";
        if (key == "float_ms_ssim" && ctc) continue;
        const std::string spec = key == "float_ssim" && ctc ? "float_ssim=scale=1:enable_db=true:clip_db=true" : key;
        if (!scoreable(f, spec)) continue;
        std::vector<double> got;
        compared += compare_float_ssim(f, spec, frames, pair.name, &got);
        const nlohmann::json* want = float_ssim::testing::stored_frames(pair, run, key);
        if (!want) continue;
        const size_t n = got.size() / frames.size();
        for (const nlohmann::json& frame : *want) {
          const size_t i = frame.at("frameNum").get<size_t>();
          if (i >= frames.size()) continue;  // frames past the first, in CI
          const double mine = got[i * n];
          EXPECT_TRUE(same_value(mine, frame.at(key)))
              << pair.name << " " << run << " frame " << i << " " << key << ": opencl " << mine << " libvmaf "
              << frame.at(key);
          ++stored;
        }
      }
    ++pairs_scored;
  }
  std::printf("[ opencl   ] float_ssim public vectors (%s): %d pairs, %d values equal to the CPU's, %d to "
              "libvmaf's\n",
              all ? "every frame" : "first frames; EXACTVQ_OPENCL_FLOAT_SSIM_ALL=1 for all", pairs_scored, compared,
              stored);
  EXPECT_GT(pairs_scored, 0);
  EXPECT_GE(stored, all ? 141 : 30);
}

const char* const kSpecs[] = {
    "float_ssim=enable_lcs=true",
    "float_ssim=scale=1:enable_db=true:clip_db=true",  // the AOM CTC setting
    "float_ssim=scale=3:enable_lcs=true:enable_db=true",
    "float_ms_ssim=enable_lcs=true:enable_db=true:clip_db=true",
};

// Small and odd sizes (no window, a side of 10, one position), MS-SSIM's least
// size and its neighbours, an automatic scale of 2, at 8, 10, 12 and 16 bits;
// 175 x 200 is refused by MS-SSIM on both.
TEST_F(OpenclTest, FloatSsimSeededPicturesEqualCpu) {
  struct Size {
    int w, h;
    std::vector<int> depths;
  };
  const std::vector<int> every = {8, 10, 12, 16};
  std::vector<Size> sizes = {{1, 1, every},        {17, 9, every},     {18, 10, every},   {11, 11, every},
                             {12, 13, every},      {37, 29, every},    {175, 200, {8}},   {176, 176, every},
                             {177, 181, {10, 16}}, {193, 179, {8, 12}}, {384, 385, {8, 16}}};
  if (everything()) sizes.push_back({1920, 1080, every});
  std::mt19937_64 rng(0xf55'0c1);
  int compared = 0;
  for (const Size& s : sizes)
    for (const int bitdepth : s.depths) {
      const VideoFormat f{s.w, s.h, ChromaFormat::kMono, bitdepth};
      std::vector<Picture> refs(3), dists(3);
      std::vector<FramePair> pairs;
      for (size_t i = 0; i < refs.size(); ++i) {
        fill_pair(refs[i], dists[i], f, Content(i % 3), rng);
        pairs.push_back({&refs[i], &dists[i], int64_t(i)});
      }
      for (const char* spec : kSpecs)
        if (scoreable(f, spec))
          compared += compare_float_ssim(f, spec, pairs, fmt::format("seeded {}x{}", s.w, s.h));
    }
  std::printf("[ opencl   ] float_ssim seeded pictures: %d values equal to the CPU's\n", compared);
}

// float_ssim beside ssim and vif on one device (the frame's planes uploaded
// once for all), and a loose pair (its own upload) afterwards.
TEST_F(OpenclTest, FloatSsimSharesTheDeviceAndScoresLoosePairs) {
  const VideoFormat f{180, 177, ChromaFormat::k420, 10};
  std::mt19937_64 rng(0x5ea4);
  std::vector<Picture> refs(3), dists(3);
  std::vector<FramePair> pairs;
  for (size_t i = 0; i < refs.size(); ++i) {
    fill_pair(refs[i], dists[i], f, Content(i % 3), rng);
    pairs.push_back({&refs[i], &dists[i], int64_t(i)});
  }
  ThreadPool pool(2);
  const char* specs[] = {"float_ms_ssim=enable_lcs=true", "ssim", "float_ssim=enable_lcs=true", "vif"};
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
        EXPECT_TRUE(same_bits(got[j], want[j])) << specs[k] << " frame " << i << " " << cpu[k]->outputs()[j];
    }
  // Luma once a frame (reference and distorted) for all four features.
  EXPECT_EQ(device()->counters().plane_uploads - uploads, int64_t(2 * pairs.size()));
  for (size_t k = 0; k < cpu.size(); k += 2) {
    std::vector<double> want(cpu[k]->outputs().size()), got(want.size());
    cpu[k]->extract(refs[1], dists[1], want);
    ocl[k]->extract(refs[1], dists[1], got);
    for (size_t j = 0; j < want.size(); ++j)
      EXPECT_TRUE(same_bits(got[j], want[j])) << specs[k] << " loose pair " << cpu[k]->outputs()[j];
  }
}

// Several devices (the split engine): two objects of device 0, each scoring its
// share of a batch.
TEST_F(OpenclTest, FloatSsimSplitOverTwoDevicesEqualsCpu) {
  const VideoFormat f{177, 176, ChromaFormat::k420, 12};
  std::mt19937_64 rng(0x5b117);
  std::vector<Picture> refs(5), dists(5);
  std::vector<FramePair> pairs;
  for (size_t i = 0; i < refs.size(); ++i) {
    fill_pair(refs[i], dists[i], f, Content(i % 3), rng);
    pairs.push_back({&refs[i], &dists[i], int64_t(i)});
  }
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
      EXPECT_TRUE(same_bits(got[i], want[i])) << spec << " frame " << i / n << " " << cpu->outputs()[i % n];
  }
}

// The fp64 option changes nothing on OpenCL (every binary64 step is softfp's).
TEST_F(OpenclTest, FloatSsimFp64OptionGivesTheSameBits) {
  const VideoFormat f{64, 48, ChromaFormat::k420, 8};
  std::mt19937_64 rng(0xf964);
  Picture a, b;
  fill_pair(a, b, f, Content::kNoisy, rng);
  const FramePair pair{&a, &b, 0};
  for (const char* mode : {"auto", "native", "emulate"})
    compare_float_ssim(f, fmt::format("float_ssim=fp64={}:enable_lcs=true", mode), {pair}, "fp64 option");
}

// ---- Faults (fault_injection.h): each a DeviceError naming the device, the
// frame and float_ssim, nothing leaked.

const VideoFormat kFaultFormat{180, 176, ChromaFormat::k420, 8};

void score_ms_ssim(const std::shared_ptr<opencl::OpenclDevice>& dev, const std::vector<Picture>& refs,
                   const std::vector<Picture>& dists, int* scored = nullptr) {
  auto feature =
      make_feature(parse_feature_spec("float_ms_ssim=enable_lcs=true"), FeatureContext{kFaultFormat, nullptr, dev});
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
  for (size_t i = 0; i < refs.size(); ++i) fill_pair(refs[i], dists[i], kFaultFormat, Content::kNoisy, rng);
  // Every allocation in turn.
  int failures = 0;
  for (int n = 1; n < 60; ++n) {
    const std::string spec = fmt::format("alloc@{}", n);
    const std::string m = message_of([&] {
      score_ms_ssim(std::make_shared<opencl::OpenclDevice>(0, nullptr, Faults::parse(spec.c_str())), refs, dists);
    });
    EXPECT_EQ(opencl::live_handle_count(), handles) << spec;
    if (m == "(no DeviceError)") break;
    ++failures;
    EXPECT_TRUE(contains(m, "OpenCL: cannot allocate ") && contains(m, "injected by EXACTVQ_OPENCL_FAULT=" + spec) &&
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
                contains(m, "CL_OUT_OF_RESOURCES") && contains(m, "injected by EXACTVQ_OPENCL_FAULT=enqueue@2"))
        << m;
  }
  {
    int scored = 0;
    auto dev = std::make_shared<opencl::OpenclDevice>(0, nullptr, Faults::parse("lost@3"));
    const std::string m = message_of([&] { score_ms_ssim(dev, refs, dists, &scored); });
    EXPECT_EQ(scored, 3);
    EXPECT_TRUE(contains(m, "frame 3, float_ms_ssim: OpenCL") && contains(m, "the device was lost before frame 3"))
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
  std::printf("[ opencl   ] float_ms_ssim: %d allocation points failed in turn, each a DeviceError\n", failures);
}

// ---- The command line: --backend opencl writes the CPU's report (but fps).

std::string without_fps(const fs::path& json) {
  std::ifstream in(json);
  std::stringstream kept;
  for (std::string line; std::getline(in, line);)
    if (line.find("\"fps\"") == std::string::npos) kept << line << '\n';
  return kept.str();
}

TEST_F(OpenclTest, FloatSsimCliOnOpenclEqualsCpu) {
  const fs::path dir = fs::path(EXACTVQ_TEST_TMP) / "opencl_float_ssim_cli";
  const vif_testing::Clip c = vif_testing::write_clip(dir, 190, 178, 10, 3, 0xc12);
  const std::string feature =
      "--feature float_ssim=scale=1:enable_db=true:clip_db=true:enable_lcs=true --feature "
      "float_ms_ssim=enable_lcs=true:enable_db=true";
  std::string reports[2];
  for (const char* backend : {"cpu", "opencl"}) {
    const fs::path out = dir / fmt::format("{}.json", backend);
    fs::remove(out);
    const std::string cmd = fmt::format("'{}' -r '{}' -d '{}' {} --backend {} --precision max --json -o '{}'",
                                        EXACTVQ_CLI_PATH, c.ref.string(), c.dist.string(), feature, backend,
                                        out.string());
    ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd;
    reports[std::string(backend) == "opencl"] = without_fps(out);
  }
  EXPECT_FALSE(reports[0].empty());
  EXPECT_EQ(reports[1], reports[0]);
}

}  // namespace
}  // namespace exactvq::opencltest
