// --gpus without a GPU: MultiDevice over CPU-backed test
// devices and over OpenCL (PoCL) devices opened several times gives, bit for bit,
// the per-frame values, pooled values and aggregates of one device, for 1, 2 and 3
// devices, several batch sizes, both ssim modes, chroma, dB, psnr with apsnr, adm. Also
// the --gpus command line: parsing and the usage errors.
#include <atomic>
#include <cstring>

#include <fmt/format.h>

#include "app/score_run.h"
#include "metrics/registry.h"
#include "cli/cli_fixture.h"
#include "cli/cli_options.h"
#include "core/error.h"
#include "backends/cpu/cpu_device.h"
#include "backends/multi/multi_device.h"
#include "backends/multi/split_engine.h"
#include "metrics/ssim/engine.h"

namespace exactvq::clitest {
namespace {

// A "device" that scores on the CPU: the CPU's engines, under its own name.
class CpuTestDevice final : public CpuDevice {
 public:
  explicit CpuTestDevice(int number) : number_(number) {}
  std::string description() const override { return fmt::format("cpu test device {}", number_); }

 private:
  int number_;
};

// The CPU's ssim engine, throwing DeviceError at its `fail_at`-th call.
class FailingSsimEngine final : public ssim::Engine {
 public:
  FailingSsimEngine(std::unique_ptr<ssim::Engine> inner, int fail_at)
      : inner_(std::move(inner)), left_(fail_at) {}
  int batch_frames() const override { return inner_->batch_frames(); }
  void score(std::span<const FramePair> frames, std::span<ssim::PlaneSum> out) override {
    if (--left_ <= 0) throw DeviceError("test device failure");
    inner_->score(frames, out);
  }

 private:
  std::unique_ptr<ssim::Engine> inner_;
  int left_;
};

std::shared_ptr<Device> cpu_devices(int n) {
  std::vector<std::shared_ptr<Device>> devices;
  for (int i = 0; i < n; ++i) devices.push_back(std::make_shared<CpuTestDevice>(i));
  return std::make_shared<MultiDevice>(std::move(devices));
}

// OpenCL device 0 opened `n` times (independent objects), or null when there is none.
std::shared_ptr<Device> opencl_devices(int n, std::string* why) {
  DeviceOptions o;
  o.backend = Backend::kOpenCL;
  std::vector<std::shared_ptr<Device>> devices;
  try {
    for (int i = 0; i < n; ++i) devices.push_back(open_device(o, make_format(16, 16)));
  } catch (const DeviceError& e) {
    *why = e.what();
    return nullptr;
  }
  return std::make_shared<MultiDevice>(std::move(devices));
}

struct Scores {
  std::vector<std::vector<uint64_t>> rows;  // per frame: every feature's outputs, as bits
  std::vector<std::string> names;
  std::vector<std::pair<std::string, uint64_t>> aggregates;
};

// The run loop of score_run over `pictures` in batches of `batch` (0: the features'
// own batch size), on `device` (null: the CPU).
Scores score(const std::vector<Picture>& refs, const std::vector<Picture>& dists,
             const std::vector<std::string>& specs, std::shared_ptr<Device> device, int batch,
             int threads = 2) {
  ThreadPool pool(threads);
  FeatureContext ctx{refs[0].format, &pool, device};
  std::vector<std::unique_ptr<Feature>> features;
  int want = 1;
  Scores s;
  for (const auto& spec : specs) {
    features.push_back(make_feature(parse_feature_spec(spec), ctx));
    want = std::max(want, features.back()->batch_frames());
    for (const auto& n : features.back()->outputs()) s.names.push_back(n);
  }
  if (batch == 0) batch = want;
  s.rows.resize(refs.size());
  for (size_t start = 0; start < refs.size(); start += size_t(batch)) {
    const size_t n = std::min(refs.size() - start, size_t(batch));
    std::vector<FramePair> pairs;
    for (size_t i = 0; i < n; ++i)
      pairs.push_back({&refs[start + i], &dists[start + i], int64_t(start + i)});
    for (auto& f : features) {
      const size_t k = f->outputs().size();
      std::vector<double> out(n * k, -1.0);
      f->extract_batch(pairs, out);
      for (size_t i = 0; i < n; ++i)
        for (size_t j = 0; j < k; ++j) s.rows[start + i].push_back(bits(out[i * k + j]));
    }
  }
  for (auto& f : features)
    for (auto& [name, v] : f->aggregates()) s.aggregates.emplace_back(name, bits(v));
  return s;
}

struct Case {
  VideoFormat format;
  std::vector<std::string> specs;
};

std::vector<Case> cases() {
  return {
      {make_format(40, 30), {"ssim", "psnr=enable_apsnr=true:enable_mse=true"}},
      {make_format(37, 29, ChromaFormat::k422, 10),
       {"ssim=sum=raster:chroma=true:enable_db=true:clip_db=true", "psnr=enable_apsnr=true"}},
      {make_format(20, 18, ChromaFormat::k444, 16),
       {"ssim=chroma=true:enable_db=true", "psnr=enable_apsnr=true:reduced_hbd_peak=true"}},
      {make_format(24, 16, ChromaFormat::kMono, 12), {"ssim=sum=raster", "psnr=enable_apsnr=true"}},
      {make_format(41, 35, ChromaFormat::k420, 10), {"adm=debug=true", "psnr=enable_apsnr=true"}},
      // VMAF's features: motion's temporal state across the devices' shares (each
      // share's first frame compared with the frame before it, held by another device).
      {make_format(40, 36, ChromaFormat::k420, 8),
       {"motion", "vif", "adm", "float_ssim", "psnr=enable_apsnr=true"}},
      {make_format(35, 33, ChromaFormat::k444, 12),
       {"motion=motion_force_zero=false", "vif=vif_enhn_gain_limit=1.2", "psnr=enable_apsnr=true"}},
  };
}

void pictures(const VideoFormat& f, int count, std::vector<Picture>& refs,
              std::vector<Picture>& dists) {
  for (const Frame& fr : make_frames(f, count, 0)) refs.push_back(to_picture(f, fr));
  for (const Frame& fr : make_frames(f, count, 1)) dists.push_back(to_picture(f, fr));
}

void expect_same(const Scores& a, const Scores& b, const std::string& what) {
  ASSERT_EQ(a.names, b.names) << what;
  ASSERT_EQ(a.rows.size(), b.rows.size()) << what;
  for (size_t i = 0; i < a.rows.size(); ++i)
    EXPECT_EQ(a.rows[i], b.rows[i]) << what << ", frame " << i;
  EXPECT_EQ(a.aggregates, b.aggregates) << what;
}

TEST(MultiDevice, SharesAreContiguousAndCoverTheBatch) {
  for (size_t n = 0; n < 40; ++n)
    for (size_t d = 1; d <= 5; ++d) {
      EXPECT_EQ(share_start(n, d, 0), 0u);
      EXPECT_EQ(share_start(n, d, d), n);
      for (size_t k = 0; k < d; ++k) {
        const size_t size = share_start(n, d, k + 1) - share_start(n, d, k);
        EXPECT_LE(size, n / d + 1);
        EXPECT_GE(size, n / d);
      }
    }
}

TEST(MultiDevice, CpuTestDevicesGiveTheBitsOfOne) {
  for (const Case& c : cases()) {
    std::vector<Picture> refs, dists;
    pictures(c.format, 11, refs, dists);
    const Scores one = score(refs, dists, c.specs, nullptr, 1);
    ASSERT_FALSE(one.aggregates.empty()) << "every case has apsnr";
    for (int devices : {1, 2, 3})
      for (int batch : {0, 1, 2, 5, 11, 12}) {
        const std::string what =
            fmt::format("{} {} on {} devices, batches of {}", c.format.describe(),
                        fmt::join(c.specs, " "), devices, batch);
        expect_same(score(refs, dists, c.specs, cpu_devices(devices), batch), one, what);
      }
  }
}

TEST(MultiDevice, BatchGrowsWithTheDeviceCount) {
  ThreadPool pool(4);
  const VideoFormat f = make_format(64, 48);
  const int one = make_feature(parse_feature_spec("ssim"), FeatureContext{f, &pool, cpu_devices(1)})
                      ->batch_frames();
  for (int n : {2, 3}) {
    auto feature =
        make_feature(parse_feature_spec("ssim"), FeatureContext{f, &pool, cpu_devices(n)});
    // Each device's pool has 4 / n threads: its own batch is at least 1, and each gets a full one.
    EXPECT_GE(feature->batch_frames(), n) << n << " devices";
    EXPECT_EQ(feature->batch_frames() % n, 0) << n << " devices";
  }
  EXPECT_GE(one, 1);
}

TEST(MultiDevice, OpenclDevicesOpenedSeveralTimesGiveTheCpuBits) {
  std::string why;
  if (!opencl_devices(1, &why))
    GTEST_SKIP() << "no OpenCL device (" << why << "): OpenCL multi-device test skipped";
  for (const Case& c : cases()) {
    std::vector<Picture> refs, dists;
    pictures(c.format, 7, refs, dists);
    const Scores cpu = score(refs, dists, c.specs, nullptr, 1);
    for (int devices : {2, 3})
      for (int batch : {0, 3, 7}) {
        const std::string what =
            fmt::format("OpenCL: {} {} on {} devices, batches of {}", c.format.describe(),
                        fmt::join(c.specs, " "), devices, batch);
        expect_same(score(refs, dists, c.specs, opencl_devices(devices, &why), batch), cpu, what);
      }
    // Mixed: OpenCL, the CPU test device, OpenCL.
    DeviceOptions o;
    o.backend = Backend::kOpenCL;
    auto mixed = std::make_shared<MultiDevice>(std::vector<std::shared_ptr<Device>>{
        open_device(o, c.format), std::make_shared<CpuTestDevice>(9), open_device(o, c.format)});
    expect_same(score(refs, dists, c.specs, mixed, 0), cpu, "OpenCL + CPU + OpenCL");
  }
}

// CUDA (on a machine with GPUs; skipped visibly elsewhere): every GPU present, and
// GPU 0 opened twice, against the CPU, on small odd frames and on 1080p frames in
// batches that fill several lanes.
TEST(MultiGpu, CudaDevicesGiveTheCpuBits) {
  const int count = count_devices(Backend::kCuda);
  if (count == 0) GTEST_SKIP() << "no CUDA device: CUDA multi-device test skipped";
  auto open = [](std::vector<int> numbers, const VideoFormat& f) {
    std::vector<std::shared_ptr<Device>> devices;
    for (int n : numbers) {
      DeviceOptions o;
      o.backend = Backend::kCuda;
      o.gpu = n;
      devices.push_back(open_device(o, f));
    }
    return std::make_shared<MultiDevice>(std::move(devices));
  };
  std::vector<std::vector<int>> sets{{0, 0}};
  std::vector<int> all;
  for (int i = 0; i < count; ++i) all.push_back(i);
  if (count > 1) sets.push_back(all);
  std::vector<Case> all_cases = cases();
  all_cases.push_back({make_format(1920, 1080), {"ssim", "psnr=enable_apsnr=true"}});
  all_cases.push_back({make_format(1920, 1080), {"ssim=sum=raster"}});
  all_cases.push_back({make_format(64, 48, ChromaFormat::k420, 10),
                       {"ssim=fp64=emulate:chroma=true", "psnr=enable_apsnr=true"}});
  for (const Case& c : all_cases) {
    std::vector<Picture> refs, dists;
    const int frames = c.format.width > 1000 ? 9 : 70;
    pictures(c.format, frames, refs, dists);
    const Scores cpu = score(refs, dists, c.specs, nullptr, 1);
    for (const auto& set : sets)
      for (int batch : {0, 5}) {
        const std::string what = fmt::format("CUDA {}: {} {}, batches of {}", fmt::join(set, ","),
                                             c.format.describe(), fmt::join(c.specs, " "), batch);
        expect_same(score(refs, dists, c.specs, open(set, c.format), batch, 4), cpu, what);
      }
  }
}

// Through score_videos: the report (per-frame values, pooled values, aggregates,
// frame numbers) of a run on N test devices equals the CPU run's, with frame
// selection, for every writer.
class MultiDeviceRun : public CliTest {};

TEST_F(MultiDeviceRun, ReportsEqualTheCpuRun) {
  const VideoFormat f = make_format(33, 21, ChromaFormat::k420, 10);
  const std::string ref = write_y4m("ref.y4m", f, 23, 0), dist = write_y4m("dist.y4m", f, 23, 2);
  for (const std::vector<std::string>& specs :
       {std::vector<std::string>{"ssim", "psnr=enable_apsnr=true"},
        std::vector<std::string>{"ssim=sum=raster:chroma=true:enable_db=true:clip_db=true",
                                 "psnr=enable_apsnr=true:enable_mse=true"},
        std::vector<std::string>{"motion", "psnr=enable_apsnr=true"}}) {
    for (int subsample : {1, 3}) {
      RunOptions base;
      base.ref_path = ref;
      base.dist_path = dist;
      for (const auto& s : specs) base.features.push_back(parse_feature_spec(s));
      base.threads = 2;
      base.subsample = subsample;
      const ScoreReport cpu = score_videos(base);
      for (int devices : {1, 2, 3}) {
        RunOptions o = base;
        o.device.opened = cpu_devices(devices);
        const ScoreReport multi = score_videos(o);
        const std::string what =
            fmt::format("{} devices, subsample {}, {}", devices, subsample, fmt::join(specs, " "));
        ASSERT_EQ(multi.frame_numbers, cpu.frame_numbers) << what;
        ASSERT_EQ(multi.features.size(), cpu.features.size()) << what;
        for (size_t k = 0; k < cpu.features.size(); ++k) {
          EXPECT_EQ(multi.features[k].name, cpu.features[k].name);
          ASSERT_EQ(multi.features[k].values.size(), cpu.features[k].values.size());
          for (size_t i = 0; i < cpu.features[k].values.size(); ++i)
            EXPECT_EQ(bits(multi.features[k].values[i]), bits(cpu.features[k].values[i]))
                << what << ", " << cpu.features[k].name << " frame " << i;
          const Pooled a = pool(multi.features[k].values), b = pool(cpu.features[k].values);
          EXPECT_EQ(bits(a.mean), bits(b.mean)) << what;
          EXPECT_EQ(bits(a.harmonic_mean), bits(b.harmonic_mean)) << what;
        }
        ASSERT_EQ(multi.aggregates.size(), cpu.aggregates.size()) << what;
        for (size_t k = 0; k < cpu.aggregates.size(); ++k) {
          EXPECT_EQ(multi.aggregates[k].name, cpu.aggregates[k].name);
          EXPECT_EQ(bits(multi.aggregates[k].value), bits(cpu.aggregates[k].value)) << what;
        }
        for (OutputFormat format : {OutputFormat::kXml, OutputFormat::kJson, OutputFormat::kCsv}) {
          std::ostringstream x, y;
          ScoreReport m = multi, c = cpu;
          m.fps = c.fps = 0;
          write_report(x, m, format, NumberFormat{0, true});
          write_report(y, c, format, NumberFormat{0, true});
          EXPECT_EQ(x.str(), y.str()) << what;
        }
      }
    }
  }
}

// A failure of one device's engine fails the batch, with that engine's error.
TEST(MultiDevice, ADeviceFailureFailsTheBatch) {
  const VideoFormat format = make_format(16, 16);
  std::vector<Picture> refs, dists;
  pictures(format, 6, refs, dists);
  auto devices = std::make_shared<MultiDevice>(std::vector<std::shared_ptr<Device>>{
      std::make_shared<CpuTestDevice>(0), std::make_shared<CpuTestDevice>(1)});
  int made = 0;
  const ssim::EngineSetup setup{format, 1, ssim::SumMode::kExact, ssim::Fp64Mode::kAuto, nullptr};
  auto engine = multi::make_split_engine<ssim::Engine>(
      *devices, setup, [&](Device& d, const ssim::EngineSetup& s) -> std::unique_ptr<ssim::Engine> {
        std::unique_ptr<ssim::Engine> inner = ssim::make_engine(d, s);
        if (made++ == 1) return std::make_unique<FailingSsimEngine>(std::move(inner), 2);
        return inner;
      });
  std::vector<FramePair> pairs;
  for (size_t i = 0; i < refs.size(); ++i) pairs.push_back({&refs[i], &dists[i], int64_t(i)});
  std::vector<ssim::PlaneSum> sums(pairs.size());
  EXPECT_NO_THROW(engine->score(std::span(pairs).first(2), std::span(sums).first(2)));
  try {
    engine->score(std::span(pairs).subspan(2), std::span(sums).subspan(2));
    FAIL() << "no error";
  } catch (const DeviceError& e) {
    EXPECT_STREQ(e.what(), "test device failure");
  }
}

TEST(MultiDevice, DescriptionNamesEveryDevice) {
  EXPECT_EQ(cpu_devices(2)->description(), "2 devices: cpu test device 0; cpu test device 1");
}

// --gpus parsing.
TEST(GpusOption, Parses) {
  DeviceOptions d;
  parse_gpus("all", d);
  EXPECT_EQ(d.gpu_count, DeviceOptions::kAllDevices);
  parse_gpus("3", d);
  EXPECT_EQ(d.gpu_count, 3);
  EXPECT_TRUE(d.gpus.empty());
  parse_gpus("0,2,1", d);
  EXPECT_EQ(d.gpu_count, 0);
  EXPECT_EQ(d.gpus, (std::vector<int>{0, 2, 1}));
  for (const char* bad :
       {"", "0", "-1", "1,,2", ",1", "1,", "x", "1,x", "1,1", "all,1", "2 ", "1.5"})
    EXPECT_THROW(parse_gpus(bad, d), UsageError) << "'" << bad << "'";
}

TEST(GpusOption, CommandLine) {
  auto device = [](std::vector<std::string> args) {
    args.insert(args.begin(), {"-r", "a.y4m", "-d", "b.y4m"});
    return parse_command_line(args).run.device;
  };
  EXPECT_EQ(device({"--gpus", "2"}).backend, Backend::kCuda);  // --gpus alone: CUDA
  EXPECT_EQ(device({"--gpus", "0,1", "--backend", "opencl"}).backend, Backend::kOpenCL);
  EXPECT_EQ(device({"--gpus", "all", "--backend", "auto"}).gpu_count, DeviceOptions::kAllDevices);
  EXPECT_EQ(device({"--gpu", "1"}).gpu, 1);  // --gpu N as before
  EXPECT_FALSE(device({"--gpu", "1"}).several_devices());
}

class GpusCli : public CliTest {};

TEST_F(GpusCli, UsageErrors) {
  const std::string ref = write_y4m("ref.y4m", make_format(16, 16), 2, 0);
  const std::string dist = write_y4m("dist.y4m", make_format(16, 16), 2, 1);
  expect_refused({"-r", ref, "-d", dist, "--gpus", "2", "--backend", "cpu"}, kExitUsage,
                 {"--gpus", "--backend cpu"});
  expect_refused({"-r", ref, "-d", dist, "--gpus", "1,1"}, kExitUsage,
                 {"--gpus", "device 1 is listed twice"});
  expect_refused({"-r", ref, "-d", dist, "--gpus", ""}, kExitUsage, {"--gpus", "empty"});
  expect_refused({"-r", ref, "-d", dist, "--gpus", "0,,1"}, kExitUsage, {"--gpus", "empty item"});
  expect_refused({"-r", ref, "-d", dist, "--gpus", "two"}, kExitUsage, {"--gpus", "not a number"});
  expect_refused({"-r", ref, "-d", dist, "--gpus", "2", "--gpu", "1"}, kExitUsage,
                 {"--gpu and --gpus"});
  expect_refused(
      {"-r", ref, "-d", dist, "--gpus", "2", "--backend", "opencl", "--opencl-device", "0"},
      kExitUsage, {"--opencl-device and --gpus"});
}

TEST_F(GpusCli, OpenclDeviceNumbersAreChecked) {
  const std::string ref = write_y4m("ref.y4m", make_format(16, 16), 2, 0);
  const std::string dist = write_y4m("dist.y4m", make_format(16, 16), 2, 1);
  const int count = count_devices(Backend::kOpenCL);
  if (count == 0) GTEST_SKIP() << "no OpenCL device: --gpus over OpenCL not checked";
  expect_refused(
      {"-r", ref, "-d", dist, "--backend", "opencl", "--gpus", fmt::format("0,{}", count)},
      kExitFailure, {fmt::format("no OpenCL device {}", count)});
  expect_refused(
      {"-r", ref, "-d", dist, "--backend", "opencl", "--gpus", std::to_string(count + 1)},
      kExitFailure, {"--gpus", "OpenCL device"});
  // Every device present scores as the CPU does, and --verbose names each.
  const RunResult cpu =
      run_cli({"-r", ref, "-d", dist, "--csv", "-o", path("cpu.csv"), "--feature", "psnr"});
  ASSERT_EQ(cpu.status, 0) << describe(cpu);
  const RunResult all = run_cli({"-r", ref, "-d", dist, "--csv", "-o", path("all.csv"), "--feature",
                                 "psnr", "--backend", "opencl", "--gpus", "all", "--verbose"});
  ASSERT_EQ(all.status, 0) << describe(all);
  EXPECT_EQ(read_file(path("all.csv")), read_file(path("cpu.csv")));
  EXPECT_NE(all.err.find(fmt::format("(1 of {})", count)), std::string::npos) << describe(all);
}

TEST_F(GpusCli, CudaAbsentOrBadNumbers) {
  const std::string ref = write_y4m("ref.y4m", make_format(16, 16), 2, 0);
  const std::string dist = write_y4m("dist.y4m", make_format(16, 16), 2, 1);
  const int count = count_devices(Backend::kCuda);
  if (count == 0) {
    // No CUDA: an explicit --gpus fails (a device error), auto falls back to the CPU and says so.
    // Device numbers are checked once the run begins (255, as any device error).
    expect_refused({"-r", ref, "-d", dist, "--gpus", "2"}, kExitFailure, {"--gpus 2"});
    const RunResult r = run_cli({"-r", ref, "-d", dist, "--backend", "auto", "--gpus", "all"});
    EXPECT_EQ(r.status, 0) << describe(r);
    EXPECT_NE(r.err.find("scoring on the CPU"), std::string::npos) << describe(r);
    return;
  }
  expect_refused({"-r", ref, "-d", dist, "--gpus", fmt::format("{},0", count)}, kExitFailure,
                 {fmt::format("no CUDA device {}", count)});
  expect_refused({"-r", ref, "-d", dist, "--gpus", std::to_string(count + 1)}, kExitFailure,
                 {"CUDA device"});
}

}  // namespace
}  // namespace exactvq::clitest
