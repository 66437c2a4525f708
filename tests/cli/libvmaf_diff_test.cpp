// exactvq as a drop-in for libvmaf's `vmaf`: the same argument vectors given to both
// (libvmaf's plain C, --cpumask 0xffffffff, full-precision JSON), their exit statuses
// compared (equal wherever libvmaf's is non-zero: 1 usage, 234 its flush's -EINVAL, 255
// its -1) and their reports field by field (all but version and fps). Skipped where the
// libvmaf binary is absent.
//
// A case that needs a feature this build does not register (kNotYetRegistered below
// names them; the cases say which they need) is checked to be refused with the clear
// error naming that feature; once the feature is registered, the case is compared.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <pugixml.hpp>

#include "cli/cli_fixture.h"
#include "libvmaf_vmaf_vectors.h"
#include "metrics/registry.h"

namespace exactvq::clitest {
namespace {

namespace fs = std::filesystem;
using Fields = std::map<std::string, std::string>;  // "frame 3 psnr_y" -> "26.38..."

// Where exactvq deliberately differs from libvmaf: exactvq refuses with a message
// containing `needle` and exit status `status` where libvmaf goes on (exits 0) or
// crashes (README, "Differences from libvmaf").
struct Difference {
  const char* needle;
  const char* why;
  int status;
};

struct Case {
  std::string name;
  std::string input;              // a public pair, "sample", a seeded file: inputs() below
  std::vector<std::string> args;  // besides -r, -d (and -o {out} where a report is wanted)
  bool report = true;             // -o {out} added
  std::vector<std::string> needs = {};
  std::optional<Difference> difference = std::nullopt;
};

// The features libvmaf's presets score that exactvq does not yet register (others are
// writing them); a case needing one is an expected refusal until it is registered.
// This is the one list: a case's `needs` names which of these it uses.
const std::vector<std::string> kNotYetRegistered = {"ciede", "psnr_hvs", "cambi"};

const std::vector<std::string> kAom1 = {"ciede", "psnr_hvs"};
const std::vector<std::string> kAom3 = {"ciede", "psnr_hvs", "cambi"};

std::vector<Case> cases() {
  std::vector<Case> c = {
      {"DefaultXml", "sample", {}},
      {"Json", "sample", {"--json"}},
      {"Csv", "sample", {"--csv"}},
      {"Sub", "sample", {"--sub"}},
      {"LastFormatWins", "sample", {"--json", "--csv"}},
      {"Quiet", "sample", {"-q", "--json"}},
      {"ModelNeg", "sample", {"-m", "version=vmaf_v0.6.1neg", "--json"}},
      {"Model4k", "p8", {"--model", "version=vmaf_4k_v0.6.1", "--json"}},
      {"ModelDisableClip", "sample", {"-m", "version=vmaf_v0.6.1:disable_clip", "--json"}},
      {"ModelBootstrap", "sample", {"-m", "version=vmaf_b_v0.6.3", "--json"}},
      {"TwoModelsNamed",
       "sample",
       {"-m", "version=vmaf_v0.6.1:name=a", "-m", "version=vmaf_v0.6.1neg:name=b", "--json"}},
      {"TwoModelsUnnamed", "sample", {"-m", "version=vmaf_v0.6.1", "-m", "version=vmaf_v0.6.1neg"}},
      {"UnknownModel", "sample", {"-m", "version=vmaf_v9"}},
      {"FeatureBesideDefaultModel", "sample", {"--feature", "psnr", "--json"}},
      {"FeatureAlone", "sample", {"--feature", "psnr", "-n", "--json"}},
      {"FeatureAloneLongFlag", "sample", {"--feature", "psnr", "--no_prediction", "--csv"}},
      {"PsnrOptions",
       "p10_422",
       {"--feature", "psnr=enable_chroma=false:enable_apsnr=true:enable_mse=true", "-n", "--json"}},
      {"PsnrHbdPeak",
       "p10_422",
       {"--feature", "psnr=reduced_hbd_peak=true:min_sse=0.5", "-n", "--json"}},
      {"FloatSsimDb", "sample", {"--feature", "float_ssim=enable_db=true:clip_db=true", "--json"}},
      {"FloatSsimScale", "p8", {"--feature", "float_ssim=scale=1", "-n", "--json"}},
      {"FloatMsSsim", "p8", {"--feature", "float_ms_ssim=enable_db=true", "-n", "--json"}},
      {"ModelFeatures",
       "sample",
       {"--feature", "vif", "--feature", "adm", "--feature", "motion", "-n", "--json"}},
      {"ModelPlusFeatureOptions",
       "p8",
       {"--feature", "vif=vif_enhn_gain_limit=1.0", "-m", "version=vmaf_v0.6.1neg", "--json"}},
      {"FrameCount", "sample", {"--frame_cnt", "2", "--json"}},
      {"FrameCountZero", "sample", {"--frame_cnt", "0", "--json"}},
      {"FrameSkips", "sample", {"--frame_skip_ref", "1", "--frame_skip_dist", "1", "--json"}},
      {"Subsample", "sample", {"--subsample", "2", "--json"}},
      {"SubsampleCsv", "p8", {"--subsample", "3", "--feature", "psnr", "--csv"}},
      {"Threads", "p8", {"--threads", "3", "--json"}},
      {"RepeatedThreadsLastWins", "sample", {"--threads", "4", "--threads", "0", "--json"}},
      {"RepeatedFrameCountLastWins", "sample", {"--frame_cnt", "1", "--frame_cnt", "0x2", "--csv"}},
      {"RepeatedFeature", "sample", {"--feature", "psnr", "--feature", "psnr", "-n", "--json"}},
      {"GetoptForms", "sample", {"--feature=float_ssim", "-nq", "--subsample=2", "--json"}},
      {"IgnoredDashC", "sample", {"-c", "5", "--feature", "psnr", "-n", "--csv"}},
      {"FeatureBesideNamedModels",
       "sample",
       {"--feature", "float_ssim", "-m", "version=vmaf_v0.6.1:name=x", "-m",
        "version=vmaf_v0.6.1neg", "--json"}},
      {"LongOptionNames",
       "sample",
       {"--reference", "{ref}", "--distorted", "{dist}", "--model", "version=vmaf_v0.6.1neg",
        "--quiet", "--json"}},
      {"PresetWithModelOfTheSameName",
       "p8",
       {"--aom_ctc", "v1.0", "-m", "version=vmaf_v0.6.1"},
       false,
       kAom1},
      {"PresetsTwice", "p8", {"--nflx_ctc", "v1.0", "--nflx_ctc", "v1.0"}, false, {"cambi"}},
      {"Masks", "sample", {"--cpumask", "0xffffffff", "--gpumask", "0", "--json"}},
      {"BadMask",
       "sample",
       {"--cpumask", "avx"},
       false,
       {},
       Difference{"--cpumask avx", "libvmaf aborts (an assertion in its error message)",
                  kExitUsage}},
      {"RawYuv", "raw", {"-w", "64", "-h", "48", "-p", "420", "-b", "8", "--json"}},
      {"RawYuvLongFlags",
       "raw",
       {"--width", "64", "--height", "48", "--pixel_format", "420", "--bitdepth", "8", "--xml"}},
      {"RawYuvMissingBitdepth", "raw", {"-w", "64", "-h", "48", "-p", "420"}, false},
      {"RawYuvBadPixelFormat", "raw", {"-w", "64", "-h", "48", "-p", "411", "-b", "8"}, false},
      {"Y4mWith422", "p10_422", {"--xml"}},
      {"Y4mWith444", "p8_444", {"--feature", "psnr", "--json"}},
      {"TwelveBits", "p12", {"--feature", "psnr=enable_apsnr=true", "--json"}},
      {"SixteenBitsRaw",
       "p16",
       {"-w", "576", "-h", "324", "-p", "420", "-b", "16", "--feature", "float_ssim", "--csv"}},
      {"SizesDiffer", "sizes_differ", {"--json"}},
      {"MissingReferenceFile", "missing", {"--json"}},
      {"NoDistorted", "no_dist", {}, false},
      {"UnknownFeature", "sample", {"--feature", "bogus"}, false},
      {"UnknownFeatureOption",
       "sample",
       {"--feature", "psnr=bogus=1"},
       false,
       {},
       Difference{"unknown option 'bogus'", "libvmaf ignores an option its feature lacks",
                  kExitFailure}},
      {"Version", "none", {"-v"}, false},
      {"AomCtcUnknownVersion", "sample", {"--aom_ctc", "v8.0"}, false},
      {"NflxCtcUnknownVersion", "sample", {"--nflx_ctc", "v2.0"}, false},
      {"NflxCtc", "p8", {"--nflx_ctc", "v1.0", "--json"}, true, {"cambi"}},
      {"AomCtcMixedDepth",
       "mixed_depth",
       {"--aom_ctc", "v6.0", "--json"},
       true,
       kAom3,
       Difference{"bit depths differ",
                  "libvmaf reads the 8-bit input's bytes as 10-bit samples (common_bitdepth)",
                  kExitFailure}},
      // exactvq refuses where libvmaf goes on.
      {"NoPredictionAlone",
       "sample",
       {"-n", "--json"},
       true,
       {},
       Difference{"nothing to score", "libvmaf writes a report with no scores", kExitUsage}},
      {"UnknownOption",
       "sample",
       {"--bogus", "--json"},
       true,
       {},
       Difference{"--bogus", "getopt warns and libvmaf goes on without it", kExitUsage}},
      {"FrameCountBeyondTheInputs",
       "sample",
       {"--frame_cnt", "99", "--json"},
       true,
       {},
       Difference{"--frame_cnt 99", "libvmaf scores the frames there are", kExitFailure}},
      {"DistortedShorter",
       "dist_shorter",
       {"--json"},
       true,
       {},
       Difference{"ended before", "libvmaf scores the common frames and exits 0", kExitFailure}},
      {"ReferenceShorter",
       "ref_shorter",
       {"--json"},
       true,
       {},
       Difference{"ended before", "libvmaf scores the common frames and exits 0", kExitFailure}},
      {"OutputUnwritable",
       "sample",
       {"--json", "-o", "/nonexistent-directory/out.json"},
       false,
       {},
       Difference{"/nonexistent-directory/out.json",
                  "libvmaf says it cannot open the file, writes no report and exits 0",
                  kExitFailure}},
      // One vector per exit status class libvmaf gives: usage (1) ...
      {"RawOptionsIncomplete", "sample", {"-w", "176"}, false},
      {"BadWidth", "raw", {"-w", "6x4", "-h", "48", "-p", "420", "-b", "8"}, false},
      {"BadBitdepth", "raw", {"-w", "64", "-h", "48", "-p", "420", "-b", "17"}, false},
      {"AomCtcProposed", "sample", {"--aom_ctc", "proposed"}, false},
      {"ModelBadOptionString", "sample", {"-m", "foo"}, false},
      {"FeatureBadOptionString", "sample", {"--feature", "psnr=enable_chroma"}, false},
      {"NoArguments", "none", {}, false},
      // ... its -1 (255) ...
      {"MissingDistortedFile", "missing_dist", {"--json"}},
      {"NotY4m", "not_y4m", {"--json"}},
      {"FeatureOptionOutOfRange", "sample", {"--feature", "vif=vif_enhn_gain_limit=0.5"}},
      // ... and its flush's -EINVAL (234).
      {"TruncatedFrame", "dist_cut", {"--json"}},
      {"MissingFrameMarker", "dist_no_marker", {"--json"}},
      {"NoFrames", "no_frames", {"--json"}},
      {"PsnrHvsAbove12Bits",
       "p16",
       {"-w", "576", "-h", "324", "-p", "420", "-b", "16", "--feature", "psnr_hvs", "-n",
        "--json"}},
      // float_ms_ssim's extractor fails with its own 1 under 176 pixels, which libvmaf exits with.
      {"FloatMsSsimTooSmall",
       "raw",
       {"-w", "64", "-h", "48", "-p", "420", "-b", "8", "--feature", "float_ms_ssim", "-n",
        "--json"}},
      {"PicturesTooSmallForCambi", "odd_17x9", {"-m", "version=vmaf_v1.0.16_3d0h", "--json"}},
      // Pictures a feature refuses where libvmaf crashes or reads what it never wrote:
      // exactvq's picture refusal (234), whether found as the feature is set up or while
      // it scores (speed_temporal checks at its second frame).
      {"SpeedTemporalTooSmall",
       "seeded_64x64_10",
       {"--feature", "speed_temporal", "-n", "--json"},
       true,
       {},
       Difference{"too small for SpEED", "libvmaf crashes", kExitPicture}},
      {"SpeedChromaTooSmall",
       "seeded_32x32_8",
       {"--feature", "speed_chroma", "-n", "--json"},
       true,
       {},
       Difference{"too small for SpEED", "libvmaf crashes", kExitPicture}},
      {"SpeedTemporalPrescaleBeyondItsBuffers",
       "seeded_320x240_8",
       {"--feature", "speed_temporal=speed_prescale=2", "-n", "--json"},
       true,
       {},
       Difference{"more than libvmaf's frame buffers", "libvmaf writes past its buffers and aborts",
                  kExitPicture}},
      {"SpeedTemporalPrescaleNearOne",
       "seeded_640x480_8",
       {"--feature", "speed_temporal=speed_prescale=1.0009", "-n", "--json"},
       true,
       {},
       Difference{"within 1e-3 of 1", "libvmaf filters samples it never wrote and exits 0",
                  kExitPicture}},
      {"AdmUnder33",
       "seeded_32x32_8",
       {"--feature", "adm", "-n", "--json"},
       true,
       {},
       Difference{"at least 33x33", "libvmaf reads memory it never wrote and exits 0",
                  kExitPicture}},
      {"AdmTiny",
       "seeded_16x16_8",
       {"--feature", "adm", "-n", "--json"},
       true,
       {},
       Difference{"at least 33x33", "libvmaf crashes", kExitPicture}},
      {"VifUnder8Rows",
       "seeded_64x4_8",
       {"--feature", "vif", "-n", "--json"},
       true,
       {},
       Difference{"at least 8 rows", "libvmaf crashes", kExitPicture}},
      {"PsnrHvsPlaneUnder8x8",
       "seeded_12x12_8",
       {"--feature", "psnr_hvs", "-n", "--json"},
       true,
       {},
       Difference{"needs 8x8 in every plane", "libvmaf reports NaN and exits 0", kExitPicture}},
  };
  for (const char* v : {"v1.0", "v2.0", "v3.0", "v4.0", "v5.0", "v6.0", "v7.0"})
    c.push_back({fmt::format("AomCtc{}", std::string(v).substr(1, 1)),
                 "p8",
                 {"--aom_ctc", v, "--json"},
                 true,
                 v[1] < '3' ? kAom1 : kAom3});
  return c;
}

void PrintTo(const Case& c, std::ostream* os) { *os << c.name; }

// The last of --xml, --json, --csv, --sub (libvmaf's rule), XML by default.
std::string format_of(const std::vector<std::string>& args) {
  std::string f = "xml";
  for (const std::string& a : args)
    if (a == "--xml" || a == "--json" || a == "--csv" || a == "--sub") f = a.substr(2);
  return f;
}

bool is_number(const std::string& s, double& v) {
  if (s.empty()) return false;
  char* end = nullptr;
  v = std::strtod(s.c_str(), &end);
  return end == s.c_str() + s.size();
}

Fields json_fields(const std::string& text) {
  Fields f;
  const nlohmann::json j = nlohmann::json::parse(text);
  const auto value = [](const nlohmann::json& v) {
    return v.is_string() ? v.get<std::string>() : v.dump(-1, ' ', false);
  };
  for (const auto& frame : j.at("frames")) {
    const std::string at = fmt::format("frame {}", frame.at("frameNum").get<int64_t>());
    f[at] = "";
    for (const auto& [k, v] : frame.at("metrics").items()) f[at + " " + k] = value(v);
  }
  if (j.contains("pooled_metrics"))
    for (const auto& [k, m] : j.at("pooled_metrics").items())
      for (const auto& [stat, v] : m.items()) f["pooled " + k + " " + stat] = value(v);
  if (j.contains("aggregate_metrics"))
    for (const auto& [k, v] : j.at("aggregate_metrics").items()) f["aggregate " + k] = value(v);
  return f;
}

Fields xml_fields(const std::string& text) {
  Fields f;
  pugi::xml_document doc;
  if (!doc.load_string(text.c_str())) return {{"unreadable XML", text.substr(0, 200)}};
  const pugi::xml_node root = doc.child("VMAF");
  for (const pugi::xml_attribute a : root.child("params").attributes())
    f[std::string("params ") + a.name()] = a.value();
  for (const pugi::xml_node frame : root.child("frames").children("frame")) {
    const std::string at = std::string("frame ") + frame.attribute("frameNum").value();
    for (const pugi::xml_attribute a : frame.attributes()) f[at + " " + a.name()] = a.value();
  }
  for (const pugi::xml_node m : root.child("pooled_metrics").children("metric"))
    for (const pugi::xml_attribute a : m.attributes())
      f[std::string("pooled ") + m.attribute("name").value() + " " + a.name()] = a.value();
  for (const pugi::xml_attribute a : root.child("aggregate_metrics").attributes())
    f[std::string("aggregate ") + a.name()] = a.value();
  return f;
}

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> parts;
  std::string part;
  std::istringstream in(s);
  while (std::getline(in, part, sep)) parts.push_back(part);
  return parts;
}

Fields csv_fields(const std::string& text) {
  Fields f;
  const std::vector<std::string> lines = split(text, '\n');
  if (lines.empty()) return f;
  const std::vector<std::string> header = split(lines[0], ',');
  for (size_t i = 1; i < lines.size(); ++i) {
    const std::vector<std::string> cells = split(lines[i], ',');
    if (cells.empty()) continue;
    for (size_t k = 0; k < cells.size() && k < header.size(); ++k)
      f["frame " + cells[0] + " " + header[k]] = cells[k];
    f["frame " + cells[0] + " cells"] = std::to_string(cells.size());
  }
  f["header"] = lines[0];
  return f;
}

// "{i}{i+1}frame: i|name: value|...": compared as text, line by line.
Fields sub_fields(const std::string& text) {
  Fields f;
  const std::vector<std::string> lines = split(text, '\n');
  for (size_t i = 0; i < lines.size(); ++i) f[fmt::format("line {}", i)] = lines[i];
  return f;
}

Fields fields_of(const std::string& format, const std::string& text) {
  if (format == "json") return json_fields(text);
  if (format == "csv") return csv_fields(text);
  if (format == "sub") return sub_fields(text);
  return xml_fields(text);
}

// Values equal as text, or as numbers (JSON: the same binary64). In the 6-decimal
// formats libvmaf prints values below 1e-6 with 16 decimals where exactvq keeps 6
// (README): there two values agree when both print the same to 6 decimals.
bool same_value(const std::string& format, const std::string& a, const std::string& b) {
  if (a == b) return true;
  double x = 0, y = 0;
  if (!is_number(a, x) || !is_number(b, y)) return false;
  if (format == "json") return x == y || (std::isnan(x) && std::isnan(y));
  return fmt::format("{:.6f}", x) == fmt::format("{:.6f}", y);
}

std::vector<std::string> differences(const std::string& format, const Fields& libvmaf,
                                     const Fields& ours) {
  std::vector<std::string> d;
  for (const auto& [k, v] : libvmaf) {
    const auto it = ours.find(k);
    if (it == ours.end())
      d.push_back(fmt::format("{}: libvmaf {}, exactvq has none", k, v));
    else if (!same_value(format, v, it->second))
      d.push_back(fmt::format("{}: libvmaf {}, exactvq {}", k, v, it->second));
  }
  for (const auto& [k, v] : ours)
    if (!libvmaf.count(k)) d.push_back(fmt::format("{}: exactvq {}, libvmaf has none", k, v));
  return d;
}

class LibvmafDiff : public CliTest, public testing::WithParamInterface<Case> {
 protected:
  void SetUp() override {
    CliTest::SetUp();
    if (!fs::exists(testing_vectors::kLibvmafBinary))
      GTEST_SKIP() << "no libvmaf binary at " << testing_vectors::kLibvmafBinary
                   << ": the differential test is skipped";
    vectors_ = fs::path(EXACTVQ_SHARED_DIR) / "vectors";
  }

  // -r and -d for the case's input (writing the seeded files it needs).
  std::vector<std::string> inputs(const std::string& input) {
    const std::string samples = EXACTVQ_SAMPLES_DIR;
    const auto pair = [&](const std::string& name) -> std::vector<std::string> {
      const fs::path d = vectors_ / name;
      for (const char* ext : {".y4m", ".yuv"})
        if (fs::exists(d / (std::string("ref") + ext)))
          return {"-r", (d / (std::string("ref") + ext)).string(), "-d",
                  (d / (std::string("dist") + ext)).string()};
      return {};
    };
    if (input == "sample") return {"-r", samples + "/ref.y4m", "-d", samples + "/dist.y4m"};
    if (input == "p8") return pair("p8_420_576x324_testsrc2_x264");
    if (input == "p10_422") return pair("p10_422_576x324_testsrc2_x264");
    if (input == "p8_444") return pair("p8_444_576x324_testsrc2_x264");
    if (input == "p12") return pair("p12_420_576x324_testsrc2_noise");
    if (input == "p16") return pair("p16_420_576x324_random_noise");
    if (input == "raw") {
      const VideoFormat f = make_format(64, 48);
      return {"-r", write("ref.yuv", raw_bytes(f, make_frames(f, 5, 0))), "-d",
              write("dist.yuv", raw_bytes(f, make_frames(f, 5, 1)))};
    }
    if (input == "mixed_depth")
      // Large enough for every feature of the presets (float_ms_ssim takes 176 and up).
      return {"-r", write_y4m("ref8.y4m", make_format(256, 192), 3, 0), "-d",
              write_y4m("dist10.y4m", make_format(256, 192, ChromaFormat::k420, 10), 3, 1)};
    if (input == "sizes_differ")
      return {"-r", samples + "/ref.y4m", "-d", write_y4m("d.y4m", make_format(64, 48), 3, 1)};
    if (input == "missing") return {"-r", path("missing.y4m"), "-d", samples + "/dist.y4m"};
    if (input == "missing_dist") return {"-r", samples + "/ref.y4m", "-d", path("missing.y4m")};
    if (input == "odd_17x9") return pair("odd_420_17x9_f3");
    if (input.rfind("seeded_", 0) == 0) {  // seeded_WxH_BITS: 4:2:0, 3 frames
      int w = 0, h = 0, bits = 0;
      if (std::sscanf(input.c_str(), "seeded_%dx%d_%d", &w, &h, &bits) != 3) return {};
      const VideoFormat f = make_format(w, h, ChromaFormat::k420, bits);
      return {"-r", write_y4m("ref.y4m", f, 3, 0), "-d", write_y4m("dist.y4m", f, 3, 1)};
    }
    const VideoFormat small = make_format(64, 48);
    const std::string three = y4m_bytes(small, make_frames(small, 3, 1));
    const std::string header = y4m_header(small);
    const size_t frame = 6 + small.frame_bytes();  // "FRAME\n" and the planes
    if (input == "dist_shorter" || input == "ref_shorter") {
      const std::string longer = write_y4m("three.y4m", small, 3, 0);
      const std::string shorter = write("two.y4m", three.substr(0, header.size() + 2 * frame));
      return input == "dist_shorter" ? std::vector<std::string>{"-r", longer, "-d", shorter}
                                     : std::vector<std::string>{"-r", shorter, "-d", longer};
    }
    if (input == "dist_cut" || input == "dist_no_marker" || input == "no_frames" ||
        input == "not_y4m") {
      std::string bytes = three.substr(0, three.size() - 100);  // the last frame cut short
      if (input == "dist_no_marker")
        bytes = three.substr(0, header.size()) + "FRAMX" + three.substr(header.size() + 5);
      if (input == "no_frames") bytes = header;
      if (input == "not_y4m") bytes = "not a Y4M file\n" + three.substr(header.size());
      const std::string ref =
          input == "no_frames" ? write("ref.y4m", header) : write_y4m("ref.y4m", small, 3, 0);
      return {"-r", ref, "-d", write("dist.y4m", bytes)};
    }
    if (input == "no_dist") return {"-r", samples + "/ref.y4m"};
    return {};
  }

  fs::path vectors_;
};

TEST_P(LibvmafDiff, SameStatusAndReport) {
  const Case& c = GetParam();
  std::vector<std::string> args = inputs(c.input);
  if (args.empty() && c.input != "none") GTEST_SKIP() << "input " << c.input << " is absent";
  // A case that places the inputs itself ({ref}, {dist}: long option names) gets them there.
  if (std::find(c.args.begin(), c.args.end(), "{ref}") != c.args.end() && args.size() == 4) {
    std::vector<std::string> placed = c.args;
    for (std::string& a : placed) {
      if (a == "{ref}") a = args[1];
      if (a == "{dist}") a = args[3];
    }
    args = placed;
  } else {
    args.insert(args.end(), c.args.begin(), c.args.end());
  }
  const std::string format = format_of(c.args);

  // Not yet registered: the clear refusal naming the first feature missing.
  const std::vector<std::string> known = known_features();
  for (const std::string& need : c.needs) {
    ASSERT_NE(std::find(kNotYetRegistered.begin(), kNotYetRegistered.end(), need),
              kNotYetRegistered.end())
        << need << " is not in kNotYetRegistered";
    if (std::find(known.begin(), known.end(), need) != known.end()) continue;
    std::vector<std::string> ours{EXACTVQ_CLI_PATH};
    ours.insert(ours.end(), args.begin(), args.end());
    ours.insert(ours.end(), {"-o", path("exactvq.out")});
    const RunResult r = run_program(ours, with_timeout(120));
    EXPECT_NE(r.status, 0) << describe(r);
    EXPECT_NE(r.err.find("feature '"), std::string::npos) << describe(r);
    EXPECT_FALSE(fs::exists(path("exactvq.out")));
    std::printf("[ awaiting ] %s: refused until %s is registered\n", c.name.c_str(), need.c_str());
    return;
  }

  std::vector<std::string> theirs{"/usr/bin/env", "VMAF_JSON_FULL_PRECISION=1",
                                  testing_vectors::kLibvmafBinary.string(), "--cpumask",
                                  "0xffffffff"};
  theirs.insert(theirs.end(), args.begin(), args.end());
  std::vector<std::string> ours{EXACTVQ_CLI_PATH};
  ours.insert(ours.end(), args.begin(), args.end());
  if (format == "json") ours.insert(ours.end(), {"--precision", "max"});
  if (c.report) {
    theirs.insert(theirs.end(), {"-o", path("libvmaf.out")});
    ours.insert(ours.end(), {"-o", path("exactvq.out")});
  }
  const RunResult lib = run_program(theirs, with_timeout(300));
  const RunResult got = run_program(ours, with_timeout(300));
  ASSERT_NE(got.status, -1) << describe(got);
  if (c.difference) {
    // libvmaf goes on (or crashes): exactvq refuses, with its own status for the refusal.
    EXPECT_TRUE(lib.status == 0 || lib.status == -1)
        << "libvmaf refuses too: compare the statuses\n"
        << describe(lib);
    EXPECT_EQ(got.status, c.difference->status) << c.difference->why << "\n" << describe(got);
    EXPECT_NE(got.err.find(c.difference->needle), std::string::npos) << describe(got);
    EXPECT_FALSE(fs::exists(path("exactvq.out")));
    std::printf("[ differs  ] %s: exactvq refuses (%d); %s\n", c.name.c_str(), got.status,
                c.difference->why);
    return;
  }
  ASSERT_NE(lib.status, -1) << "libvmaf: " << describe(lib);
  // The same status (README, Usage): 0 for both, or libvmaf's own non-zero one.
  EXPECT_EQ(got.status, lib.status) << "libvmaf exit " << lib.status << ": "
                                    << lib.err.substr(0, 400) << "\nexactvq " << describe(got);
  if (lib.status != 0) std::printf("[ status   ] %s: both exit %d\n", c.name.c_str(), lib.status);
  if (got.status != 0 || lib.status != 0 || !c.report) {
    if (got.status != 0) EXPECT_FALSE(fs::exists(path("exactvq.out")));
    return;
  }
  const Fields want = fields_of(format, read_file(path("libvmaf.out")));
  const Fields have = fields_of(format, read_file(path("exactvq.out")));
  ASSERT_FALSE(want.empty()) << "libvmaf wrote no fields";
  const std::vector<std::string> d = differences(format, want, have);
  std::string shown;
  for (size_t i = 0; i < d.size() && i < 12; ++i) shown += d[i] + "\n";
  EXPECT_TRUE(d.empty()) << d.size() << " of " << want.size() << " fields differ:\n" << shown;
  std::printf("[ compared ] %s: %zu fields\n", c.name.c_str(), want.size());
}

INSTANTIATE_TEST_SUITE_P(Vectors, LibvmafDiff, testing::ValuesIn(cases()),
                         [](const testing::TestParamInfo<Case>& i) { return i.param.name; });

}  // namespace
}  // namespace exactvq::clitest
