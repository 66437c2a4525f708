// Reads every public test pair in shared/vectors and checks its format and frame
// count against libvmaf_scores.json.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "io/video_source.h"

namespace exactvq {
namespace {

namespace fs = std::filesystem;

ChromaFormat chroma_from(const std::string& s) {
  if (s == "420") return ChromaFormat::k420;
  if (s == "422") return ChromaFormat::k422;
  if (s == "444") return ChromaFormat::k444;
  if (s == "mono") return ChromaFormat::kMono;
  ADD_FAILURE() << "unknown chroma in json: " << s;
  return ChromaFormat::k420;
}

TEST(SharedVectors, FormatsAndFrameCountsMatchTheJson) {
  const fs::path vectors = fs::path(EXACTVQ_SHARED_DIR) / "vectors";
  const fs::path json_path = vectors / "libvmaf_scores.json";
  if (!fs::exists(json_path)) GTEST_SKIP() << "no test vectors at " << vectors;
  std::ifstream in(json_path);
  const nlohmann::json doc = nlohmann::json::parse(in);
  int checked = 0;
  for (const auto& pair : doc.at("pairs")) {
    const std::string name = pair.at("name");
    SCOPED_TRACE(name);
    VideoFormat f;
    f.width = pair.at("width");
    f.height = pair.at("height");
    f.chroma = chroma_from(pair.at("chroma"));
    f.bitdepth = pair.at("bitdepth");
    const int64_t frames = pair.at("frames_in_files");
    const bool y4m = pair.at("file_type") == "y4m";
    for (const char* which : {"ref", "dist"}) {
      const fs::path file = vectors / name / (std::string(which) + (y4m ? ".y4m" : ".yuv"));
      ASSERT_TRUE(fs::exists(file)) << file;
      RawOptions raw;
      if (!y4m) {
        raw.width = f.width;
        raw.height = f.height;
        raw.chroma = f.chroma;
        raw.bitdepth = f.bitdepth;
      }
      auto src = open_video(file.string(), raw);
      EXPECT_EQ(src->format(), f) << src->format().describe() << " vs " << f.describe();
      EXPECT_EQ(src->frame_count(), frames);
      Picture pic;
      int64_t n = 0;
      while (src->read_frame(pic)) ++n;
      EXPECT_EQ(n, frames);
      // Skipping every frame agrees.
      auto again = open_video(file.string(), raw);
      int64_t skipped = 0;
      while (again->skip_frame()) ++skipped;
      EXPECT_EQ(skipped, frames);
      ++checked;
    }
  }
  EXPECT_GT(checked, 0);
}

}  // namespace
}  // namespace exactvq
