// speed_chroma and speed_temporal through the command line (the CPU, and the
// OpenCL engines where this machine has a device), bit for bit:
// - every run of libvmaf_catalogue_scores.json where perturb_stable is true,
//   every key per frame and pooled; where libvmaf refused ("image too small",
//   rc -11) exactvq exits 1 naming the feature and the size, with no output;
// - seeded random clips (8 to 16 bits, 4:2:0, 4:2:2, 4:4:4, several sizes, every
//   option) against the libvmaf binary (plain C, full precision), also started
//   inside the video with --frame_skip_ref/--frame_skip_dist; skipped, saying
//   so, where the binary is absent.
#include <gtest/gtest.h>

#include <fstream>
#include <iterator>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cli/cli_fixture.h"
#include "core/error.h"
#include "cli/cli_test_util.h"
#include "libvmaf_vmaf_vectors.h"
#include "metrics/speed/engine.h"
#include "metrics/speed/options.h"
#include "metrics/speed/reference.h"
#include "metrics/speed/speed_clips.h"

namespace exactvq::clitest {
namespace {

const fs::path kCatalogue =
    fs::path(EXACTVQ_SHARED_DIR) / "vectors" / "libvmaf_catalogue_scores.json";

nlohmann::json read_json(const fs::path& p) {
  std::ifstream in(p);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  return nlohmann::json::parse(testing_vectors::signed_zeros_kept(text));
}

class SpeedCli : public CliTest {
 protected:
  RunResult run_exactvq(const std::vector<std::string>& inputs,
                        const std::vector<std::string>& features,
                        const std::vector<std::string>& extra = {}) {
    std::vector<std::string> argv{EXACTVQ_CLI_PATH, "-n"};  // the features alone
    argv.insert(argv.end(), inputs.begin(), inputs.end());
    for (const std::string& f : features) argv.insert(argv.end(), {"--feature", f});
    argv.insert(argv.end(), extra.begin(), extra.end());
    argv.insert(argv.end(), {"--precision", "max", "--json", "-o", path("out.json")});
    fs::remove(path("out.json"));
    return run_program(argv, with_timeout(300));
  }

  // Every key of every stored frame, and every pooled value, against exactvq's report.
  void compare(const std::string& what, const nlohmann::json& frames,
               const nlohmann::json* pooled) {
    const Report got = parse_json(testing_vectors::signed_zeros_kept(read_file(path("out.json"))));
    ASSERT_EQ(got.frames.size(), frames.size()) << what;
    for (const nlohmann::json& frame : frames) {
      const size_t i = frame.at("frameNum").get<size_t>();
      const nlohmann::json& metrics = frame.contains("metrics") ? frame.at("metrics") : frame;
      for (const auto& [key, want] : metrics.items()) {
        if (key == "frameNum") continue;
        ASSERT_TRUE(got.values.count(key)) << what << ": no " << key;
        const double mine = got.values.at(key).at(i);
        const bool ok = bits(mine) == bits(testing_vectors::stored_value(want));
        ++compared;
        differing += !ok;
        EXPECT_TRUE(ok) << what << " frame " << i << " " << key << ": " << mine << " vs libvmaf "
                        << want;
      }
    }
    if (!pooled) return;
    for (const auto& [key, pools] : pooled->items())
      for (const auto& [pool, want] : pools.items()) {
        ASSERT_TRUE(got.pooled.count(key) && got.pooled.at(key).count(pool)) << what << key << pool;
        const double mine = got.pooled.at(key).at(pool);
        const bool ok = bits(mine) == bits(testing_vectors::stored_value(want));
        ++compared_pooled;
        differing += !ok;
        EXPECT_TRUE(ok) << what << " pooled " << key << " " << pool << ": " << mine
                        << " vs libvmaf " << want;
      }
  }

  int compared = 0, compared_pooled = 0, differing = 0;
};

TEST_F(SpeedCli, CatalogueVectorsEqualLibvmaf) {
  if (!fs::exists(kCatalogue)) GTEST_SKIP() << "no catalogue at " << kCatalogue;
  const nlohmann::json all = read_json(kCatalogue);
  int runs = 0, refused = 0, first_frame_only = 0;
  for (const auto& [name, pair] : all.at("pairs").items()) {
    const nlohmann::json& f = pair.at("format");
    const std::string ext = f.at("file_type").get<std::string>();
    const fs::path dir = kCatalogue.parent_path() / name;
    std::vector<std::string> inputs{"-r", (dir / ("ref." + ext)).string(), "-d",
                                    (dir / ("dist." + ext)).string()};
    const int w = f.at("width").get<int>(), h = f.at("height").get<int>();
    if (ext == "yuv")
      inputs.insert(inputs.end(), {"-w", std::to_string(w), "-h", std::to_string(h), "-p",
                                   f.at("chroma").get<std::string>(), "-b",
                                   std::to_string(f.at("bitdepth").get<int>())});
    for (const char* feature : {"speed_chroma", "speed_temporal"}) {
      const nlohmann::json& run = pair.at("runs").at(feature);
      const std::string what = name + " " + feature;
      const RunResult r = run_exactvq(inputs, {feature});
      if (run.at("rc").get<int>() == 0 && run.value("perturb_stable", false)) {
        ASSERT_EQ(r.status, 0) << what << describe(r);
        compare(what, run.at("frames"), &run.at("pooled"));
        ++runs;
        continue;
      }
      // libvmaf refused or crashed: where SpEED has a value (speed_temporal's
      // first frame, 0, on a clip of one frame) exactvq gives it; elsewhere it
      // exits 234 (libvmaf crashes) naming the feature and the plane's size, with no report.
      if (std::string(feature) == "speed_temporal" && f.at("frames_in_files").get<int>() == 1) {
        ASSERT_EQ(r.status, 0) << what << describe(r);
        const Report got = parse_json(read_file(path("out.json")));
        ASSERT_EQ(got.values.at("speed_temporal").size(), 1u) << what;
        EXPECT_EQ(bits(got.values.at("speed_temporal")[0]), bits(0.0)) << what;
        ++first_frame_only;
        continue;
      }
      EXPECT_EQ(r.status, kExitPicture) << what << describe(r);
      EXPECT_NE(r.err.find(feature), std::string::npos) << what << describe(r);
      EXPECT_NE(r.err.find("too small"), std::string::npos) << what << describe(r);
      EXPECT_FALSE(fs::exists(path("out.json"))) << what;
      ++refused;
    }
  }
  std::printf(
      "speed catalogue: %d runs, %d per-frame and %d pooled values compared, %d differing; %d "
      "refusals; %d one-frame speed_temporal runs libvmaf failed on given their 0\n",
      runs, compared, compared_pooled, differing, refused, first_frame_only);
  EXPECT_EQ(differing, 0);
  EXPECT_EQ(runs, 29);
  EXPECT_EQ(refused, 12);
  EXPECT_EQ(first_frame_only, 1);
}

struct OracleCase {
  int w, h;
  ChromaFormat chroma;
  int bitdepth, frames;
  std::vector<std::string> features;
  std::vector<std::string> extra;  // further arguments for both programs
  bool raw = false;                // raw YUV (libvmaf reads no 8-bit 4:2:2 Y4M)
};

TEST_F(SpeedCli, RandomClipsEqualTheOracle) {
  if (!fs::exists(testing_vectors::kLibvmafBinary)) {
    std::printf("no libvmaf binary at %s: speed oracle skipped\n",
                testing_vectors::kLibvmafBinary.c_str());
    GTEST_SKIP() << "no libvmaf binary at " << testing_vectors::kLibvmafBinary;
  }
  const std::vector<std::string> chroma_options{
      "speed_chroma",
      "speed_chroma=speed_max_val=45:speed_nn_floor=0.1:speed_sigma_nn=0.19:speed_weight_var_mode="
      "5",
      "speed_chroma=speed_kernelscale=2:speed_weight_var_mode=3",
      "speed_chroma=speed_kernelscale=0.5:speed_weight_var_mode=1",
      "speed_chroma=speed_weight_var_mode=2:speed_max_val=2",
      "speed_chroma=speed_weight_var_mode=4:speed_kernelscale=1.5",
      "speed_chroma=speed_weight_var_mode=6:speed_sigma_nn=1.2",
      "speed_chroma=speed_prescale=2",
      "speed_chroma=speed_prescale=1.5:speed_prescale_method=bilinear",
      "speed_chroma=speed_prescale=0.8:speed_prescale_method=bicubic",
      "speed_chroma=speed_prescale=1.3:speed_prescale_method=lanczos4",
      "speed_chroma=speed_prescale=1.7:speed_prescale_method=bicubic",
      "speed_chroma=speed_prescale=0.75",
      "speed_chroma=speed_kernelscale=3:speed_prescale=2.5:speed_prescale_method=bilinear",
  };
  const std::vector<std::string> temporal_options{
      "speed_temporal",
      "speed_temporal=speed_use_ref_diff=true",
      "speed_temporal=speed_prescale=0.7:speed_prescale_method=bicubic:speed_sigma_nn=0.5",
      "speed_temporal=speed_kernelscale=3.7113402:speed_nn_floor=0.3",
      "speed_temporal=speed_prescale=0.6:speed_prescale_method=lanczos4",
      "speed_temporal=speed_prescale=0.5:speed_prescale_method=bilinear:speed_max_val=1",
      "speed_temporal=speed_kernelscale=0.6666667:speed_prescale=0.9",
  };
  std::vector<std::string> every = chroma_options;
  every.insert(every.end(), temporal_options.begin(), temporal_options.end());
  // Every kernel scale libvmaf takes, both features (libvmaf runs at most 32
  // features at once: two runs).
  std::vector<std::string> scales[2];
  const char* const kernelscales[] = {
      "0.5",       "1.5",  "2",         "0.6666667", "2.4",     "3.7113402", "1.3333333",
      "1.1666667", "1.25", "1.4166667", "1.6666667", "3",       "0.4444444", "1.4746",
      "1.54",      "1.6",  "1.06667",   "0.711111",  "0.74074", "1.111111"};
  for (size_t k = 0; k < std::size(kernelscales); ++k)
    for (const char* feature : {"speed_chroma", "speed_temporal"})
      scales[k % 2].push_back(fmt::format("{}=speed_kernelscale={}", feature, kernelscales[k]));
  const std::vector<OracleCase> cases{
      {160, 160, ChromaFormat::k420, 8, 3, every, {}},
      {334, 250, ChromaFormat::k420, 10, 3, every, {}},
      {176, 150, ChromaFormat::k422, 8, 3, every, {}, true},
      {250, 190, ChromaFormat::k422, 10, 3, {"speed_chroma", "speed_temporal"}, {}},
      {201, 123, ChromaFormat::k444, 8, 4, every, {}},
      {96, 120, ChromaFormat::k444, 12, 3, {"speed_chroma", "speed_temporal"}, {}},
      {130, 98, ChromaFormat::k444, 16, 3, {"speed_chroma", "speed_temporal"}, {}, true},
      {420, 262, ChromaFormat::k420, 8, 3, {"speed_chroma", "speed_temporal"}, {}},
      {170, 170, ChromaFormat::k444, 8, 3, scales[0], {}},
      {170, 170, ChromaFormat::k444, 10, 3, scales[1], {}},
      // Started inside the video: the first frame scored is 0 again, in both programs.
      {200,
       180,
       ChromaFormat::k420,
       8,
       5,
       {"speed_chroma", "speed_temporal", temporal_options[1]},
       {"--frame_skip_ref", "2", "--frame_skip_dist", "2"}},
      {200,
       180,
       ChromaFormat::k444,
       10,
       5,
       {"speed_temporal"},
       {"--frame_skip_ref", "1", "--frame_skip_dist", "1"}},
  };
  // Only the specs SpEED scores at each size (libvmaf crashes on the others).
  const auto scoreable = [](const VideoFormat& f, const std::string& text) {
    const FeatureSpec spec = parse_feature_spec(text);
    const bool chroma = spec.name == "speed_chroma";
    const speed::SpeedOptions o = speed::parse_speed_options(
        chroma ? speed::Feature::kChroma : speed::Feature::kTemporal, spec);
    try {
      speed::check_scoreable(o, chroma ? speed::chroma_width(f) : f.width,
                             chroma ? speed::chroma_height(f) : f.height);
    } catch (const InputError&) {
      return false;
    }
    return true;
  };
  uint32_t seed = 1000;
  int skipped = 0, no_opencl = 0;
  for (const OracleCase& oc : cases) {
    const VideoFormat f = make_format(oc.w, oc.h, oc.chroma, oc.bitdepth);
    OracleCase c = oc;
    c.features.clear();
    for (const std::string& spec : oc.features)
      if (scoreable(f, spec))
        c.features.push_back(spec);
      else
        ++skipped;
    ASSERT_FALSE(c.features.empty()) << f.describe();
    const std::string what = f.describe();
    const auto file = [&](const std::string& name, uint32_t clip_seed, bool distorted) {
      const auto frames = speed::testing::random_frames(f, c.frames, clip_seed, distorted);
      return c.raw ? write(name + ".yuv", raw_bytes(f, frames))
                   : write(name + ".y4m", y4m_bytes(f, frames));
    };
    const std::string ref = file("ref", seed, false), dist = file("dist", seed + 1, true);
    if (c.raw)
      c.extra.insert(c.extra.end(),
                     {"-w", std::to_string(f.width), "-h", std::to_string(f.height), "-p",
                      chroma_name(f.chroma), "-b", std::to_string(f.bitdepth)});
    seed += 2;
    std::string cmd = fmt::format("VMAF_JSON_FULL_PRECISION=1 '{}' -r '{}' -d '{}'",
                                  testing_vectors::kLibvmafBinary.string(), ref, dist);
    for (const std::string& feature : c.features) cmd += fmt::format(" --feature '{}'", feature);
    for (const std::string& e : c.extra) cmd += " " + e;
    cmd += fmt::format(" --no_prediction --cpumask 0xffffffff --json -o '{}' -q >/dev/null 2>&1",
                       path("libvmaf.json"));
    ASSERT_EQ(std::system(cmd.c_str()), 0) << what << ": " << cmd;
    const nlohmann::json want = read_json(path("libvmaf.json"));
    const RunResult r = run_exactvq({"-r", ref, "-d", dist}, c.features, c.extra);
    ASSERT_EQ(r.status, 0) << what << describe(r);
    compare(what, want.at("frames"), &want.at("pooled_metrics"));
    // The same through the OpenCL engines, where this machine has an OpenCL device.
    std::vector<std::string> on_opencl = c.extra;
    on_opencl.insert(on_opencl.end(), {"--backend", "opencl"});
    const RunResult o = run_exactvq({"-r", ref, "-d", dist}, c.features, on_opencl);
    if (o.status != 0 && o.err.find("OpenCL") != std::string::npos &&
        o.err.find("device") != std::string::npos && o.err.find("speed") == std::string::npos) {
      ++no_opencl;
      continue;
    }
    ASSERT_EQ(o.status, 0) << what << " --backend opencl" << describe(o);
    compare(what + " --backend opencl", want.at("frames"), &want.at("pooled_metrics"));
  }
  std::printf(
      "speed oracle (CPU, then OpenCL): %d per-frame and %d pooled values compared, %d "
      "differing; %d specs left out where the picture is too small for them; %d clips without an "
      "OpenCL device\n",
      compared, compared_pooled, differing, skipped, no_opencl);
  EXPECT_EQ(differing, 0);
}

// Pictures without a value: exit 234 naming the feature and size (or depth, or layout), and
// no output.
TEST_F(SpeedCli, RefusalsNameWhatAndLeaveNoOutput) {
  const VideoFormat small = make_format(150, 160);
  const std::string ref = write_y4m("ref.y4m", small, 2, 0),
                    dist = write_y4m("dist.y4m", small, 2, 1);
  expect_refused({"-r", ref, "-d", dist, "--feature", "speed_chroma"}, kExitPicture,
                 {"speed_chroma", "75x80", "too small"});
  expect_refused({"-r", ref, "-d", dist, "--feature", "speed_temporal=speed_prescale=0.4"},
                 kExitPicture, {"speed_temporal", "150x160", "too small"});
  expect_refused({"-r", ref, "-d", dist, "--feature", "speed_chroma=speed_kernelscale=1.3"},
                 kExitFailure, {"speed_chroma", "speed_kernelscale=1.3"});
  // speed_temporal with --subsample: libvmaf compares with the frame scored before.
  const VideoFormat big = make_format(160, 160);
  const std::string rb = write_y4m("refb.y4m", big, 4, 0), db = write_y4m("distb.y4m", big, 4, 1);
  expect_refused({"-r", rb, "-d", db, "--feature", "speed_temporal", "--subsample", "3"},
                 kExitFailure, {"speed_temporal", "--subsample 3"});
  const VideoFormat nine = make_format(200, 200, ChromaFormat::k420, 9);
  const std::string r9 = write("ref9.yuv", raw_bytes(nine, make_frames(nine, 2, 0)));
  const std::string d9 = write("dist9.yuv", raw_bytes(nine, make_frames(nine, 2, 1)));
  // Found while scoring (speed_temporal, from its second frame) or as the feature is set up
  // (speed_chroma): the same status.
  for (const char* feature : {"speed_temporal", "speed_chroma"})
    expect_refused({"-r", r9, "-d", d9, "-w", "200", "-h", "200", "-p", "420", "-b", "9",
                    "--feature", feature},
                   kExitPicture, {feature, "9-bit"});
  // libvmaf writes past its frame buffers (and aborts) where the prescaled plane is taller,
  // and filters samples it never wrote within 1e-3 of 1.
  expect_refused({"-r", rb, "-d", db, "--feature", "speed_temporal=speed_prescale=2"}, kExitPicture,
                 {"speed_temporal", "speed_prescale=2", "rows high"});
  const VideoFormat wide = make_format(600, 160);
  const std::string rw = write_y4m("refw.y4m", wide, 2, 0), dw = write_y4m("distw.y4m", wide, 2, 1);
  expect_refused({"-r", rw, "-d", dw, "--feature", "speed_temporal=speed_prescale=1.0009"},
                 kExitPicture, {"speed_temporal", "within 1e-3 of 1"});
  const VideoFormat mono = make_format(200, 200, ChromaFormat::kMono);
  const std::string rm = write_y4m("refm.y4m", mono, 2, 0), dm = write_y4m("distm.y4m", mono, 2, 1);
  expect_refused({"-r", rm, "-d", dm, "--feature", "speed_chroma"}, kExitPicture,
                 {"speed_chroma", "4:0:0"});
}

}  // namespace
}  // namespace exactvq::clitest
