// vmaf_b_v0.6.3 (a bootstrap collection) and vmaf_4k_v0.6.1neg end to end:
// every per-frame and pooled value of libvmaf's catalogue runs on
// ../shared/vectors through the command line (--precision max) with the keys
// in libvmaf's order, the refusal where libvmaf crashed, built-in and path=
// models alike, the whole report against a real `vmaf` report, seeded random
// pairs against the oracle at full precision, and malformed collections.
#include <gtest/gtest.h>

#include <fstream>
#include <functional>
#include <iterator>
#include <regex>

#include <fmt/format.h>

#include "app/feature_set.h"
#include "app/score_run.h"
#include "cli/cli_fixture.h"
#include "cli/cli_test_util.h"
#include "libvmaf_vmaf_vectors.h"
#include "metrics/vmaf/score_models.h"

namespace exactvq::clitest {
namespace {

using testing_vectors::kCatalogueVectors;
using testing_vectors::kLibvmafBinary;
using testing_vectors::load_vmaf_pairs;
using testing_vectors::stored_value;
using testing_vectors::VmafPair;

const char* const kCatalogueRuns[] = {"vmaf_b_v0.6.3", "vmaf_4k_v0.6.1neg"};
const fs::path kModels = EXACTVQ_MODELS_DIR;  // the repository's models/

std::vector<std::string> raw_args(const VmafPair& p) {
  if (!p.raw.width) return {};
  return {"-w", std::to_string(*p.raw.width), "-h", std::to_string(*p.raw.height),
          "-p", chroma_name(*p.raw.chroma),   "-b", std::to_string(*p.raw.bitdepth)};
}

// The catalogue with each object's keys in the file's order (libvmaf's order).
nlohmann::ordered_json ordered_catalogue() {
  std::ifstream in(kCatalogueVectors);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  return nlohmann::ordered_json::parse(testing_vectors::signed_zeros_kept(text));
}

// A JSON report's per-frame keys (of its first frame) and pooled keys, in the
// file's order (parse_json's Report sorts them).
std::pair<std::vector<std::string>, std::vector<std::string>> json_keys_in_order(
    const std::string& text) {
  const nlohmann::ordered_json report = nlohmann::ordered_json::parse(text);
  std::pair<std::vector<std::string>, std::vector<std::string>> keys;
  for (const auto& [key, value] : report.at("frames").at(0).at("metrics").items())
    keys.first.push_back(key);
  for (const auto& [key, value] : report.at("pooled_metrics").items()) keys.second.push_back(key);
  return keys;
}

RunResult run_exactvq(const std::vector<std::string>& args) {
  std::vector<std::string> argv{EXACTVQ_CLI_PATH};
  argv.insert(argv.end(), args.begin(), args.end());
  return run_program(argv, with_timeout(120));
}

VmafPair named_pair(const std::string& name) {
  for (const VmafPair& p : load_vmaf_pairs(kCatalogueVectors))
    if (p.name == name) return p;
  ADD_FAILURE() << "no pair " << name;
  return {};
}

class CatalogueModels : public CliTest {
 protected:
  void SetUp() override {
    CliTest::SetUp();
    if (!fs::exists(kCatalogueVectors))
      GTEST_SKIP() << "no shared vectors at " << kCatalogueVectors;
  }
};

// What a sweep of catalogue runs compared.
struct Tally {
  int runs = 0, compared = 0, refused = 0;
};

// Every value of `runs`, bit for bit (each report written to `out`), through the command line
// wherever libvmaf's run is stable, with the keys in libvmaf's order; where libvmaf refused or
// crashed (pictures too small for a feature), a refusal naming `refusal_word` (the feature that
// cannot take them) and no report.
Tally compare_with_catalogue(const std::string& out, const std::vector<std::string>& runs,
                             const std::string& refusal_word) {
  const nlohmann::ordered_json ordered = ordered_catalogue();
  Tally n;
  for (const VmafPair& p : load_vmaf_pairs(kCatalogueVectors))
    for (const std::string& run : runs) {
      SCOPED_TRACE(p.name + " " + run);
      const nlohmann::json& stored = p.info.at("runs").at(run);
      const nlohmann::json* frames = p.frames(run);
      std::vector<std::string> args{"-r",      p.ref.string(),
                                    "-d",      p.dist.string(),
                                    "--model", "version=" + run,
                                    "--json",  "--precision",
                                    "max",     "-o",
                                    out};
      const auto raw = raw_args(p);
      args.insert(args.end(), raw.begin(), raw.end());
      fs::remove(out);
      const RunResult r = run_exactvq(args);
      if (!frames) {
        // libvmaf's status where it exited (234: a feature refused the pictures); where it
        // crashed (a negative rc, the signal), exactvq's for pictures it refuses.
        const int rc = stored.at("rc").get<int>();
        EXPECT_EQ(r.status, rc > 0 ? rc : kExitPicture) << "libvmaf rc " << rc << "\n"
                                                        << describe(r);
        EXPECT_NE(r.err.find(refusal_word), std::string::npos) << describe(r);
        EXPECT_FALSE(fs::exists(out));
        ++n.refused;
        continue;
      }
      // None of these runs reads uninitialised memory; were one to, its value is no reference.
      EXPECT_TRUE(stored.at("perturb_stable").get<bool>());
      if (!stored.at("perturb_stable").get<bool>()) continue;
      EXPECT_EQ(r.status, 0) << describe(r);
      if (r.status != 0) continue;
      ++n.runs;
      const std::string text = read_file(out);
      const Report got = parse_json(text);
      std::vector<std::string> names;
      const nlohmann::ordered_json& ordered_run = ordered.at("pairs").at(p.name).at("runs").at(run);
      for (const auto& [key, value] : ordered_run.at("frames")[0].items())
        if (key != "frameNum") names.push_back(key);
      const auto [frame_keys, pooled_keys] = json_keys_in_order(text);
      EXPECT_EQ(frame_keys, names);  // the same keys in libvmaf's order
      std::vector<std::string> stored_pooled;
      for (const auto& [key, pools] : ordered_run.at("pooled").items())
        stored_pooled.push_back(key);
      EXPECT_EQ(pooled_keys, stored_pooled);
      EXPECT_EQ(got.frames.size(), frames->size());
      if (got.frames.size() != frames->size()) continue;
      for (size_t i = 0; i < frames->size(); ++i)
        for (const std::string& key : names) {
          EXPECT_EQ(bits(got.values.at(key)[i]), bits(stored_value((*frames)[i].at(key))))
              << "frame " << i << " " << key;
          ++n.compared;
        }
      for (const auto& [key, pools] : stored.at("pooled").items())
        for (const char* pool : {"min", "max", "mean", "harmonic_mean"}) {
          EXPECT_EQ(bits(got.pooled.at(key).at(pool)), bits(stored_value(pools.at(pool))))
              << "pooled " << pool << " " << key;
          ++n.compared;
        }
    }
  std::printf("%d catalogue runs, %d values equal to libvmaf's; %d runs refused as libvmaf did\n",
              n.runs, n.compared, n.refused);
  return n;
}

TEST_F(CatalogueModels, CommandLineEqualsLibvmafFramesAndPooled) {
  const Tally n = compare_with_catalogue(
      path("out.json"), {std::begin(kCatalogueRuns), std::end(kCatalogueRuns)}, "adm");
  EXPECT_EQ(n.runs, 28);
  EXPECT_GT(n.compared, 5000);
}

// The eight VMAF v1.0.16 models end to end (cambi, speed_chroma, ADM's CSF,
// motion's window, the chroma correction and transform): every stable value.
TEST_F(CatalogueModels, V1ModelsEqualLibvmafFramesAndPooled) {
  const std::vector<std::string> v1 = {"vmaf_v1.0.16_3d0h",          "vmaf_v1.0.16_5d0h",
                                       "vmaf_v1.0.16_3d0h_2160",     "vmaf_v1.0.16_1d5h_2160",
                                       "vmaf_v1.0.16_hfr_3d0h",      "vmaf_v1.0.16_hfr_5d0h",
                                       "vmaf_v1.0.16_hfr_3d0h_2160", "vmaf_v1.0.16_hfr_1d5h_2160"};
  const Tally n = compare_with_catalogue(path("out.json"), v1, "feature cambi needs pictures");
  EXPECT_EQ(n.runs, 8 * 14);
  EXPECT_GT(n.compared, 10000);
}

// The library (score_videos, two threads) gives the same per-frame bits.
TEST_F(CatalogueModels, LibraryEqualsLibvmafOnEveryStablePair) {
  int compared = 0;
  for (const VmafPair& p : load_vmaf_pairs(kCatalogueVectors))
    for (const char* run : kCatalogueRuns) {
      const nlohmann::json* frames = p.frames(run);
      if (!frames || !p.info.at("runs").at(run).at("perturb_stable").get<bool>()) continue;
      SCOPED_TRACE(p.name + " " + run);
      RunOptions o;
      o.ref_path = p.ref.string();
      o.dist_path = p.dist.string();
      o.raw = p.raw;
      o.threads = 2;
      o.models = vmaf::make_score_models({std::string("version=") + run});
      const ScoreReport r = score_videos(o);
      ASSERT_EQ(r.frame_numbers.size(), frames->size());
      for (size_t i = 0; i < frames->size(); ++i)
        for (const auto& [key, value] : (*frames)[i].items()) {
          if (key == "frameNum") continue;
          const auto column = std::find_if(r.features.begin(), r.features.end(),
                                           [&](const auto& f) { return f.name == key; });
          ASSERT_NE(column, r.features.end()) << key;
          EXPECT_EQ(bits(column->values[i]), bits(stored_value(value)))
              << "frame " << i << " " << key;
          ++compared;
        }
    }
  EXPECT_GT(compared, 1900);  // 28 runs, every per-frame key
}

// path= reads the same files the binary has built in, collections included.
TEST_F(CatalogueModels, PathEqualsBuiltIn) {
  const VmafPair p = named_pair("p10_420_576x324_testsrc2_x264");
  for (const char* version : kCatalogueRuns) {
    std::string outputs[2];
    for (int by_path = 0; by_path < 2; ++by_path) {
      const std::string spec = by_path
                                   ? "path=" + (kModels / (std::string(version) + ".json")).string()
                                   : std::string("version=") + version;
      const RunResult r = run_exactvq({"-r", p.ref.string(), "-d", p.dist.string(), "--model", spec,
                                       "--csv", "--precision", "max", "-o", "-"});
      ASSERT_EQ(r.status, 0) << describe(r);
      outputs[by_path] = r.out;
    }
    EXPECT_EQ(outputs[0], outputs[1]) << version;
    EXPECT_NE(outputs[0].find(std::string(version) == "vmaf_b_v0.6.3" ? "vmaf_ci_p95_hi"
                                                                      : "integer_adm2_egl_1"),
              std::string::npos);
  }
}

std::string scrub(std::string text) {
  text = std::regex_replace(text, std::regex("version=\"[^\"]*\"|\"version\": \"[^\"]*\""), "V");
  return std::regex_replace(text, std::regex("fps=\"[^\"]*\"|\"fps\": [0-9.]+"), "F");
}

// Several models and collections in one run: a real `vmaf` report and
// exactvq's differ only in the version and the fps, in every format.
TEST_F(CatalogueModels, ReportLayoutEqualsLibvmafs) {
  if (!fs::exists(kLibvmafBinary))
    GTEST_SKIP() << "no libvmaf binary at " << kLibvmafBinary << ": layout check skipped";
  const VmafPair p = named_pair("p8_420_576x324_testsrc2_x264");
  const std::string b_path = (kModels / "vmaf_b_v0.6.3.json").string();
  const std::vector<std::vector<std::string>> model_sets = {
      {"--model", "version=vmaf_b_v0.6.3"},
      {"--model", "version=vmaf_4k_v0.6.1neg"},
      {"--model", "version=vmaf_b_v0.6.3:name=b", "--model", "version=vmaf_v0.6.1", "--model",
       "path=" + b_path + ":name=c:enable_transform", "--model",
       "version=vmaf_4k_v0.6.1neg:name=neg4k", "--feature", "psnr"}};
  for (const char* format : {"--xml", "--json", "--csv"})
    for (const auto& models : model_sets) {
      SCOPED_TRACE(fmt::format("{} {}", format, fmt::join(models, " ")));
      std::vector<std::string> args{"-r", p.ref.string(), "-d", p.dist.string(), format, "-q"};
      args.insert(args.end(), models.begin(), models.end());
      std::vector<std::string> theirs{kLibvmafBinary.string(), "--cpumask", "0xffffffff"};
      theirs.insert(theirs.end(), args.begin(), args.end());
      theirs.insert(theirs.end(), {"-o", path("libvmaf.out")});
      ASSERT_EQ(run_program(theirs, with_timeout(120)).status, 0);
      args.insert(args.end(), {"-o", path("exactvq.out")});
      const RunResult r = run_exactvq(args);
      ASSERT_EQ(r.status, 0) << describe(r);
      const std::string ours = read_file(path("exactvq.out"));
      const std::string want = read_file(path("libvmaf.out"));
      // The key sets and their order, per frame and pooled, said plainly before
      // the whole text is compared.
      if (std::string(format) == "--json") {
        EXPECT_EQ(json_keys_in_order(ours), json_keys_in_order(want));
      } else if (std::string(format) == "--xml") {
        EXPECT_EQ(parse_xml(ours).names, parse_xml(want).names);
        const std::regex pooled_name("<metric name=\"([^\"]+)\"");
        const auto pooled_names = [&](const std::string& text) {
          std::vector<std::string> names;
          for (std::sregex_iterator it(text.begin(), text.end(), pooled_name), end; it != end; ++it)
            names.push_back((*it)[1]);
          return names;
        };
        EXPECT_EQ(pooled_names(ours), pooled_names(want));
        EXPECT_GE(pooled_names(want).size(), 15u);
      }
      EXPECT_EQ(scrub(ours), scrub(want));
    }
}

// Seeded random pairs of other sizes, depths and chroma against the oracle
// at full precision: every key, in order, every value and pool bit for bit.
TEST_F(CatalogueModels, RandomPairsEqualTheOracle) {
  if (!fs::exists(kLibvmafBinary))
    GTEST_SKIP() << "no libvmaf binary at " << kLibvmafBinary << ": oracle skipped";
  struct Recipe {
    int w, h;
    ChromaFormat chroma;
    int bitdepth, frames;
    bool raw;   // raw YUV (libvmaf's Y4M reader takes no 8-bit 4:2:2)
    int shift;  // the distorted frames are the reference's from this many frames on
  };
  const Recipe recipes[] = {{64, 48, ChromaFormat::k420, 8, 4, false, 0},
                            {96, 54, ChromaFormat::k420, 10, 3, false, 1},
                            {50, 41, ChromaFormat::k444, 12, 3, false, 0},
                            {80, 64, ChromaFormat::k422, 8, 2, true, 0},
                            {70, 60, ChromaFormat::k420, 8, 3, false, 2}};
  int compared = 0;
  for (const Recipe& rc : recipes) {
    SCOPED_TRACE(fmt::format("{}x{} {}-bit", rc.w, rc.h, rc.bitdepth));
    const VideoFormat f = make_format(rc.w, rc.h, rc.chroma, rc.bitdepth);
    const auto bytes = rc.raw ? raw_bytes : y4m_bytes;
    const std::string ext = rc.raw ? ".yuv" : ".y4m";
    const std::string ref = write("ref" + ext, bytes(f, make_frames(f, rc.frames, 0)));
    const std::string dist = write("dist" + ext, bytes(f, make_frames(f, rc.frames, 3, rc.shift)));
    std::vector<std::string> args{"-r",      ref,
                                  "-d",      dist,
                                  "--model", "version=vmaf_b_v0.6.3",
                                  "--model", "version=vmaf_4k_v0.6.1neg:name=neg4k",
                                  "--model", "version=vmaf_b_v0.6.3:name=bt:enable_transform",
                                  "--json",  "-q"};
    if (rc.raw)
      args.insert(args.end(), {"-w", std::to_string(rc.w), "-h", std::to_string(rc.h), "-p",
                               chroma_name(rc.chroma), "-b", std::to_string(rc.bitdepth)});
    std::vector<std::string> theirs{"/usr/bin/env", "VMAF_JSON_FULL_PRECISION=1",
                                    kLibvmafBinary.string(), "--cpumask", "0xffffffff"};
    theirs.insert(theirs.end(), args.begin(), args.end());
    theirs.insert(theirs.end(), {"-o", path("libvmaf.json")});
    ASSERT_EQ(run_program(theirs, with_timeout(120)).status, 0);
    std::vector<std::string> ours = args;
    ours.insert(ours.end(), {"--precision", "max", "-o", path("exactvq.json")});
    const RunResult r = run_exactvq(ours);
    ASSERT_EQ(r.status, 0) << describe(r);
    const Report want = parse_json(read_file(path("libvmaf.json")));
    const Report got = parse_json(read_file(path("exactvq.json")));
    EXPECT_EQ(got.frames, want.frames);
    EXPECT_EQ(json_keys_in_order(read_file(path("exactvq.json"))),
              json_keys_in_order(read_file(path("libvmaf.json"))));
    for (const auto& [name, values] : want.values)
      for (size_t i = 0; i < values.size(); ++i) {
        EXPECT_EQ(bits(got.values.at(name).at(i)), bits(values[i])) << "frame " << i << " " << name;
        ++compared;
      }
    for (const auto& [name, pools] : want.pooled)
      for (const auto& [pool, value] : pools) {
        EXPECT_EQ(bits(got.pooled.at(name).at(pool)), bits(value)) << name << " " << pool;
        ++compared;
      }
  }
  std::printf("%d values equal to the oracle's\n", compared);
}

// Collections other than the bundled one, by path=, against the oracle: few
// members (the percentiles interpolate between other ranks; one member has no
// spread), the residue-bootstrap type, and a first member whose transform
// (knots) maps the statistics.
TEST_F(CatalogueModels, OtherCollectionsEqualTheOracle) {
  if (!fs::exists(kLibvmafBinary))
    GTEST_SKIP() << "no libvmaf binary at " << kLibvmafBinary << ": oracle skipped";
  const nlohmann::ordered_json bundled =
      nlohmann::ordered_json::parse(read_file(kModels / "vmaf_b_v0.6.3.json"));
  const auto collection = [&](const std::string& file, int members,
                              const std::function<void(nlohmann::ordered_json&)>& change) {
    nlohmann::ordered_json c = nlohmann::ordered_json::object();
    for (int i = 0; i <= members; ++i)
      c[std::to_string(i)] = bundled.at(std::to_string(i + 3 * (i > 0)));
    if (change) change(c);
    return write(file, c.dump(1));
  };
  const std::string one = collection("one.json", 1, {});
  const std::string three = collection("three.json", 3, [](nlohmann::ordered_json& c) {
    for (int i = 1; i <= 3; ++i)
      c[std::to_string(i)]["model_dict"]["model_type"] = "RESIDUEBOOTSTRAP_LIBSVMNUSVR";
  });
  const std::string knots = collection("knots.json", 5, [](nlohmann::ordered_json& c) {
    c["1"]["model_dict"]["score_transform"] = {
        {"enabled", true}, {"knots", {{0.0, 0.0}, {40.0, 30.0}, {70.0, 75.0}, {100.0, 100.0}}}};
  });
  const VideoFormat f = make_format(64, 48, ChromaFormat::k420, 8);
  const std::string ref = write("ref.y4m", y4m_bytes(f, make_frames(f, 4, 0)));
  const std::string dist = write("dist.y4m", y4m_bytes(f, make_frames(f, 4, 5, 1)));
  const std::vector<std::string> args{"-r",      ref,
                                      "-d",      dist,
                                      "--model", "path=" + one + ":name=one",
                                      "--model", "path=" + three + ":name=three",
                                      "--model", "path=" + knots + ":name=knots:disable_clip",
                                      "--json",  "-q"};
  std::vector<std::string> theirs{"/usr/bin/env", "VMAF_JSON_FULL_PRECISION=1",
                                  kLibvmafBinary.string(), "--cpumask", "0xffffffff"};
  theirs.insert(theirs.end(), args.begin(), args.end());
  theirs.insert(theirs.end(), {"-o", path("libvmaf.json")});
  ASSERT_EQ(run_program(theirs, with_timeout(120)).status, 0);
  std::vector<std::string> ours = args;
  ours.insert(ours.end(), {"--precision", "max", "-o", path("exactvq.json")});
  const RunResult r = run_exactvq(ours);
  ASSERT_EQ(r.status, 0) << describe(r);
  const Report want = parse_json(read_file(path("libvmaf.json")));
  const Report got = parse_json(read_file(path("exactvq.json")));
  EXPECT_EQ(json_keys_in_order(read_file(path("exactvq.json"))),
            json_keys_in_order(read_file(path("libvmaf.json"))));
  EXPECT_EQ(want.values.count("knots_0005"), 1u);
  int compared = 0;
  for (const auto& [name, values] : want.values)
    for (size_t i = 0; i < values.size(); ++i) {
      EXPECT_EQ(bits(got.values.at(name).at(i)), bits(values[i])) << "frame " << i << " " << name;
      ++compared;
    }
  for (const auto& [name, pools] : want.pooled)
    for (const auto& [pool, value] : pools) {
      EXPECT_EQ(bits(got.pooled.at(name).at(pool)), bits(value)) << name << " " << pool;
      ++compared;
    }
  std::printf("%d values equal to the oracle's\n", compared);
}

// Models in one run share their features' passes: a collection's 21 models,
// v0.6.1 and another collection run adm, motion and vif once each; the NEG
// models' (enhancement-gain-limited) extractors once more, shared by both.
TEST(CatalogueModelFeatures, ModelsShareTheirExtractors) {
  const FeatureContext ctx{make_format(64, 48), nullptr, nullptr};
  const FeatureSet plain(
      {}, ctx,
      vmaf::make_score_models({"version=vmaf_b_v0.6.3", "version=vmaf_v0.6.1:name=v",
                               "version=vmaf_b_v0.6.3:name=b2"}));
  EXPECT_EQ(plain.features().size(), 3u);
  const std::vector<std::string>& columns = plain.columns();
  EXPECT_EQ(std::count(columns.begin(), columns.end(), "integer_adm2"), 1);
  // The main scores in --model order, then each collection's 24 columns.
  const auto at = [&](const std::string& name) {
    return std::find(columns.begin(), columns.end(), name) - columns.begin();
  };
  EXPECT_EQ(at("v"), at("vmaf") + 1);
  EXPECT_EQ(at("b2"), at("v") + 1);
  EXPECT_EQ(at("vmaf_0001"), at("b2") + 1);
  EXPECT_EQ(at("b2_0001"), at("vmaf_ci_p95_hi") + 1);
  EXPECT_EQ(at("b2_ci_p95_hi"), static_cast<long>(columns.size()) - 1);
  const FeatureSet neg(
      {}, ctx,
      vmaf::make_score_models({"version=vmaf_4k_v0.6.1neg", "version=vmaf_v0.6.1neg:name=n",
                               "version=vmaf_b_v0.6.3:name=b"}));
  EXPECT_EQ(neg.features().size(), 5u);  // egl adm, motion, egl vif; adm and vif for b
}

// A malformed collection is refused naming the file, the model and the field,
// and collections not named apart are refused; neither leaves an output file.
TEST_F(CatalogueModels, BadCollectionsLeaveNoOutput) {
  const VmafPair p = named_pair("p8_420_576x324_testsrc2_x264");
  nlohmann::ordered_json c =
      nlohmann::ordered_json::parse(read_file(kModels / "vmaf_b_v0.6.3.json"));
  c["7"]["model_dict"]["intercepts"].erase(3);
  const std::string bad = write("bad_b.json", c.dump());
  const std::string out = path("never.json");
  struct Refusal {
    std::vector<std::string> args;
    int status;
    std::string needle;
  };
  const Refusal refusals[] = {
      {{"--model", "path=" + bad},
       kExitFailure,
       "model " + bad + ": field '7.model_dict.intercepts'"},
      {{"--model", "version=vmaf_b_v0.6.3", "--model", "version=vmaf_b_v0.6.3"},
       kExitUsage,
       "name="},
      {{"--model", "version=vmaf_b_v0.6.3:name=b", "--model", "version=vmaf_v0.6.1:name=b_0003"},
       kExitUsage,
       "b_0003"},
  };
  for (const Refusal& f : refusals) {
    std::vector<std::string> args{"-r", p.ref.string(), "-d", p.dist.string(), "-o", out};
    args.insert(args.end(), f.args.begin(), f.args.end());
    const RunResult r = run_exactvq(args);
    EXPECT_EQ(r.status, f.status) << describe(r);
    EXPECT_NE(r.err.find(f.needle), std::string::npos) << describe(r);
    EXPECT_FALSE(fs::exists(out)) << describe(r);
  }
}

}  // namespace
}  // namespace exactvq::clitest
