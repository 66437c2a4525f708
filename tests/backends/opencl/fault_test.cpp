// Fault injection on the OpenCL backend, on PoCL in CI: a
// kernel build failure, an allocation failure, a failed enqueue and the device
// lost between frames (src/backends/opencl/fault_injection.h). Through the library each
// is a DeviceError naming what failed and where, and every OpenCL object made is
// released again; through the real exactvq (EXACTVQ_OPENCL_FAULT set) each exits
// non-zero within its timeout, writes no output file and leaves an existing one
// byte for byte as it was, while --backend auto still scores on the CPU.
#include "cli/cli_test_util.h"
#include "metrics/registry.h"
#include "opencl_fixture.h"

namespace exactvq::opencltest {
namespace {

using opencl::Faults;
using opencl::OpenclDevice;

std::vector<std::pair<Picture, Picture>> frames_for(const VideoFormat& f, int count) {
  std::mt19937_64 rng(99);
  std::vector<std::pair<Picture, Picture>> frames(static_cast<size_t>(count));
  for (auto& [r, d] : frames) fill(r, d, f, 1, rng);
  return frames;
}

// Makes `specs`' features on `dev` and scores `frames` with them, frame by frame
// as score_run does; `scored` counts the frames that completed.
void score_with(const std::shared_ptr<OpenclDevice>& dev, const VideoFormat& f,
                const std::vector<const char*>& specs,
                const std::vector<std::pair<Picture, Picture>>& frames, int* scored = nullptr) {
  std::vector<std::unique_ptr<Feature>> features;
  for (const char* spec : specs)
    features.push_back(make_feature(parse_feature_spec(spec), FeatureContext{f, nullptr, dev}));
  std::vector<double> values;
  for (size_t i = 0; i < frames.size(); ++i) {
    const FramePair pair{&frames[i].first, &frames[i].second, int64_t(i)};
    for (auto& feature : features) {
      values.resize(feature->outputs().size());
      feature->extract_batch({&pair, 1}, values);
    }
    if (scored) ++*scored;
  }
}

void score_all(const std::shared_ptr<OpenclDevice>& dev, const VideoFormat& f,
               const std::vector<std::pair<Picture, Picture>>& frames, int* scored = nullptr) {
  score_with(dev, f, {"ssim=chroma=true", "psnr"}, frames, scored);
}

// Whether `m` holds every one of `parts`.
bool says_all(const std::string& m, const std::vector<std::string>& parts) {
  for (const std::string& p : parts)
    if (!contains(m, p)) return false;
  return true;
}

// Fails every allocation a run of `specs` on `frames` makes, in turn: each must be
// a DeviceError naming the allocation, the fault and one of `features` (when
// given), with nothing leaked;
// past the last one the run succeeds. Returns how many failed.
int fail_each_allocation(const VideoFormat& f, const std::vector<const char*>& specs,
                         const std::vector<std::pair<Picture, Picture>>& frames,
                         const std::vector<std::string>& features) {
  const long handles = opencl::live_handle_count();
  int failures = 0;
  for (int n = 1; n < 100; ++n) {
    const std::string spec = fmt::format("alloc@{}", n);
    const std::string m = message_of([&] {
      auto dev = std::make_shared<OpenclDevice>(0, nullptr, Faults::parse(spec.c_str()));
      score_with(dev, f, specs, frames);
    });
    EXPECT_EQ(opencl::live_handle_count(), handles) << spec;
    if (m == "(no DeviceError)") break;
    ++failures;
    const std::vector<std::string> parts{
        "OpenCL: cannot allocate ", "CL_MEM_OBJECT_ALLOCATION_FAILURE",
        "injected by EXACTVQ_OPENCL_FAULT=" + spec, "opencl device 0 ("};
    const bool names_feature =
        features.empty() || std::any_of(features.begin(), features.end(),
                                        [&](const std::string& name) { return contains(m, name); });
    EXPECT_TRUE(says_all(m, parts) && names_feature) << spec << ": " << m;
  }
  return failures;
}

const VideoFormat kFormat{24, 18, ChromaFormat::k420, 8};

TEST_F(OpenclTest, FaultSpecificationsAreChecked) {
  EXPECT_FALSE(Faults::parse(nullptr).any());
  EXPECT_FALSE(Faults::parse("").any());
  EXPECT_EQ(Faults::parse("build").kind(), Faults::Kind::kBuild);
  EXPECT_EQ(Faults::parse("build@2").kind(), Faults::Kind::kBuild);
  EXPECT_EQ(Faults::parse("alloc").kind(), Faults::Kind::kAlloc);
  EXPECT_EQ(Faults::parse("alloc@7").kind(), Faults::Kind::kAlloc);
  EXPECT_EQ(Faults::parse("enqueue@0").kind(), Faults::Kind::kEnqueue);
  EXPECT_EQ(Faults::parse("lost@12").kind(), Faults::Kind::kLost);
  for (const char* bad : {"bogus", "alloc@0", "build@0", "enqueue", "lost", "lost@", "lost@x",
                          "lost@-1", "lost@1234567890123", "open"}) {
    const std::string m = message_of([&] { Faults::parse(bad); });
    EXPECT_TRUE(contains(m, "EXACTVQ_OPENCL_FAULT=") && contains(m, bad)) << bad << ": " << m;
  }
}

TEST_F(OpenclTest, FaultBuildAtOpen) {
  const long handles = opencl::live_handle_count();
  const std::string m = message_of([] { OpenclDevice d(0, nullptr, Faults::parse("build")); });
  EXPECT_TRUE(contains(m, "OpenCL build of a probe kernel failed: CL_BUILD_PROGRAM_FAILURE") &&
              contains(m, "injected by EXACTVQ_OPENCL_FAULT=build"))
      << m;
  EXPECT_EQ(opencl::live_handle_count(), handles);
}

TEST_F(OpenclTest, FaultBuildOfThePsnrKernel) {
  const long handles = opencl::live_handle_count();
  {
    // Builds: the probe at open, the SSIM kernels, then the PSNR kernel.
    auto dev = std::make_shared<OpenclDevice>(0, nullptr, Faults::parse("build@3"));
    auto ssim = make_feature(parse_feature_spec("ssim"), FeatureContext{kFormat, nullptr, dev});
    const std::string m = message_of([&] {
      make_feature(parse_feature_spec("psnr"), FeatureContext{kFormat, nullptr, dev});
    });
    EXPECT_TRUE(contains(m, "opencl device 0 (") &&
                contains(m, "feature psnr: OpenCL build of the PSNR kernel failed") &&
                contains(m, "injected by EXACTVQ_OPENCL_FAULT=build@3"))
        << m;
  }
  EXPECT_EQ(opencl::live_handle_count(), handles);
}

// Every allocation the backend makes in a run, failed in turn: each a clear
// error, none leaking; past the last one the run succeeds.
TEST_F(OpenclTest, FaultEachAllocation) {
  const int failures =
      fail_each_allocation(kFormat, {"ssim=chroma=true", "psnr"}, frames_for(kFormat, 2), {});
  // ssim's buffers, psnr's, and the shared frame planes: well over ten.
  EXPECT_GE(failures, 10);
  std::printf("[ opencl   ] %d allocation points failed in turn, each a DeviceError\n", failures);
}

TEST_F(OpenclTest, FaultEnqueueOnAFrame) {
  const long handles = opencl::live_handle_count();
  const auto frames = frames_for(kFormat, 5);
  int scored = 0;
  const std::string m = message_of([&] {
    auto dev = std::make_shared<OpenclDevice>(0, nullptr, Faults::parse("enqueue@3"));
    score_all(dev, kFormat, frames, &scored);
  });
  EXPECT_EQ(scored, 3);
  EXPECT_TRUE(contains(m, "opencl device 0 (") &&
              contains(m, "frame 3, ssim: OpenCL clEnqueueNDRangeKernel (ssim_") &&
              contains(m, "CL_OUT_OF_RESOURCES") &&
              contains(m, "injected by EXACTVQ_OPENCL_FAULT=enqueue@3"))
      << m;
  EXPECT_EQ(opencl::live_handle_count(), handles);
}

TEST_F(OpenclTest, FaultDeviceLostBetweenFrames) {
  const long handles = opencl::live_handle_count();
  const auto frames = frames_for(kFormat, 5);
  {
    auto dev = std::make_shared<OpenclDevice>(0, nullptr, Faults::parse("lost@2"));
    int scored = 0;
    const std::string m = message_of([&] { score_all(dev, kFormat, frames, &scored); });
    EXPECT_EQ(scored, 2);
    EXPECT_TRUE(
        contains(m,
                 "frame 2, ssim: OpenCL clEnqueueWriteBuffer (upload of the reference plane Y)") &&
        contains(m, "CL_DEVICE_NOT_AVAILABLE") &&
        contains(m, "the device was lost before frame 2") &&
        contains(m, "injected by EXACTVQ_OPENCL_FAULT=lost@2"))
        << m;
    // Still lost afterwards: a later frame, or a new feature, fails the same way.
    const std::string later = message_of([&] {
      auto psnr = make_feature(parse_feature_spec("psnr"), FeatureContext{kFormat, nullptr, dev});
      std::vector<double> values(3);
      const FramePair pair{&frames[4].first, &frames[4].second, 4};
      psnr->extract_batch({&pair, 1}, values);
    });
    EXPECT_TRUE(contains(later, "CL_DEVICE_NOT_AVAILABLE") &&
                contains(later, "lost before frame 2"))
        << later;
    // Another device object, opened beside it, is not affected.
    auto healthy = std::make_shared<OpenclDevice>(0, nullptr, Faults{});
    int fine = 0;
    score_all(healthy, kFormat, frames, &fine);
    EXPECT_EQ(fine, 5);
  }
  EXPECT_EQ(opencl::live_handle_count(), handles);
}

// vif then motion on `dev`, frame by frame; `scored` counts the frames done.
void score_vif_motion(const std::shared_ptr<OpenclDevice>& dev, const VideoFormat& f,
                      const std::vector<std::pair<Picture, Picture>>& frames,
                      int* scored = nullptr) {
  score_with(dev, f, {"vif", "motion=motion_five_frame_window=true"}, frames, scored);
}

TEST_F(OpenclTest, FaultEachAllocationOfVifAndMotion) {
  const int failures =
      fail_each_allocation(kFormat, {"vif", "motion=motion_five_frame_window=true"},
                           frames_for(kFormat, 4), {"vif", "motion"});
  EXPECT_GE(failures,
            10);  // vif's taps, table, levels and sums; motion's ring and sums; the planes
}

TEST_F(OpenclTest, FaultEnqueueAndLossInVifAndMotion) {
  const long handles = opencl::live_handle_count();
  const auto frames = frames_for(kFormat, 5);
  {
    int scored = 0;
    auto dev = std::make_shared<OpenclDevice>(0, nullptr, Faults::parse("enqueue@3"));
    const std::string m = message_of([&] { score_vif_motion(dev, kFormat, frames, &scored); });
    EXPECT_EQ(scored, 3);
    EXPECT_TRUE(
        contains(m, "frame 3, vif: OpenCL clEnqueueNDRangeKernel (vif_statistic, level 0)") &&
        contains(m, "CL_OUT_OF_RESOURCES") &&
        contains(m, "injected by EXACTVQ_OPENCL_FAULT=enqueue@3"))
        << m;
  }
  {
    int scored = 0;
    auto dev = std::make_shared<OpenclDevice>(0, nullptr, Faults::parse("lost@2"));
    const std::string m = message_of([&] { score_vif_motion(dev, kFormat, frames, &scored); });
    EXPECT_EQ(scored, 2);
    EXPECT_TRUE(
        contains(m,
                 "frame 2, vif: OpenCL clEnqueueWriteBuffer (upload of the reference plane Y)") &&
        contains(m, "the device was lost before frame 2"))
        << m;
  }
  {
    // motion alone: its kernel is the frame's first enqueue.
    int scored = 0;
    auto dev = std::make_shared<OpenclDevice>(0, nullptr, Faults::parse("enqueue@3"));
    const std::string m = message_of([&] {
      auto motion =
          make_feature(parse_feature_spec("motion"), FeatureContext{kFormat, nullptr, dev});
      std::vector<double> values(4);
      for (size_t i = 0; i < frames.size(); ++i, ++scored) {
        const FramePair pair{&frames[i].first, &frames[i].second, int64_t(i)};
        motion->extract_batch({&pair, 1}, values);
      }
    });
    EXPECT_EQ(scored, 3);
    EXPECT_TRUE(contains(m, "frame 3, motion: OpenCL clEnqueueNDRangeKernel (motion_sad)")) << m;
  }
  EXPECT_EQ(opencl::live_handle_count(), handles);
}

// adm alone on `dev`, frame by frame; `scored` counts the frames done.
void score_adm(const std::shared_ptr<OpenclDevice>& dev, const VideoFormat& f,
               const std::vector<std::pair<Picture, Picture>>& frames, int* scored = nullptr) {
  score_with(dev, f, {"adm"}, frames, scored);
}

const VideoFormat kAdmFormat{40, 36, ChromaFormat::k420, 8};  // adm takes 33x33 and up

TEST_F(OpenclTest, FaultEachAllocationOfAdm) {
  const int failures =
      fail_each_allocation(kAdmFormat, {"adm"}, frames_for(kAdmFormat, 2), {"adm"});
  EXPECT_GE(failures, 25);  // 4 scales x 6 band buffers, the row sums, the planes
  std::printf("[ opencl   ] adm: %d allocation points failed in turn, each a DeviceError\n",
              failures);
}

TEST_F(OpenclTest, FaultEnqueueAndLossInAdm) {
  const long handles = opencl::live_handle_count();
  const auto frames = frames_for(kAdmFormat, 5);
  {
    int scored = 0;
    auto dev = std::make_shared<OpenclDevice>(0, nullptr, Faults::parse("enqueue@3"));
    const std::string m = message_of([&] { score_adm(dev, kAdmFormat, frames, &scored); });
    EXPECT_EQ(scored, 3);
    EXPECT_TRUE(contains(m, "opencl device 0 (") &&
                contains(m, "frame 3, adm: OpenCL clEnqueueNDRangeKernel (adm_dwt0 (reference))") &&
                contains(m, "CL_OUT_OF_RESOURCES") &&
                contains(m, "injected by EXACTVQ_OPENCL_FAULT=enqueue@3"))
        << m;
  }
  {
    int scored = 0;
    auto dev = std::make_shared<OpenclDevice>(0, nullptr, Faults::parse("lost@2"));
    const std::string m = message_of([&] { score_adm(dev, kAdmFormat, frames, &scored); });
    EXPECT_EQ(scored, 2);
    EXPECT_TRUE(
        contains(m,
                 "frame 2, adm: OpenCL clEnqueueWriteBuffer (upload of the reference plane Y)") &&
        contains(m, "the device was lost before frame 2"))
        << m;
  }
  {
    // The program's build fails: the feature cannot be made, naming it.
    auto dev = std::make_shared<OpenclDevice>(0, nullptr, Faults::parse("build@2"));
    const std::string m = message_of([&] {
      make_feature(parse_feature_spec("adm"), FeatureContext{kAdmFormat, nullptr, dev});
    });
    EXPECT_TRUE(contains(m, "opencl device 0 (") &&
                contains(m, "feature adm: OpenCL build of the adm kernels failed") &&
                contains(m, "injected by EXACTVQ_OPENCL_FAULT=build@2"))
        << m;
  }
  EXPECT_EQ(opencl::live_handle_count(), handles);
}

// ---------------------------------------------------------------------------
// Through the command line

namespace cli = clitest;

struct CliFault {
  const char* fault;
  std::vector<std::string> said;  // parts of the message on standard error
};

// The built exactvq with `args` and EXACTVQ_OPENCL_FAULT=`fault`, for two minutes at most.
cli::RunResult run_with_fault(const std::string& fault, const std::vector<std::string>& args) {
  std::vector<std::string> a{fault, EXACTVQ_CLI_PATH};
  a.insert(a.end(), args.begin(), args.end());
  return cli::run_shell(
      "EXACTVQ_OPENCL_FAULT=\"$1\"; export EXACTVQ_OPENCL_FAULT; shift; exec \"$@\"", a,
      cli::with_timeout(120));
}

std::vector<std::string> score_args(const std::string& backend, const std::string& out) {
  const std::string samples = EXACTVQ_SAMPLES_DIR;
  return {"-r",        samples + "/ref.y4m",
          "-d",        samples + "/dist.y4m",
          "--feature", "ssim=chroma=true",
          "--feature", "psnr", "-n",
          "--backend", backend,
          "--json",    "--precision",
          "max",       "-o",
          out};
}

TEST_F(OpenclTest, FaultCliExitsWithoutOutput) {
  const fs::path dir = cli::test_dir();
  const std::vector<CliFault> cases = {
      {"build",
       {"--backend opencl: OpenCL build of a probe kernel failed", "EXACTVQ_OPENCL_FAULT=build"}},
      {"build@2", {"feature ssim: OpenCL build of the SSIM kernels failed"}},
      {"build@3", {"feature psnr: OpenCL build of the PSNR kernel failed"}},
      {"alloc@1", {"feature ssim: OpenCL: cannot allocate", "CL_MEM_OBJECT_ALLOCATION_FAILURE"}},
      {"alloc@12", {"OpenCL: cannot allocate", "CL_MEM_OBJECT_ALLOCATION_FAILURE"}},
      {"enqueue@3", {"frame 3, ssim: OpenCL clEnqueueNDRangeKernel", "CL_OUT_OF_RESOURCES"}},
      {"lost@0",
       {"frame 0, ssim: ", "CL_DEVICE_NOT_AVAILABLE", "the device was lost before frame 0"}},
      {"lost@4",
       {"frame 4, ssim: ", "CL_DEVICE_NOT_AVAILABLE", "the device was lost before frame 4"}},
      {"bogus", {"EXACTVQ_OPENCL_FAULT=bogus: expected"}},
  };
  const std::string existing = "an earlier report, to be kept as it is\n";
  for (const CliFault& c : cases) {
    for (bool exists : {false, true}) {
      const fs::path out = dir / fmt::format("{}-{}.json", c.fault, exists);
      if (exists) cli::write_file(out, existing);
      const cli::RunResult r = run_with_fault(c.fault, score_args("opencl", out.string()));
      EXPECT_FALSE(r.timed_out) << c.fault << "\n" << cli::describe(r);
      EXPECT_EQ(r.status, kExitFailure) << c.fault << "\n" << cli::describe(r);
      for (const std::string& part : c.said)
        EXPECT_TRUE(contains(r.err, part)) << c.fault << ": " << part << "\n" << cli::describe(r);
      EXPECT_TRUE(contains(r.err, "exactvq: ")) << cli::describe(r);
      if (exists)
        EXPECT_EQ(cli::read_file(out), existing) << c.fault;
      else
        EXPECT_FALSE(fs::exists(out)) << c.fault;
    }
  }
  // Only the output file the test wrote itself: no temporary files left behind.
  std::set<std::string> want;
  for (const CliFault& c : cases) want.insert(fmt::format("{}-true.json", c.fault));
  EXPECT_EQ(cli::list_dir(dir), want);
}

TEST_F(OpenclTest, FaultCliAutoScoresOnTheCpu) {
  const fs::path dir = cli::test_dir();
  const cli::RunResult cpu =
      cli::run_cli(score_args("cpu", (dir / "cpu.json").string()), cli::with_timeout(120));
  ASSERT_EQ(cpu.status, 0) << cli::describe(cpu);
  for (const char* fault : {"build", "alloc@1", "lost@0"}) {
    const fs::path out = dir / fmt::format("auto-{}.json", fault);
    const cli::RunResult r = run_with_fault(fault, score_args("auto", out.string()));
    ASSERT_EQ(r.status, 0) << fault << "\n" << cli::describe(r);
    const cli::Report want = cli::parse_json(cli::read_file(dir / "cpu.json"));
    cli::Report got = cli::parse_json(cli::read_file(out));
    EXPECT_EQ(want.names, got.names);
    for (const auto& [name, values] : want.values) {
      ASSERT_EQ(values.size(), got.values[name].size()) << name;
      for (size_t i = 0; i < values.size(); ++i)
        EXPECT_EQ(cli::bits(values[i]), cli::bits(got.values[name][i]))
            << fault << " " << name << " " << i;
    }
  }
}

}  // namespace
}  // namespace exactvq::opencltest
