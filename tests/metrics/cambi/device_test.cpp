// cambi on every device backend against the CPU, bit for bit (values and
// aggregates): every scoreable public catalogue run (`cambi`, `cambi_full_ref`)
// and libvmaf's stored values there, refused where libvmaf refused; seeded
// banded pictures under every option set the CPU's tests cover (8 to 16 bits,
// encoding and source sizes, window, topk, tvi, max_log_contrast, the EOTFs,
// the visibility threshold, the speed-up at 1080p); frames one loose pair at a
// time; heatmaps_path (the same files as the CPU's); the command line, alone
// and in VMAF v1.0.16 (where the device has its other features' engines); and
// on CUDA, runs longer than one batch of contrast values. Cambi has no
// binary64 step on a device, so no fp64 option. Without a device a backend's
// cases skip with a message.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <set>
#include <sstream>

#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>

#include "banded_pictures.h"
#include "cambi_testing.h"
#include "cli/exit_status.h"
#include "device_fixture.h"
#include "metrics/cambi/engine.h"
#include "metrics/cambi/options.h"
#include "metrics/cambi/reference.h"
#include "metrics/cambi/setup.h"
#include "option_cases.h"

namespace exactvq::device_testing {
namespace {

namespace fs = std::filesystem;

class CambiOnDevice : public DeviceTest {
 protected:
  // cambi has no fp64 option: the spec alone on every backend.
  DeviceComparison compare_spec(const VideoFormat& f, const std::string& spec,
                                const std::vector<FramePair>& pairs, const std::string& what,
                                Pace pace = Pace::kOneBatch) const {
    return compare_on_device(device(), f, spec, {spec}, pairs, what, pace);
  }
};

struct CatalogueRun {
  const char* name;  // in the catalogue
  const char* spec;  // exactvq's --feature
};
const CatalogueRun kRuns[] = {{"cambi", "cambi"}, {"cambi_full_ref", "cambi=full_ref=true"}};

TEST_P(CambiOnDevice, PublicVectorsEqualCpuAndLibvmaf) {
  if (!fs::exists(cambi::testing::kCatalogue))
    GTEST_SKIP() << "no catalogue at " << cambi::testing::kCatalogue;
  int compared = 0, stored = 0, refused = 0;
  for (const auto& pair : cambi::testing::load_catalogue_pairs()) {
    const PictureFrames pictures(read_pictures(pair.ref, pair.raw),
                                 read_pictures(pair.dist, pair.raw));
    const VideoFormat f = pictures.format();
    for (const CatalogueRun& run : kRuns) {
      const nlohmann::json& want = pair.info.at("runs").at(run.name);
      if (want.at("rc").get<int>() != 0) {
        // Refused on the device as on the CPU, naming the feature and the size.
        try {
          make_feature(parse_feature_spec(run.spec), FeatureContext{f, nullptr, device()});
          ADD_FAILURE() << pair.name << " " << run.name << ": scored where libvmaf refused";
        } catch (const InputError& e) {
          EXPECT_NE(std::string(e.what()).find("cambi"), std::string::npos) << e.what();
        }
        ++refused;
        continue;
      }
      if (!want.at("perturb_stable").get<bool>()) continue;
      const DeviceComparison r = compare_spec(f, run.spec, pictures.pairs, pair.name);
      compared += r.compared;
      auto feature =
          make_feature(parse_feature_spec(run.spec), FeatureContext{f, nullptr, nullptr});
      const std::vector<std::string>& names = feature->outputs();
      const nlohmann::json& frames = want.at("frames");
      ASSERT_EQ(frames.size() * names.size(), r.got.size()) << pair.name;
      for (size_t i = 0; i < frames.size(); ++i)
        for (size_t n = 0; n < names.size(); ++n, ++stored)
          EXPECT_TRUE(same_bits(r.got[i * names.size() + n],
                                testing_vectors::stored_value(frames[i].at(names[n]))))
              << pair.name << " " << run.name << " frame " << i << " " << names[n];
    }
  }
  std::printf(
      "%s cambi public vectors: %d values equal to the CPU's, %d per-frame values to libvmaf's; "
      "%d runs refused as libvmaf refused\n",
      tag().c_str(), compared, stored, refused);
  EXPECT_EQ(stored, 148);  // every stable per-frame value of both runs
  EXPECT_EQ(refused, 14);  // the seven pairs under 216 samples, both runs
}

TEST_P(CambiOnDevice, EveryOptionEqualsCpuOnBandedPictures) {
  std::mt19937_64 rng(0xca3b1'0e1u);
  int compared = 0;
  for (const cambi::testing::OptionCase& c : cambi::testing::kOptionCases) {
    const VideoFormat f{c.w, c.h, ChromaFormat::k420, c.bitdepth};
    // Two frames a batch; one at 1080p on OpenCL (PoCL's time).
    const bool large = c.w * c.h >= 1920 * 1080;
    const PictureFrames frames =
        cambi::testing::banded_frames(f, backend() == Backend::kOpenCL && large ? 1 : 2, rng);
    compared += compare_spec(f, c.spec, frames.pairs,
                             fmt::format("banded {}x{} {}-bit", c.w, c.h, c.bitdepth))
                    .compared;
  }
  std::printf("%s cambi banded pictures under every option: %d values bit for bit\n", tag().c_str(),
              compared);
}

TEST_P(CambiOnDevice, LoosePairsEqualCpu) {
  std::mt19937_64 rng(0xca3b1'100u);
  const VideoFormat f{576, 324, ChromaFormat::k420, 10};
  const PictureFrames frames = cambi::testing::banded_frames(f, 3, rng);
  const DeviceComparison r =
      compare_spec(f, "cambi=full_ref=true", frames.pairs, "loose pairs", Pace::kLoosePairs);
  EXPECT_EQ(r.compared, 3 * 3);  // three keys a frame (cambi has no aggregates)
}

// heatmaps_path on the device writes the CPU's files, byte for byte; a loose
// pair (no place in the run) is refused as on the CPU.
TEST_P(CambiOnDevice, HeatmapsEqualCpus) {
  std::mt19937_64 rng(0xca3b1'4ea7u);
  const VideoFormat f{400, 300, ChromaFormat::k420, 8};
  const PictureFrames frames = cambi::testing::banded_frames(f, 3, rng);
  const fs::path dir = fs::temp_directory_path() / fmt::format("exactvq_cambi_heatmaps_{}_{}",
                                                               backend_name(backend()), ::getpid());
  fs::remove_all(dir);
  const auto score = [&](const std::shared_ptr<Device>& on, const char* sub) {
    const std::string spec = "cambi=full_ref=true:heatmaps_path=" + (dir / sub).string();
    auto feature = make_feature(parse_feature_spec(spec), FeatureContext{f, nullptr, on});
    std::vector<double> out(frames.pairs.size() * feature->outputs().size());
    feature->extract_batch(frames.pairs, out);
    if (on) {
      const FramePair loose{frames.pairs[0].ref, frames.pairs[0].dist, FramePair::kLoose};
      std::vector<double> one(feature->outputs().size());
      EXPECT_THROW(feature->extract_batch({&loose, 1}, one), UsageError);
    }
    return out;
  };
  const std::vector<double> want = score(nullptr, "cpu");
  const std::vector<double> got = score(device(), "device");
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) EXPECT_TRUE(same_bits(got[i], want[i])) << i;
  const auto read = [](const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
  };
  std::set<std::string> names;
  for (const auto& e : fs::directory_iterator(dir / "cpu")) names.insert(e.path().filename());
  EXPECT_EQ(names.size(), size_t(cambi::kScales));
  for (const std::string& name : names) {
    const std::string bytes = read(dir / "cpu" / name);
    EXPECT_GT(bytes.size(), 0u) << name;
    EXPECT_TRUE(read(dir / "device" / name) == bytes) << name;
  }
  fs::remove_all(dir);
}

// The command line with --backend cpu and this backend: the same report (every
// value printed with --precision max, so equal text is equal bits), two cambi
// features in one run (full_ref, and the VMAF v1.0.16 models' setting); and
// the bundled 176x144 sample refused on the device as on the CPU.
TEST_P(CambiOnDevice, CommandLineReportEqualsCpu) {
  const fs::path pair = cambi::testing::kCatalogue.parent_path() / "p10_420_576x324_testsrc2_x264";
  if (!fs::exists(pair)) GTEST_SKIP() << "no public pair at " << pair;
  const fs::path tmp = fs::path(EXACTVQ_TEST_TMP);
  fs::create_directories(tmp);
  const auto run = [&](const std::string& b, const fs::path& ref, const fs::path& dist,
                       const std::string& out) {
    const std::string cmd = fmt::format(
        "'{}' -r '{}' -d '{}' --feature cambi=full_ref=true --feature "
        "cambi=cambi_high_res_speedup=1080:cambi_max_val=17:cambi_vis_lum_threshold=0.06 -n "
        "--precision max --json -o '{}' --backend {} 2> '{}.err'",
        EXACTVQ_CLI_PATH, ref.string(), dist.string(), (tmp / out).string(), b,
        (tmp / out).string());
    const int status = std::system(cmd.c_str());
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  };
  const std::string b = backend_name(backend());
  ASSERT_EQ(run("cpu", pair / "ref.y4m", pair / "dist.y4m", "cambi_cpu.json"), 0);
  ASSERT_EQ(run(b, pair / "ref.y4m", pair / "dist.y4m", "cambi_" + b + ".json"), 0);
  const auto report = [&](const std::string& name) {
    std::ifstream in(tmp / name);
    nlohmann::json j = nlohmann::json::parse(in);
    j.erase("fps");  // timing, not a score
    return j;
  };
  const nlohmann::json cpu = report("cambi_cpu.json");
  EXPECT_EQ(report("cambi_" + b + ".json"), cpu);
  EXPECT_NE(cpu.dump().find("cambi_hrs_1080_cmxv_17_vlt_0.06"), std::string::npos);
  const fs::path samples = EXACTVQ_SAMPLES_DIR;
  fs::remove(tmp / ("cambi_small_" + b + ".json"));
  EXPECT_EQ(run(b, samples / "ref.y4m", samples / "dist.y4m", "cambi_small_" + b + ".json"),
            kExitPicture);
  EXPECT_FALSE(fs::exists(tmp / ("cambi_small_" + b + ".json")));
  std::ifstream err(tmp / ("cambi_small_" + b + ".json.err"));
  const std::string message((std::istreambuf_iterator<char>(err)),
                            std::istreambuf_iterator<char>());
  EXPECT_NE(message.find("cambi"), std::string::npos) << message;
  EXPECT_NE(message.find("176x144"), std::string::npos) << message;
}

// VMAF v1.0.16 (whose features include cambi) on the device writes the CPU's
// report, where this build has a device engine for each of its features;
// skipped, naming the missing one, where not (speed_chroma comes from another
// metric's engines).
TEST_P(CambiOnDevice, VmafV1ModelReportEqualsCpu) {
  const fs::path pair = cambi::testing::kCatalogue.parent_path() / "p8_420_576x324_testsrc2_x264";
  if (!fs::exists(pair)) GTEST_SKIP() << "no public pair at " << pair;
  const fs::path tmp = fs::path(EXACTVQ_TEST_TMP);
  fs::create_directories(tmp);
  const std::string b = backend_name(backend());
  const auto run = [&](const std::string& on) {
    const fs::path out = tmp / ("cambi_v1_" + on + ".json");
    const std::string cmd = fmt::format(
        "'{}' -r '{}' -d '{}' --model version=vmaf_v1.0.16_3d0h --precision max --json -o '{}' "
        "--backend {} 2> '{}.err'",
        EXACTVQ_CLI_PATH, (pair / "ref.y4m").string(), (pair / "dist.y4m").string(), out.string(),
        on, out.string());
    const int status = std::system(cmd.c_str());
    std::ifstream err(out.string() + ".err");
    return std::pair{
        WIFEXITED(status) ? WEXITSTATUS(status) : -1,
        std::string((std::istreambuf_iterator<char>(err)), std::istreambuf_iterator<char>())};
  };
  const auto [cpu_status, cpu_err] = run("cpu");
  ASSERT_EQ(cpu_status, 0) << cpu_err;
  const auto [status, err] = run(b);
  if (status != 0 && err.find("is not available on") != std::string::npos) {
    EXPECT_EQ(err.find("feature cambi "), std::string::npos) << err;
    GTEST_SKIP() << "VMAF v1.0.16 on " << b << " needs an engine this build lacks: " << err;
  }
  ASSERT_EQ(status, 0) << err;
  const auto report = [&](const std::string& on) {
    std::ifstream in(tmp / ("cambi_v1_" + on + ".json"));
    nlohmann::json j = nlohmann::json::parse(in);
    j.erase("fps");  // timing, not a score
    return j;
  };
  EXPECT_EQ(report(b), report("cpu"));
}

// The engine pools a scale from the device's pool records where that is
// provably the reference's value (docs/spec/cambi.md, "On CUDA and OpenCL"),
// and reads its values back elsewhere: at topk 1 (k = n, the reference's sum
// in raster order) every scale pools from the records; at topk 0.0001 (k from
// 1 to 18 here) the banded pictures' scales have more positive values than k,
// so theirs come back; cambi's default 0.6 takes both paths here (the banded
// pictures' coarse scales are mostly positive). Either way scale_scores' bits;
// the engine's counts say which path ran.
TEST_P(CambiOnDevice, PoolsFromRecordsWhereProvableAndReadsBackElsewhere) {
  std::mt19937_64 rng(0xca3b1'9002u);
  const VideoFormat f{576, 324, ChromaFormat::k420, 10};
  const PictureFrames frames = cambi::testing::banded_frames(f, 3, rng);
  for (const double topk : {1.0, 0.6, 0.0001}) {
    cambi::CambiOptions o;
    o.full_ref = true;
    o.topk = topk;
    const cambi::CambiSetup s = cambi::make_cambi_setup(o, f);
    auto counts = std::make_shared<cambi::DevicePoolCounts>();
    const cambi::EngineSetup setup{f, s, nullptr, 2 * cambi::kScales, nullptr, counts};
    const auto engine = cambi::make_engine(*device(), setup);
    std::vector<double> got(frames.pairs.size() * 2 * cambi::kScales);
    engine->score(frames.pairs, got);
    for (size_t i = 0; i < frames.pairs.size(); ++i) {
      const auto dist = cambi::scale_scores(frames.pairs[i].dist->plane(0), s, s.distorted);
      const auto ref = cambi::scale_scores(frames.pairs[i].ref->plane(0), s, s.source);
      for (int n = 0; n < cambi::kScales; ++n) {
        EXPECT_TRUE(same_bits(got[i * 2 * cambi::kScales + size_t(n)], dist[size_t(n)]))
            << "topk " << topk << " frame " << i << " scale " << n;
        EXPECT_TRUE(
            same_bits(got[i * 2 * cambi::kScales + cambi::kScales + size_t(n)], ref[size_t(n)]))
            << "topk " << topk << " frame " << i << " reference scale " << n;
      }
    }
    const int64_t scales = int64_t(frames.pairs.size()) * 2 * cambi::kScales;
    EXPECT_EQ(counts->on_device + counts->read_back, scales) << topk;
    if (topk == 1.0) EXPECT_EQ(counts->read_back, 0) << "every scale pooled from the records";
    if (topk == 0.0001) EXPECT_GT(counts->read_back, 0) << "the banded scales read back";
    std::printf("%s cambi at topk %g: %lld scales pooled from records, %lld read back\n",
                tag().c_str(), topk, (long long)counts->on_device.load(),
                (long long)counts->read_back.load());
  }
}

// CUDA: a 1080p full_ref run longer than a batch of contrast values (22 MB a
// frame, 256 MiB a batch) with the VMAF v1.0.16 models' setting beside the
// full-size windows.
using CambiOnCuda = OneBackendTest<Backend::kCuda>;

TEST_F(CambiOnCuda, RunsLongerThanABatchEqualCpu) {
  std::mt19937_64 rng(0xca3b1'cda0u);
  const VideoFormat f{1920, 1080, ChromaFormat::k420, 8};
  const PictureFrames frames = cambi::testing::banded_frames(f, 14, rng);
  for (const char* spec :
       {"cambi=full_ref=true",
        "cambi=cambi_high_res_speedup=1080:cambi_max_val=17:cambi_vis_lum_threshold=0.06"}) {
    const DeviceComparison r =
        compare_on_device(device(), f, spec, {spec}, frames.pairs, "1080p, 14 frames");
    EXPECT_GE(r.compared, 14);  // a value a frame at least; full_ref adds the reference's
  }
}

EXACTVQ_ON_EVERY_DEVICE_BACKEND(CambiOnDevice);

}  // namespace
}  // namespace exactvq::device_testing
