// psnr_hvs's run of libvmaf_catalogue_scores.json (../shared/vectors): its
// pairs, exactvq's command line on them, and the comparison of a JSON value
// with libvmaf's; shared by vectors_test.cpp (CPU) and device_test.cpp.
#pragma once

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cli/cli_test_util.h"
#include "io/video_source.h"
#include "libvmaf_vmaf_vectors.h"

namespace exactvq::psnr_hvs_testing {

namespace fs = std::filesystem;
using nlohmann::json;
using testing_vectors::same_bits;

inline const fs::path kCatalogue =
    testing_vectors::kVmafVectors.parent_path() / "libvmaf_catalogue_scores.json";
inline const char* const kKeys[] = {"psnr_hvs_y", "psnr_hvs_cb", "psnr_hvs_cr", "psnr_hvs"};
inline const char* const kPooled[] = {"min", "max", "mean", "harmonic_mean"};

struct CataloguePair {
  std::string name;
  fs::path ref, dist;
  RawOptions raw;
  json run;  // the psnr_hvs run: cmd, rc, frames, pooled, perturb_stable
};

inline std::vector<CataloguePair> load_catalogue() {
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

// exactvq's JSON for the pair (psnr_hvs, full precision) on `threads`
// threads, with `extra` arguments (e.g. --backend opencl).
inline clitest::RunResult run_exactvq(const CataloguePair& p, const std::string& threads,
                                      const std::vector<std::string>& extra = {}) {
  std::vector<std::string> args{"-q",        "-r",       p.ref.string(), "-d",   p.dist.string(),
                                "--feature", "psnr_hvs", "--precision",  "max",  "--json",
                                "-o",        "-",        "--threads",    threads};
  if (p.raw.complete())
    for (const std::string& a :
         {std::string("-w"), std::to_string(*p.raw.width), std::string("-h"),
          std::to_string(*p.raw.height), std::string("-p"), std::string(chroma_name(*p.raw.chroma)),
          std::string("-b"), std::to_string(*p.raw.bitdepth)})
      args.push_back(a);
  args.insert(args.end(), extra.begin(), extra.end());
  return clitest::run_cli(args);
}

// exactvq's answer `r` to a pair libvmaf refused for its bit depth (rc 234): an error naming the
// depth and no output.
inline void expect_refused_for_depth(const CataloguePair& p, const clitest::RunResult& r) {
  EXPECT_NE(r.status, 0) << p.name;
  EXPECT_NE(r.err.find(fmt::format("feature psnr_hvs cannot score {}-bit input", *p.raw.bitdepth)),
            std::string::npos)
      << p.name << ": " << clitest::describe(r);
  EXPECT_TRUE(r.out.empty()) << p.name;
}

// libvmaf's null (a non-finite value) against exactvq's JSON, which writes null the same way.
inline bool same_value(const json& mine, const json& libvmaf) {
  if (libvmaf.is_null() || mine.is_null()) return libvmaf.is_null() && mine.is_null();
  return same_bits(mine.get<double>(), libvmaf.get<double>());
}

}  // namespace exactvq::psnr_hvs_testing
