// psnr_hvs on ../shared/vectors against libvmaf's plain C
// (libvmaf_catalogue_scores.json, run psnr_hvs): every per-frame key and every
// pooled value bit for bit through the command line where libvmaf scored and
// the definition has a value in every plane; where a plane has no 8x8 block
// (libvmaf: NaN, or a crash on odd 4:2:0 sizes) exactvq refuses, naming the
// feature and the plane's size, and the planes that have a value still equal
// libvmaf's through the reference; above 12 bits (libvmaf: rc 234) it refuses,
// naming the depth.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cli/cli_test_util.h"
#include "core/error.h"
#include "libvmaf_vmaf_vectors.h"
#include "metrics/psnr_hvs/psnr_hvs_feature.h"
#include "metrics/psnr_hvs/reference.h"
#include "metrics/vif/vif_clips.h"

namespace exactvq {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using testing_vectors::same_bits;

const fs::path kCatalogue =
    testing_vectors::kVmafVectors.parent_path() / "libvmaf_catalogue_scores.json";
const char* const kKeys[] = {"psnr_hvs_y", "psnr_hvs_cb", "psnr_hvs_cr", "psnr_hvs"};
const char* const kPooled[] = {"min", "max", "mean", "harmonic_mean"};

struct CataloguePair {
  std::string name;
  fs::path ref, dist;
  RawOptions raw;
  json run;  // the psnr_hvs run: cmd, rc, frames, pooled, perturb_stable
};

std::vector<CataloguePair> load_catalogue() {
  std::ifstream in(kCatalogue);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const json all = json::parse(testing_vectors::signed_zeros_kept(text));
  std::vector<CataloguePair> pairs;
  for (const auto& [name, p] : all.at("pairs").items()) {
    if (!p.at("runs").contains("psnr_hvs")) continue;
    CataloguePair c;
    c.name = name;
    c.run = p.at("runs").at("psnr_hvs");
    const json& f = p.at("format");
    const std::string ext = f.at("file_type").get<std::string>();
    c.ref = kCatalogue.parent_path() / name / ("ref." + ext);
    c.dist = kCatalogue.parent_path() / name / ("dist." + ext);
    if (ext == "yuv") {
      c.raw.width = int(f.at("width").get<double>());
      c.raw.height = int(f.at("height").get<double>());
      c.raw.bitdepth = int(f.at("bitdepth").get<double>());
      const std::string chroma = f.at("chroma").get<std::string>();
      c.raw.chroma = chroma == "420"   ? ChromaFormat::k420
                     : chroma == "422" ? ChromaFormat::k422
                                       : ChromaFormat::k444;
    }
    pairs.push_back(c);
  }
  return pairs;
}

clitest::RunResult run_exactvq(const CataloguePair& p, const std::string& threads) {
  std::vector<std::string> args{"-q",        "-r",       p.ref.string(), "-d",   p.dist.string(),
                                "--feature", "psnr_hvs", "--precision",  "max",  "--json",
                                "-o",        "-",        "--threads",    threads};
  if (p.raw.complete())
    for (const std::string& a :
         {std::string("-w"), std::to_string(*p.raw.width), std::string("-h"),
          std::to_string(*p.raw.height), std::string("-p"), std::string(chroma_name(*p.raw.chroma)),
          std::string("-b"), std::to_string(*p.raw.bitdepth)})
      args.push_back(a);
  return clitest::run_cli(args);
}

// libvmaf's null (a non-finite value) against exactvq's JSON, which writes null the same way.
bool same_value(const json& mine, const json& libvmaf) {
  if (libvmaf.is_null() || mine.is_null()) return libvmaf.is_null() && mine.is_null();
  return same_bits(mine.get<double>(), libvmaf.get<double>());
}

class PsnrHvsVectors : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!fs::exists(kCatalogue))
      GTEST_SKIP() << "no catalogue at " << kCatalogue << ": libvmaf comparison skipped";
  }
};

TEST_F(PsnrHvsVectors, EqualLibvmafBitForBitOrRefuseClearly) {
  int compared = 0, pooled = 0, through_reference = 0, refused_size = 0, refused_depth = 0,
      infinite = 0;
  for (const CataloguePair& p : load_catalogue()) {
    const int rc = int(p.run.at("rc").get<double>());
    if (rc == 234) {  // libvmaf: invalid bit depth
      const clitest::RunResult r = run_exactvq(p, "2");
      EXPECT_NE(r.status, 0) << p.name;
      EXPECT_NE(
          r.err.find(fmt::format("feature psnr_hvs cannot score {}-bit input", *p.raw.bitdepth)),
          std::string::npos)
          << p.name << ": " << clitest::describe(r);
      EXPECT_TRUE(r.out.empty()) << p.name;
      ++refused_depth;
      continue;
    }
    const std::vector<Picture> refs = vif_testing::read_pictures(p.ref, p.raw);
    const std::vector<Picture> dists = vif_testing::read_pictures(p.dist, p.raw);
    ASSERT_FALSE(refs.empty()) << p.name;
    const VideoFormat f = refs[0].format;
    bool has_value = true;
    try {
      psnr_hvs::check_input(f);
    } catch (const InputError&) {
      has_value = false;
    }
    if (rc != 0) {
      // libvmaf crashed (its Y4M reader on odd 4:2:0 sizes): these pictures have a
      // plane without a block, and exactvq says so.
      EXPECT_EQ(rc, -11) << p.name;
      EXPECT_FALSE(has_value) << p.name;
    } else {
      ASSERT_TRUE(p.run.at("perturb_stable").get<bool>()) << p.name;
    }
    if (!has_value) {
      const clitest::RunResult r = run_exactvq(p, "2");
      EXPECT_NE(r.status, 0) << p.name;
      EXPECT_NE(r.err.find(fmt::format("feature psnr_hvs cannot score {}x{} {} pictures: their",
                                       f.width, f.height, chroma_name(f.chroma))),
                std::string::npos)
          << p.name << ": " << clitest::describe(r);
      EXPECT_TRUE(r.out.empty()) << p.name;
      ++refused_size;
      if (rc != 0) continue;
      // The planes that have a value equal libvmaf's; the others are libvmaf's NaN.
      for (const json& frame : p.run.at("frames")) {
        const size_t i = size_t(frame.at("frameNum").get<double>());
        ASSERT_LT(i, refs.size());
        for (int plane = 0; plane < 3; ++plane) {
          const json& want = frame.at(kKeys[plane]);
          const int w = f.plane_width(plane), h = f.plane_height(plane);
          if (w < psnr_hvs::kBlock || h < psnr_hvs::kBlock) {
            EXPECT_TRUE(want.is_null()) << p.name << " " << kKeys[plane];
            continue;
          }
          const float sum =
              psnr_hvs::plane_error_sum_reference(refs[i].plane(plane), dists[i].plane(plane), plane);
          const double mine = psnr_hvs::decibels(psnr_hvs::plane_score(sum, w, h, f.bitdepth));
          ASSERT_FALSE(want.is_null()) << p.name << " " << kKeys[plane];
          EXPECT_TRUE(same_bits(mine, want.get<double>()))
              << p.name << " frame " << i << " " << kKeys[plane] << ": " << mine << " vs libvmaf "
              << want;
          ++through_reference;
        }
        EXPECT_TRUE(frame.at("psnr_hvs").is_null());
      }
      continue;
    }
    for (const std::string threads : {"1", "2"}) {
      const clitest::RunResult r = run_exactvq(p, threads);
      ASSERT_EQ(r.status, 0) << p.name << ": " << clitest::describe(r);
      const json out = json::parse(testing_vectors::signed_zeros_kept(r.out));
      const json& frames = out.at("frames");
      ASSERT_EQ(frames.size(), p.run.at("frames").size()) << p.name;
      for (size_t i = 0; i < frames.size(); ++i)
        for (const char* key : kKeys) {
          const json& want = p.run.at("frames")[i].at(key);
          const json& mine = frames[i].at("metrics").at(key);
          EXPECT_TRUE(same_value(mine, want))
              << p.name << " frame " << i << " " << key << ": " << mine << " vs libvmaf " << want;
          ++compared;
          infinite += want.is_null();
        }
      for (const char* key : kKeys)
        for (const char* stat : kPooled) {
          const json& want = p.run.at("pooled").at(key).at(stat);
          const json& mine = out.at("pooled_metrics").at(key).at(stat);
          EXPECT_TRUE(same_value(mine, want)) << p.name << " pooled " << key << " " << stat << ": "
                                              << mine << " vs libvmaf " << want;
          ++pooled;
        }
    }
  }
  std::printf(
      "[ vectors  ] psnr_hvs: %d per-frame values (%d of them libvmaf's null, +inf) and %d pooled "
      "values == libvmaf bit for bit (1 and 2 threads); %d plane values of refused pairs == "
      "libvmaf through the reference; %d pairs refused for size, %d for depth\n",
      compared, infinite, pooled, through_reference, refused_size, refused_depth);
  EXPECT_EQ(refused_depth, 3);
  EXPECT_EQ(refused_size, 6);
  EXPECT_GT(compared, 0);
}

}  // namespace
}  // namespace exactvq
