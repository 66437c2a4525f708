// The FFmpeg reader on files encoded here with the same libraries: lossless FFV1
// returns the frames exactly (and so the raw frames' scores), lossy codecs decode in
// order and frame-accurately, and bad files are refused with their name and frame.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <thread>

#include <sys/stat.h>

#include "app/score_run.h"
#include "core/startup_trace.h"
#include "ffmpeg_test_files.h"
#include "io/video_source.h"
#include "io_test_util.h"

namespace exactvq {
namespace {

using test::EncodeSpec;
using test::error_of;
using test::fmt_of;

std::string tmp_path(const std::string& suffix) {
  return test::write_tmp(suffix, "");  // a fresh, empty file named after the test
}

std::string read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

void write_bytes(const std::string& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), std::streamsize(bytes.size()));
}

// Encodes `frames` into a file named after the test; skips the test when this FFmpeg
// build lacks the codec or the container.
#define ENCODE_OR_SKIP(path, frames, spec)                                              \
  do {                                                                                  \
    if (!test::can_encode(spec))                                                        \
      GTEST_SKIP() << "this FFmpeg build cannot write " << (spec).codec << " in "       \
                   << (spec).container;                                                 \
    const std::string encode_error = test::encode_video(path, frames, spec);            \
    ASSERT_EQ(encode_error, "") << (spec).codec << " " << (spec).pixel_format << " in " \
                                << (spec).container;                                    \
  } while (0)

const EncodeSpec kFfv1Mkv{"matroska", "ffv1", "", "slicecrc=1"};

void expect_same_planes(const Picture& got, const Picture& want, int frame) {
  ASSERT_EQ(got.format, want.format) << "frame " << frame;
  for (int p = 0; p < want.format.plane_count(); ++p)
    EXPECT_TRUE(std::ranges::equal(got.planes[p], want.planes[p]))
        << "frame " << frame << " plane " << p;
}

// ---- lossless: the decoded frames are the encoded ones ----

class Ffv1Formats : public ::testing::TestWithParam<VideoFormat> {};

TEST_P(Ffv1Formats, DecodesExactlyTheEncodedFrames) {
  const VideoFormat f = GetParam();
  const auto frames = test::make_pictures(f, 5, 1);
  const std::string path = tmp_path(".mkv");
  ENCODE_OR_SKIP(path, frames, kFfv1Mkv);
  auto src = open_video(path, {});
  EXPECT_EQ(src->format(), f);
  EXPECT_EQ(src->name(), path);
  Picture pic;
  for (int i = 0; i < 5; ++i) {
    ASSERT_TRUE(src->read_frame(pic)) << "frame " << i;
    expect_same_planes(pic, frames[size_t(i)], i);
  }
  EXPECT_FALSE(src->read_frame(pic));
  EXPECT_FALSE(src->skip_frame());
}

std::string format_label(const ::testing::TestParamInfo<VideoFormat>& info) {
  const VideoFormat& f = info.param;
  return fmt::format("{}x{}_{}_{}bit", f.width, f.height, chroma_name(f.chroma), f.bitdepth);
}

INSTANTIATE_TEST_SUITE_P(Formats, Ffv1Formats,
                         ::testing::Values(fmt_of(32, 24, ChromaFormat::k420, 8),
                                           fmt_of(17, 9, ChromaFormat::k420, 8),
                                           fmt_of(32, 24, ChromaFormat::k422, 10),
                                           fmt_of(32, 24, ChromaFormat::k444, 12),
                                           fmt_of(32, 24, ChromaFormat::k420, 16),
                                           fmt_of(32, 24, ChromaFormat::kMono, 8),
                                           fmt_of(32, 24, ChromaFormat::kMono, 10)),
                         format_label);

ScoreReport score(const std::string& ref, const std::string& dist) {
  RunOptions o;
  o.ref_path = ref;
  o.dist_path = dist;
  o.features = {{"ssim", {{"chroma", "true"}}}};
  return score_videos(o);
}

TEST(FfmpegReader, LosslessFileScoresExactlyAsItsRawFrames) {
  const VideoFormat f = fmt_of(48, 32, ChromaFormat::k420, 10);
  const auto ref = test::make_pictures(f, 6, 0);
  const auto dist = test::make_pictures(f, 6, 2);
  const std::string ref_y4m = test::write_tmp("_ref.y4m", test::y4m_file_bytes(ref));
  const std::string dist_y4m = test::write_tmp("_dist.y4m", test::y4m_file_bytes(dist));
  const std::string dist_mkv = tmp_path("_dist.mkv");
  ENCODE_OR_SKIP(dist_mkv, dist, kFfv1Mkv);
  const ScoreReport want = score(ref_y4m, dist_y4m);
  const ScoreReport got = score(ref_y4m, dist_mkv);
  ASSERT_EQ(got.frame_numbers, want.frame_numbers);
  ASSERT_EQ(got.features.size(), 3u);
  for (size_t k = 0; k < want.features.size(); ++k) {
    ASSERT_EQ(got.features[k].values.size(), 6u);
    for (size_t i = 0; i < 6; ++i)
      EXPECT_EQ(std::bit_cast<uint64_t>(got.features[k].values[i]),
                std::bit_cast<uint64_t>(want.features[k].values[i]))
          << want.features[k].name << " frame " << i;
  }
  EXPECT_LT(want.features[0].values[0], 1.0);  // a real distortion, not a trivial match
}

TEST(FfmpegReader, SkipIsFrameAccurate) {
  const VideoFormat f = fmt_of(32, 24, ChromaFormat::k420, 8);
  const auto frames = test::make_pictures(f, 8, 3);
  const std::string path = tmp_path(".mkv");
  ENCODE_OR_SKIP(path, frames, kFfv1Mkv);
  auto src = open_video(path, {});
  Picture pic;
  for (int i = 0; i < 3; ++i) ASSERT_TRUE(src->skip_frame());
  ASSERT_TRUE(src->read_frame(pic));
  expect_same_planes(pic, frames[3], 3);
  ASSERT_TRUE(src->skip_frame());
  ASSERT_TRUE(src->read_frame(pic));
  expect_same_planes(pic, frames[5], 5);
}

// Opened under an input name, a reader marks its opening's parts in the
// start-up trace (what --verbose's time line splits "inputs opened" into).
TEST(FfmpegReader, MarksItsOpeningUnderTheInputsName) {
  const VideoFormat f = fmt_of(32, 24, ChromaFormat::k420, 8);
  const std::string path = tmp_path(".mkv");
  ENCODE_OR_SKIP(path, test::make_pictures(f, 3, 1), kFfv1Mkv);
  {
    const startup::InputName name("traced input");
    auto src = open_video(path, {});
    Picture pic;
    ASSERT_TRUE(src->read_frame(pic));
  }
  const std::string s = startup::summary();
  size_t at = 0;
  for (const char* stage :
       {"traced input probed ", "traced input decoder opened ", "traced input first frame "}) {
    const size_t found = s.find(stage);
    ASSERT_NE(found, std::string::npos) << stage << " in " << s;
    EXPECT_GE(found, at) << stage << " in " << s;
    at = found;
  }
  EXPECT_EQ(s.find("traced input cuda ready"), std::string::npos) << s;
}

// EXACTVQ_STREAM_INFO=0 (benchmarks) leaves libavformat's probing out where
// the container gave the codec parameters: the same frames come out.
TEST(FfmpegReader, FramesAreTheSameWithoutProbingTheStreams) {
  const VideoFormat f = fmt_of(32, 24, ChromaFormat::k420, 8);
  const auto frames = test::make_pictures(f, 4, 5);
  const std::string path = tmp_path(".mkv");
  ENCODE_OR_SKIP(path, frames, kFfv1Mkv);
  setenv("EXACTVQ_STREAM_INFO", "0", 1);
  std::unique_ptr<VideoSource> src;
  try {
    src = open_video(path, {});
  } catch (...) {
    unsetenv("EXACTVQ_STREAM_INFO");
    throw;
  }
  unsetenv("EXACTVQ_STREAM_INFO");
  ASSERT_EQ(src->format(), f);
  Picture pic;
  for (int i = 0; i < 4; ++i) {
    ASSERT_TRUE(src->read_frame(pic)) << i;
    expect_same_planes(pic, frames[size_t(i)], i);
  }
  EXPECT_FALSE(src->read_frame(pic));
}

// A named pipe carrying an MKV (as `-d <(ffmpeg ... -f matroska -)` does): read as a
// stream, the bytes peeked at to rule out Y4M included.
TEST(FfmpegReader, StreamFromAPipe) {
  const VideoFormat f = fmt_of(32, 24, ChromaFormat::k420, 8);
  const auto frames = test::make_pictures(f, 4, 1);
  const std::string file = tmp_path(".mkv");
  ENCODE_OR_SKIP(file, frames, kFfv1Mkv);
  const std::string bytes = read_bytes(file);
  const std::string fifo = (test::io_tmp_dir() / "ffmpeg_stream.fifo").string();
  std::filesystem::remove(fifo);
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  std::signal(SIGPIPE, SIG_IGN);  // a reader that gave up must fail the test, not end it
  std::thread writer([&] { write_bytes(fifo, bytes); });
  std::string error;
  std::vector<Picture> got;
  try {
    auto src = open_video(fifo, {});
    EXPECT_EQ(src->format(), f);
    EXPECT_EQ(src->name(), fifo);
    for (Picture pic; src->read_frame(pic);) got.push_back(pic);
  } catch (const std::exception& e) {
    error = e.what();
  }
  writer.join();
  std::filesystem::remove(fifo);
  ASSERT_EQ(error, "");
  ASSERT_EQ(got.size(), 4u);
  for (int i = 0; i < 4; ++i) expect_same_planes(got[size_t(i)], frames[size_t(i)], i);
}

// ---- lossy codecs in their usual containers ----

struct LossyCase {
  const char* label;
  EncodeSpec spec;
  const char* suffix;
};

class LossyFiles : public ::testing::TestWithParam<LossyCase> {};

// Every frame decodes, in order, with the source's format; the scores are those of
// a mild distortion; a run that skips frames sees the same pictures as one that reads.
TEST_P(LossyFiles, DecodeInOrderWithTheSourceFormat) {
  const LossyCase& c = GetParam();
  const VideoFormat f = fmt_of(64, 48, ChromaFormat::k420, 8);
  const auto frames = test::make_pictures(f, 10, 0);
  const std::string path = tmp_path(c.suffix);
  ENCODE_OR_SKIP(path, frames, c.spec);
  auto src = open_video(path, {});
  EXPECT_EQ(src->format(), f);
  std::vector<Picture> decoded(10);
  for (int i = 0; i < 10; ++i) ASSERT_TRUE(src->read_frame(decoded[size_t(i)])) << "frame " << i;
  Picture extra;
  EXPECT_FALSE(src->read_frame(extra));
  if (src->frame_count()) {
    EXPECT_EQ(*src->frame_count(), 10);
  }

  auto again = open_video(path, {});
  for (int i = 0; i < 7; ++i) ASSERT_TRUE(again->skip_frame());
  Picture seventh;
  ASSERT_TRUE(again->read_frame(seventh));
  expect_same_planes(seventh, decoded[7], 7);

  const std::string ref = test::write_tmp("_ref.y4m", test::y4m_file_bytes(frames));
  const ScoreReport r = score(ref, path);
  ASSERT_EQ(r.frame_numbers.size(), 10u);
  for (double v : r.features[0].values) {
    EXPECT_GT(v, 0.8);
    EXPECT_LE(v, 1.0);
  }
}

INSTANTIATE_TEST_SUITE_P(
    Codecs, LossyFiles,
    ::testing::Values(
        LossyCase{"mpeg4_mp4", {"mp4", "mpeg4", "", "qscale=4"}, ".mp4"},
        LossyCase{"x264_mp4", {"mp4", "libx264", "", "preset=ultrafast:bf=2"}, ".mp4"},
        LossyCase{"vp9_webm", {"webm", "libvpx-vp9", "", "deadline=realtime:cpu-used=8"}, ".webm"},
        LossyCase{"vp8_ivf", {"ivf", "libvpx", "", "deadline=realtime:cpu-used=8"}, ".ivf"},
        LossyCase{"av1_ivf", {"ivf", "libaom-av1", "", "cpu-used=8:usage=realtime"}, ".ivf"},
        LossyCase{"mpeg4_mkv", {"matroska", "mpeg4", "", "qscale=4:bf=2"}, ".mkv"}),
    [](const ::testing::TestParamInfo<LossyCase>& c) { return std::string(c.param.label); });

// ---- refusals ----

TEST(FfmpegReader, MismatchedFormatsNameBothFiles) {
  const auto ref = test::make_pictures(fmt_of(32, 24, ChromaFormat::k420, 8), 2);
  const auto dist = test::make_pictures(fmt_of(32, 24, ChromaFormat::k444, 10), 2);
  const std::string ref_path = tmp_path("_ref.mkv"), dist_path = tmp_path("_dist.mkv");
  ENCODE_OR_SKIP(ref_path, ref, kFfv1Mkv);
  ENCODE_OR_SKIP(dist_path, dist, kFfv1Mkv);
  const std::string e = error_of([&] { score(ref_path, dist_path); });
  EXPECT_NE(e.find(ref_path + " (32x24 420 8-bit)"), std::string::npos) << e;
  EXPECT_NE(e.find(dist_path + " (32x24 444 10-bit)"), std::string::npos) << e;
  EXPECT_NE(e.find("chroma formats differ"), std::string::npos) << e;
  EXPECT_NE(e.find("bit depths differ"), std::string::npos) << e;
}

TEST(FfmpegReader, UnsupportedPixelFormatsAreNamedNotConverted) {
  const auto frames = test::make_pictures(fmt_of(32, 24, ChromaFormat::k444, 8), 2);
  for (const char* pix : {"yuv411p", "yuv440p", "bgr0", "yuva420p", "ya8"}) {
    const std::string path = tmp_path(std::string("_") + pix + ".mkv");
    EncodeSpec spec = kFfv1Mkv;
    spec.pixel_format = pix;
    ENCODE_OR_SKIP(path, frames, spec);
    const std::string e = error_of([&] { open_video(path, {}); });
    EXPECT_TRUE(e.starts_with(path + ": pixel format " + pix + " is not supported")) << e;
  }
}

TEST(FfmpegReader, CorruptFrameIsAnErrorNamingFileAndFrame) {
  const auto frames = test::make_pictures(fmt_of(64, 48, ChromaFormat::k420, 8), 6, 1);
  const std::string path = tmp_path(".mkv");
  ENCODE_OR_SKIP(path, frames, kFfv1Mkv);
  std::string bytes = read_bytes(path);
  // Damage the middle of the payload: FFV1's slice CRCs catch any flipped byte.
  for (size_t i = bytes.size() / 2; i < bytes.size() / 2 + 16; ++i)
    bytes[i] = char(bytes[i] ^ 0x5a);
  write_bytes(path, bytes);
  auto src = open_video(path, {});
  const std::string e = error_of([&] {
    Picture pic;
    while (src->read_frame(pic)) {}
  });
  EXPECT_TRUE(e.starts_with(path + ": frame ")) << e;
}

TEST(FfmpegReader, TruncatedFileIsAnError) {
  const auto frames = test::make_pictures(fmt_of(64, 48, ChromaFormat::k420, 8), 6, 1);
  for (const auto& [suffix, spec] :
       {std::pair{".mkv", kFfv1Mkv}, std::pair{".mp4", EncodeSpec{"mp4", "mpeg4", "", ""}}}) {
    SCOPED_TRACE(suffix);
    const std::string path = tmp_path(suffix);
    ENCODE_OR_SKIP(path, frames, spec);
    std::string bytes = read_bytes(path);
    bytes.resize(bytes.size() * 2 / 3);
    write_bytes(path, bytes);
    const std::string e = error_of([&] {
      auto src = open_video(path, {});
      Picture pic;
      while (src->read_frame(pic)) {}
    });
    EXPECT_TRUE(e.starts_with(path + ": ")) << e;
  }
}

TEST(FfmpegReader, NotAVideo) {
  const std::string text = test::write_tmp(".txt", "hello, this is not a video at all\n");
  const std::string e = error_of([&] { open_video(text, {}); });
  EXPECT_TRUE(e.starts_with(text + ": not a video FFmpeg can read (")) << e;
  const std::string empty = test::write_tmp(".mp4", "");
  EXPECT_EQ(error_of([&] { open_video(empty, {}); }), empty + " is empty");
  const std::string missing = (test::io_tmp_dir() / "missing.mkv").string();
  EXPECT_EQ(error_of([&] { open_video(missing, {}); }),
            "cannot open " + missing + ": No such file or directory");
}

// ---- which reader a path gets ----

TEST(FfmpegReader, Y4mContentStaysY4mWhateverItsName) {
  const VideoFormat f = fmt_of(8, 4, ChromaFormat::kMono, 8);
  const auto frames = test::make_pictures(f, 2);
  const std::string path = test::write_tmp(".mkv", test::y4m_file_bytes(frames));
  auto src = open_video(path, {});
  EXPECT_EQ(src->format(), f);
  EXPECT_EQ(src->frame_count(), 2);  // the Y4M reader's count (FFmpeg would not know it)
}

TEST(FfmpegReader, RawExtensionsStayRaw) {
  const VideoFormat f = fmt_of(4, 2, ChromaFormat::k420, 8);
  RawOptions raw;
  raw.width = 4;
  raw.height = 2;
  raw.chroma = ChromaFormat::k420;
  raw.bitdepth = 8;
  for (const char* suffix : {".yuv", ".RAW"}) {
    const std::string path = test::write_tmp(suffix, test::ramp(24));
    auto src = open_video(path, raw);
    EXPECT_EQ(src->format(), f);
    EXPECT_EQ(src->frame_count(), 2);
  }
}

}  // namespace
}  // namespace exactvq
