// FFmpeg 5.1's libvmaf filter (vf_libvmaf.c, the model-collection era of the
// API) on exactvq's libvmaf.so.3: `ffmpeg -i DIST -i REF -lavfi libvmaf=...`
// writes libvmaf's plain-C values in its JSON log and its "VMAF score:" line, and
// the same numbers as exactvq's command line with the same options.
//
// The log and the line print six decimals (vmaf_write_output and FFmpeg's "%f",
// as upstream's), so a value is compared as the six-decimal rounding of the stored
// plain-C double; the bits behind them are libvmaf_api_tests' (same library, same
// calls).
//
// Building FFmpeg takes minutes, more than CI's budget: the cases skip unless
// EXACTVQ_FFMPEG names an ffmpeg built by tools/ffmpeg/build_ffmpeg.sh (against
// any libvmaf.so.3: the test runs it on this build tree's through
// LD_LIBRARY_PATH). EXACTVQ_FFQM names an ffmpeg-quality-metrics (3.5.x, the last
// to drive FFmpeg before 7.1) for the client case.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "command_output.h"

namespace exactvq::ffmpeg_test {
namespace {

namespace fs = std::filesystem;
using testing_commands::command_output;
using Json = nlohmann::json;

std::string env(const char* name) {
  const char* v = std::getenv(name);
  return v ? v : "";
}

#define REQUIRE_FFMPEG()                                                                       \
  if (env("EXACTVQ_FFMPEG").empty())                                                           \
  GTEST_SKIP() << "EXACTVQ_FFMPEG is not set: build FFmpeg with tools/ffmpeg/build_ffmpeg.sh " \
                  "and point EXACTVQ_FFMPEG to its bin/ffmpeg"

fs::path vectors_dir() { return fs::path(EXACTVQ_SHARED_DIR) / "vectors"; }

fs::path tmp_dir() {
  const fs::path dir = fs::path(EXACTVQ_TEST_TMP) / "ffmpeg_libvmaf";
  fs::create_directories(dir);
  return dir;
}

// Runs FFmpeg's libvmaf filter with exactvq's library on DIST (main input) and
// REF; returns what FFmpeg printed (standard error included).
std::string run_ffmpeg(const fs::path& dist, const fs::path& ref, const std::string& options) {
  const std::string cmd = std::string("LD_LIBRARY_PATH='") + EXACTVQ_LIBVMAF_DIR + "' '" +
                          env("EXACTVQ_FFMPEG") + "' -nostdin -hide_banner -i '" + dist.string() +
                          "' -i '" + ref.string() + "' -lavfi 'libvmaf=" + options +
                          "' -f null - 2>&1";
  return command_output(cmd);
}

Json read_json(const fs::path& path) {
  std::ifstream in(path);
  if (!in) {
    ADD_FAILURE() << "no " << path;
    return Json::object();
  }
  return Json::parse(in);
}

// The number FFmpeg's "VMAF score: %f" line printed; NaN when absent.
double vmaf_score_line(const std::string& out) {
  const std::string tag = "VMAF score: ";
  const size_t at = out.rfind(tag);
  if (at == std::string::npos) return std::nan("");
  return std::strtod(out.c_str() + at + tag.size(), nullptr);
}

// `v` as libvmaf's "%.6f" prints it, read back.
double six_decimals(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.6f", v);
  return std::strtod(buf, nullptr);
}

// "frame I KEY" / "pooled KEY METHOD" -> value, from a libvmaf JSON (the stored
// runs, FFmpeg's log and exactvq's --json all share the frame layout).
using Values = std::map<std::string, double>;

Values log_values(const Json& doc, const char* pooled_key = "pooled_metrics") {
  Values v;
  for (const auto& frame : doc["frames"]) {
    const int i = frame["frameNum"];
    const Json& metrics = frame.contains("metrics") ? frame["metrics"] : frame;
    for (const auto& [key, value] : metrics.items())
      if (key != "frameNum" && value.is_number())
        v["frame " + std::to_string(i) + " " + key] = value.get<double>();
  }
  if (doc.contains(pooled_key))
    for (const auto& [key, methods] : doc[pooled_key].items())
      for (const auto& [method, value] : methods.items())
        if (value.is_number()) v["pooled " + key + " " + method] = value.get<double>();
  return v;
}

// Counts the keys of `want` that `got` holds with the six-decimal value of
// `want`'s; the others are listed in `differences`.
size_t count_equal(const Values& want, const Values& got, std::string& differences) {
  size_t equal = 0;
  for (const auto& [key, value] : want) {
    const auto it = got.find(key);
    if (it == got.end()) continue;
    if (it->second == six_decimals(value))
      ++equal;
    else
      differences +=
          "  " + key + ": " + std::to_string(it->second) + " vs " + std::to_string(value) + "\n";
  }
  return equal;
}

struct StoredPair {
  std::string name;
  int bits;
  std::string chroma;  // 420, 422 or 444
  Json runs;
};

// The public Y4M pairs of 576x324 with a plain-C VMAF run that succeeded.
std::vector<StoredPair> stored_pairs() {
  std::vector<StoredPair> pairs;
  std::ifstream in(vectors_dir() / "libvmaf_vmaf_scores.json");
  if (!in) return pairs;
  const Json doc = Json::parse(in);
  for (const auto& [name, entry] : doc["pairs"].items()) {
    const auto& format = entry["format"];
    if (format["file_type"] != "y4m" || format["width"] != 576 || format["height"] != 324) continue;
    if (entry["runs"]["vmaf_v0.6.1_nosimd"]["rc"] != 0) continue;
    pairs.push_back(
        {name, format["bitdepth"].get<int>(), format["chroma"].get<std::string>(), entry["runs"]});
  }
  return pairs;
}

// FFmpeg 5.1's vf_libvmaf copies W bytes of each row, half a row above 8 bits;
// tools/ffmpeg/build_ffmpeg.sh applies FFmpeg 6.0's fix and marks the version
// "-vmafcopy". Without it, pictures above 8 bits are not the files' and are left out.
bool copies_whole_rows() {
  std::string cmd = "'";
  cmd += env("EXACTVQ_FFMPEG") + "' -hide_banner -version";
  static const bool fixed = command_output(cmd).find("-vmafcopy") != std::string::npos;
  return fixed;
}

bool left_out(const StoredPair& pair) {
  if (pair.bits == 8 || copies_whole_rows()) return false;
  std::printf(
      "%s left out: this FFmpeg 5.1 copies half of each row above 8 bits (build it with "
      "tools/ffmpeg/build_ffmpeg.sh without FFMPEG_AS_DEBIAN)\n",
      pair.name.c_str());
  return true;
}

}  // namespace

// The ffmpeg under test loads this build tree's libvmaf.so.3, not the one it was
// linked against.
TEST(FfmpegLibvmaf, LoadsThisBuildsLibrary) {
  REQUIRE_FFMPEG();
  const std::string out = command_output(std::string("LD_LIBRARY_PATH='") + EXACTVQ_LIBVMAF_DIR +
                                         "' ldd '" + env("EXACTVQ_FFMPEG") + "'");
  const size_t at = out.find("libvmaf.so.3 => ");
  ASSERT_NE(at, std::string::npos) << out;
  const std::string path = out.substr(at + 16, out.find(' ', at + 16) - at - 16);
  EXPECT_EQ(fs::canonical(path), fs::canonical(fs::path(EXACTVQ_LIBVMAF_DIR) / "libvmaf.so.3"))
      << out;
}

// model=version=vmaf_v0.6.1 (FFmpeg's default) on every public 576x324 pair of 8
// and 10 bits (4:2:0, 4:2:2, 4:4:4), with n_threads 0 and 3: every per-frame
// value and pooled value of the log, and the "VMAF score:" line, are libvmaf's
// plain C (libvmaf_vmaf_scores.json's vmaf_v0.6.1_nosimd run). FFmpeg 5.1's
// filter takes 8 and 10 bits only (12 bits: the next case).
TEST(FfmpegLibvmaf, VectorPairsGiveLibvmafsPlainCValues) {
  REQUIRE_FFMPEG();
  const auto pairs = stored_pairs();
  if (pairs.empty()) GTEST_SKIP() << "no " << vectors_dir().string();
  size_t total = 0;
  for (const int threads : {0, 3}) {
    for (const auto& pair : pairs) {
      if (pair.bits > 10 || left_out(pair)) continue;
      const fs::path dir = vectors_dir() / pair.name;
      const fs::path log = tmp_dir() / (pair.name + "_" + std::to_string(threads) + ".json");
      fs::remove(log);
      const std::string out =
          run_ffmpeg(dir / "dist.y4m", dir / "ref.y4m",
                     "model=version=vmaf_v0.6.1:log_fmt=json:n_threads=" + std::to_string(threads) +
                         ":log_path=" + log.string());
      const Values got = log_values(read_json(log));
      const Values want = log_values(pair.runs["vmaf_v0.6.1_nosimd"], "pooled");
      ASSERT_TRUE(got.count("frame 0 vmaf")) << pair.name << "\n" << out;
      for (const auto& [key, value] : got) EXPECT_TRUE(want.count(key)) << pair.name << " " << key;
      std::string differences;
      const size_t equal = count_equal(want, got, differences);
      EXPECT_EQ(equal, got.size()) << pair.name << " (n_threads " << threads << ")\n"
                                   << differences;
      EXPECT_EQ(vmaf_score_line(out), six_decimals(want.at("pooled vmaf mean")))
          << pair.name << "\n"
          << out;
      total += equal + 1;
    }
  }
  std::printf("FFmpeg's libvmaf filter: %zu values equal libvmaf's plain C (six decimals)\n",
              total);
  RecordProperty("values_equal", int(total));
}

// Above 10 bits FFmpeg 5.1 converts the pictures to 10 bits before its libvmaf
// filter (which lists no other formats): the log holds what exactvq's command
// line writes for the files that FFmpeg converts the same way.
TEST(FfmpegLibvmaf, AboveTenBitsScoresFfmpegsConversion) {
  REQUIRE_FFMPEG();
  const auto pairs = stored_pairs();
  if (pairs.empty()) GTEST_SKIP() << "no " << vectors_dir().string();
  size_t total = 0, runs = 0;
  for (const auto& pair : pairs) {
    if (pair.bits <= 10 || left_out(pair)) continue;
    const fs::path dir = vectors_dir() / pair.name;
    const fs::path ref10 = tmp_dir() / (pair.name + "_ref10.y4m");
    const fs::path dist10 = tmp_dir() / (pair.name + "_dist10.y4m");
    for (const auto& [in, out] : {std::pair{dir / "ref.y4m", ref10}, {dir / "dist.y4m", dist10}}) {
      std::string convert = "'";
      convert += env("EXACTVQ_FFMPEG") + "' -nostdin -v error -y -i '" + in.string() +
                 "' -pix_fmt yuv" + pair.chroma + "p10le -strict -1 -f yuv4mpegpipe '" +
                 out.string() + "'";
      command_output(convert);
    }
    const fs::path log = tmp_dir() / (pair.name + "_10.json");
    const fs::path cli = tmp_dir() / (pair.name + "_10_cli.json");
    fs::remove(log);
    const std::string out =
        run_ffmpeg(dir / "dist.y4m", dir / "ref.y4m", "log_fmt=json:log_path=" + log.string());
    command_output(std::string("'") + EXACTVQ_CLI_PATH + "' -r '" + ref10.string() + "' -d '" +
                   dist10.string() + "' --json -o '" + cli.string() + "' -q");
    const Values got = log_values(read_json(log));
    const Values want = log_values(read_json(cli));
    ASSERT_TRUE(got.count("frame 0 vmaf")) << pair.name << "\n" << out;
    size_t same = 0;
    for (const auto& [key, value] : want) same += got.count(key) && got.at(key) == value;
    EXPECT_EQ(got.size(), want.size()) << pair.name;
    EXPECT_EQ(same, want.size()) << pair.name;
    EXPECT_EQ(vmaf_score_line(out), want.at("pooled vmaf mean")) << pair.name;
    total += same;
    ++runs;
  }
  if (runs == 0) GTEST_SKIP() << "no pair above 10 bits";
  std::printf(
      "FFmpeg above 10 bits: %zu values of %zu pairs equal the command line's on FFmpeg's "
      "10-bit conversion\n",
      total, runs);
}

// A model by path, features (psnr, float_ssim), n_threads and n_subsample as
// FFmpeg passes them: the log holds what exactvq's command line writes for the
// same options, and the VMAF and float_ssim of the frames scored are libvmaf's.
TEST(FfmpegLibvmaf, OptionsGiveTheCommandLinesValues) {
  REQUIRE_FFMPEG();
  const auto pairs = stored_pairs();
  if (pairs.empty()) GTEST_SKIP() << "no " << vectors_dir().string();
  const std::string model = std::string(EXACTVQ_MODELS_DIR) + "/vmaf_v0.6.1.json";
  size_t total = 0, stored = 0;
  for (const auto& pair : pairs) {
    if (pair.name != "p8_420_576x324_testsrc2_x264" && pair.name != "p10_420_576x324_testsrc2_x264")
      continue;
    if (left_out(pair)) continue;
    const fs::path dir = vectors_dir() / pair.name;
    const fs::path log = tmp_dir() / (pair.name + "_options.json");
    const fs::path cli = tmp_dir() / (pair.name + "_options_cli.json");
    fs::remove(log);
    const std::string out =
        run_ffmpeg(dir / "dist.y4m", dir / "ref.y4m",
                   "model=path=" + model + ":feature=name=psnr|name=float_ssim" +
                       ":n_threads=2:n_subsample=2:log_fmt=json:log_path=" + log.string());
    command_output(std::string("'") + EXACTVQ_CLI_PATH + "' -r '" + (dir / "ref.y4m").string() +
                   "' -d '" + (dir / "dist.y4m").string() + "' --model path=" + model +
                   " --feature psnr --feature float_ssim --threads 2 --subsample 2 --json -o '" +
                   cli.string() + "' -q");
    const Values got = log_values(read_json(log));
    const Values want = log_values(read_json(cli));
    ASSERT_TRUE(got.count("frame 0 psnr_y") && got.count("frame 0 float_ssim")) << out;
    size_t same = 0;
    for (const auto& [key, value] : want) same += got.count(key) && got.at(key) == value;
    EXPECT_EQ(got.size(), want.size()) << pair.name;
    EXPECT_EQ(same, want.size()) << pair.name;
    EXPECT_EQ(vmaf_score_line(out), want.at("pooled vmaf mean")) << pair.name;
    EXPECT_FALSE(got.count("frame 1 vmaf")) << "n_subsample=2 scored frame 1";
    total += same;

    // Frames 0 and 2 against the stored plain-C runs.
    Values stored_values = log_values(pair.runs["vmaf_v0.6.1_nosimd"], "pooled");
    for (const auto& [key, value] : log_values(pair.runs["float_ssim_ms_ssim"], "pooled"))
      stored_values[key] = value;
    for (const char* key : {"frame 0 vmaf", "frame 2 vmaf", "frame 0 float_ssim",
                            "frame 2 float_ssim", "frame 0 integer_adm2"}) {
      ASSERT_TRUE(got.count(key)) << pair.name << " " << key;
      EXPECT_EQ(got.at(key), six_decimals(stored_values.at(key))) << pair.name << " " << key;
      stored += got.at(key) == six_decimals(stored_values.at(key));
    }
  }
  std::printf(
      "FFmpeg with model path, features, threads, subsample: %zu values equal the "
      "command line's; %zu equal libvmaf's plain C\n",
      total, stored);
}

// ffmpeg-quality-metrics (a Python client that builds FFmpeg filter graphs) with
// that ffmpeg first on PATH: its per-frame VMAF features are libvmaf's.
TEST(FfmpegLibvmaf, QualityMetricsClientReportsLibvmafsValues) {
  REQUIRE_FFMPEG();
  if (env("EXACTVQ_FFQM").empty())
    GTEST_SKIP() << "EXACTVQ_FFQM is not set: pip install 'ffmpeg-quality-metrics==3.5.3' in a "
                    "venv and point EXACTVQ_FFQM to its bin/ffmpeg-quality-metrics";
  const auto pairs = stored_pairs();
  if (pairs.empty()) GTEST_SKIP() << "no " << vectors_dir().string();
  const fs::path bin = fs::path(env("EXACTVQ_FFMPEG")).parent_path();
  size_t total = 0;
  for (const auto& pair : pairs) {
    if (pair.name != "p8_420_576x324_testsrc2_x264" && pair.name != "p10_422_576x324_testsrc2_x264")
      continue;
    if (left_out(pair)) continue;
    const fs::path dir = vectors_dir() / pair.name;
    const std::string out = command_output(
        "PATH='" + bin.string() + "':\"$PATH\" LD_LIBRARY_PATH='" + EXACTVQ_LIBVMAF_DIR + "' '" +
        env("EXACTVQ_FFQM") + "' '" + (dir / "dist.y4m").string() + "' '" +
        (dir / "ref.y4m").string() + "' -m vmaf -of json 2>/dev/null");
    const Json doc = Json::parse(out);
    Values got;
    for (const auto& frame : doc["vmaf"]) {
      const int i = frame["n"].get<int>() - 1;  // the client numbers frames from 1
      for (const auto& [key, value] : frame.items())
        if (key != "n") got["frame " + std::to_string(i) + " " + key] = value.get<double>();
    }
    const Values want = log_values(pair.runs["vmaf_v0.6.1_nosimd"], "pooled");
    ASSERT_EQ(doc["vmaf"].size(), pair.runs["vmaf_v0.6.1_nosimd"]["frames"].size()) << out;
    std::string differences;
    const size_t equal = count_equal(want, got, differences);
    EXPECT_EQ(equal, got.size()) << pair.name << "\n" << differences;
    total += equal;
  }
  std::printf("ffmpeg-quality-metrics: %zu values equal libvmaf's plain C (six decimals)\n", total);
}

}  // namespace exactvq::ffmpeg_test
