// --hwdec without a GPU to decode on (CI): libavcodec's CPU-only codecs are
// refused by `cuda` and fall back under `auto`, once, with the reason; frames
// that fall back are the CPU decoder's. The GPU's own path is in
// tests/backends/cuda/hwdec_test.cpp.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "app/score_run.h"
#include "ffmpeg_test_files.h"
#include "io/decode_options.h"
#include "io/video_source.h"
#include "io_test_util.h"

namespace exactvq {
namespace {

using test::EncodeSpec;
using test::error_of;
using test::fmt_of;

const EncodeSpec kFfv1Mkv{"matroska", "ffv1", "", ""};
const EncodeSpec kX264Mp4{"mp4", "libx264", "", "preset=ultrafast"};

std::string encoded(const std::string& suffix, const std::vector<Picture>& frames,
                    const EncodeSpec& spec) {
  const std::string path = test::write_tmp(suffix, "");
  const std::string error = test::encode_video(path, frames, spec);
  EXPECT_EQ(error, "") << spec.codec;
  return path;
}

std::vector<Picture> all_frames(VideoSource& src) {
  std::vector<Picture> out;
  for (Picture pic; src.read_frame(pic);) out.push_back(pic);
  return out;
}

void expect_same_frames(const std::vector<Picture>& got, const std::vector<Picture>& want) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) {
    ASSERT_EQ(got[i].format, want[i].format) << "frame " << i;
    ASSERT_FALSE(got[i].on_device()) << "frame " << i;
    for (int p = 0; p < want[i].format.plane_count(); ++p)
      EXPECT_TRUE(std::ranges::equal(got[i].planes[p], want[i].planes[p]))
          << "frame " << i << " plane " << p;
  }
}

TEST(HwDecodeOption, Names) {
  for (HwDecode h : {HwDecode::kNone, HwDecode::kAuto, HwDecode::kCuda})
    EXPECT_EQ(parse_hwdec(hwdec_name(h)), h);
  EXPECT_FALSE(parse_hwdec("gpu"));
  EXPECT_FALSE(parse_hwdec("CUDA"));
  EXPECT_FALSE(parse_hwdec(""));
}

TEST(FfmpegHwDecode, CudaRefusesACodecTheGpuDoesNotDecode) {
  if (!test::can_encode(kFfv1Mkv)) GTEST_SKIP() << "this FFmpeg build cannot write ffv1";
  const std::string path =
      encoded(".mkv", test::make_pictures(fmt_of(32, 24, ChromaFormat::k420, 8), 2), kFfv1Mkv);
  const std::string e = error_of([&] { open_video(path, {}, {HwDecode::kCuda, 0, nullptr}); });
  EXPECT_EQ(e, path + ": --hwdec cuda: libavcodec decodes ffv1 on the CPU only");
}

TEST(FfmpegHwDecode, AutoFallsBackOnceWithTheReason) {
  if (!test::can_encode(kFfv1Mkv)) GTEST_SKIP() << "this FFmpeg build cannot write ffv1";
  const auto frames = test::make_pictures(fmt_of(32, 24, ChromaFormat::k420, 10), 3, 1);
  const std::string path = encoded(".mkv", frames, kFfv1Mkv);
  std::vector<std::pair<std::string, std::string>> told;
  DecodeOptions d{HwDecode::kAuto, 0, [&](const std::string& in, const std::string& why) {
                    told.emplace_back(in, why);
                  }};
  auto src = open_video(path, {}, d);
  ASSERT_EQ(told.size(), 1u);
  EXPECT_EQ(told[0].first, path);
  EXPECT_EQ(told[0].second, "libavcodec decodes ffv1 on the CPU only");
  EXPECT_EQ(src->cuda_decoder_device(), -1);
  src->set_device_pictures(true);  // nothing on a device to leave there
  expect_same_frames(all_frames(*src), frames);
}

// A codec the GPU decodes: without a usable GPU, auto decodes on the CPU
// (and says why); with one, the GPU's frames come to the host. Either way,
// the CPU decoder's frames.
TEST(FfmpegHwDecode, AutoGivesTheCpuDecodersFrames) {
  if (!test::can_encode(kX264Mp4)) GTEST_SKIP() << "this FFmpeg build cannot write libx264 in mp4";
  const std::string path =
      encoded(".mp4", test::make_pictures(fmt_of(64, 48, ChromaFormat::k420, 8), 4, 2), kX264Mp4);
  auto cpu = open_video(path, {});
  std::vector<std::string> why;
  auto auto_src = open_video(
      path, {},
      {HwDecode::kAuto, 0, [&](const std::string&, const std::string& w) { why.push_back(w); }});
  if (auto_src->cuda_decoder_device() < 0) {
    ASSERT_EQ(why.size(), 1u);
    EXPECT_FALSE(why[0].empty());
  }
  expect_same_frames(all_frames(*auto_src), all_frames(*cpu));
}

TEST(FfmpegHwDecode, YuvAndY4mInputsIgnoreIt) {
  const auto frames = test::make_pictures(fmt_of(16, 8, ChromaFormat::k420, 8), 2);
  const std::string path = test::write_tmp(".y4m", test::y4m_file_bytes(frames));
  auto src = open_video(path, {}, {HwDecode::kCuda, 0, nullptr});
  EXPECT_EQ(src->cuda_decoder_device(), -1);
  expect_same_frames(all_frames(*src), frames);
}

TEST(FfmpegHwDecode, RunWithCudaOnACpuOnlyCodecFailsNamingTheFile) {
  if (!test::can_encode(kFfv1Mkv)) GTEST_SKIP() << "this FFmpeg build cannot write ffv1";
  const auto frames = test::make_pictures(fmt_of(32, 24, ChromaFormat::k420, 8), 2);
  const std::string ref = test::write_tmp("_ref.y4m", test::y4m_file_bytes(frames));
  const std::string dist = encoded("_dist.mkv", frames, kFfv1Mkv);
  RunOptions o;
  o.ref_path = ref;
  o.dist_path = dist;
  o.hwdec = HwDecode::kCuda;
  EXPECT_EQ(error_of([&] { score_videos(o); }),
            dist + ": --hwdec cuda: libavcodec decodes ffv1 on the CPU only");
  o.hwdec = HwDecode::kAuto;
  std::vector<std::string> said;
  o.device.verbose = true;
  o.device.notice = [&](const std::string& line) { said.push_back(line); };
  const ScoreReport r = score_videos(o);
  EXPECT_EQ(r.frame_numbers.size(), 2u);
  EXPECT_EQ(std::ranges::count(
                said, dist + ": decoded on the CPU: libavcodec decodes ffv1 on the CPU only"),
            1)
      << (said.empty() ? "(nothing said)" : said[0]);
}

}  // namespace
}  // namespace exactvq
