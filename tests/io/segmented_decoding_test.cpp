// Segment-parallel decoding (io/segmented_decoding.h) on the CPU's decoders:
// every frame equals one decoder's, in order, on closed and open GOPs, in
// containers and raw streams; and the access-unit reading that chooses the
// cuts. The GPU's sessions run the same code with NVDEC
// (tests/backends/cuda/hwdec_test.cpp).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "core/startup_trace.h"
#include "ffmpeg_test_files.h"
#include "io/access_unit.h"
#include "io/decode_options.h"
#include "io/video_source.h"
#include "io_test_util.h"

namespace exactvq {
namespace {

using test::EncodeSpec;
using test::error_of;
using test::fmt_of;

std::vector<uint8_t> bytes(std::initializer_list<int> v) {
  std::vector<uint8_t> out;
  for (int b : v) out.push_back(uint8_t(b));
  return out;
}

TEST(AccessUnit, H264AnnexB) {
  // SPS, PPS, IDR slice (4-byte and 3-byte start codes)
  const auto idr = bytes({0, 0, 0, 1, 0x67, 1, 2, 0, 0, 1, 0x68, 3, 0, 0, 1, 0x65, 0x88, 0});
  AccessUnitKind k = classify_access_unit(NalCodec::kH264, {}, idr);
  EXPECT_TRUE(k.instant_refresh);
  EXPECT_TRUE(k.parameter_sets);
  EXPECT_FALSE(k.malformed);
  const auto p = bytes({0, 0, 1, 0x41, 0x9a, 0, 0, 1, 0x06, 5});  // non-IDR slice, SEI
  k = classify_access_unit(NalCodec::kH264, {}, p);
  EXPECT_FALSE(k.instant_refresh);
  EXPECT_FALSE(k.parameter_sets);
  EXPECT_TRUE(classify_access_unit(NalCodec::kH264, {}, bytes({1, 2, 3, 4})).malformed);
}

TEST(AccessUnit, LengthPrefixedFramingFromExtradata) {
  // avcC: version 1, ..., lengthSizeMinusOne 3 in byte 4
  const auto avcc = bytes({1, 0x64, 0, 0x1f, 0xff, 0xe1});
  const NalFraming f = nal_framing_of(NalCodec::kH264, avcc);
  EXPECT_EQ(f.length_bytes, 4);
  EXPECT_EQ(nal_framing_of(NalCodec::kH264, bytes({0, 0, 0, 1, 0x67})).length_bytes, 0);
  const auto idr = bytes({0, 0, 0, 2, 0x65, 0x88, 0, 0, 0, 1, 0x06});
  EXPECT_TRUE(classify_access_unit(NalCodec::kH264, f, idr).instant_refresh);
  // a length past the end
  EXPECT_TRUE(classify_access_unit(NalCodec::kH264, f, bytes({0, 0, 0, 9, 0x65})).malformed);
  std::vector<uint8_t> hvcc(23, 0);
  hvcc[0] = 1;
  hvcc[21] = 0x01;  // lengthSizeMinusOne 1
  EXPECT_EQ(nal_framing_of(NalCodec::kHevc, hvcc).length_bytes, 2);
}

TEST(AccessUnit, HevcKinds) {
  auto unit = [](int type) { return bytes({0, 0, 1, type << 1, 1, 0xaf}); };
  EXPECT_TRUE(classify_access_unit(NalCodec::kHevc, {}, unit(19)).instant_refresh);  // IDR_W_RADL
  EXPECT_TRUE(classify_access_unit(NalCodec::kHevc, {}, unit(20)).instant_refresh);  // IDR_N_LP
  EXPECT_TRUE(classify_access_unit(NalCodec::kHevc, {}, unit(21)).clean_random_access);
  for (int leading : {6, 7, 8, 9})
    EXPECT_TRUE(classify_access_unit(NalCodec::kHevc, {}, unit(leading)).leading);
  EXPECT_FALSE(classify_access_unit(NalCodec::kHevc, {}, unit(1)).leading);
  for (int ps : {32, 33, 34})
    EXPECT_TRUE(classify_access_unit(NalCodec::kHevc, {}, unit(ps)).parameter_sets);
  const AccessUnitKind bla = classify_access_unit(NalCodec::kHevc, {}, unit(16));
  EXPECT_FALSE(bla.instant_refresh || bla.clean_random_access);  // never cut at a BLA
}

std::vector<Picture> all_frames(VideoSource& src) {
  std::vector<Picture> out;
  for (Picture pic; src.read_frame(pic);) out.push_back(pic);
  return out;
}

// `frames` frames of 64x48 8-bit 4:2:0 (texture `variant`) encoded as `spec` says.
std::string encoded(const std::string& suffix, const EncodeSpec& spec, int frames, int variant) {
  const std::string path = test::write_tmp(suffix, "");
  EXPECT_EQ(
      test::encode_video(
          path, test::make_pictures(fmt_of(64, 48, ChromaFormat::k420, 8), frames, variant), spec),
      "");
  return path;
}

std::unique_ptr<VideoSource> open_with_sessions(const std::string& path, int sessions) {
  DecodeOptions d;
  d.sessions = sessions;
  return open_video(path, {}, d);
}

// Every frame of `path` decoded by `sessions` sessions, with how many pieces.
std::vector<Picture> decoded(const std::string& path, int sessions, int64_t* pieces = nullptr) {
  auto src = open_with_sessions(path, sessions);
  std::vector<Picture> frames = all_frames(*src);
  if (pieces) *pieces = src->decoding_segments();
  return frames;
}

void expect_same_frames(const std::vector<Picture>& got, const std::vector<Picture>& want,
                        const std::string& what) {
  ASSERT_EQ(got.size(), want.size()) << what;
  for (size_t i = 0; i < want.size(); ++i)
    for (int p = 0; p < want[i].format.plane_count(); ++p)
      ASSERT_TRUE(std::ranges::equal(got[i].planes[p], want[i].planes[p]))
          << what << ", frame " << i << " plane " << p;
}

struct Case {
  const char* name;
  const char* suffix;
  EncodeSpec spec;
  int bitdepth;
};

// Keyframes every 12 frames (the encoder's gop_size), B-frames: CRA with
// RASL pictures for x265's default open GOP, IDR otherwise.
const Case kCases[] = {
    {"H264Mkv", ".mkv", {"matroska", "libx264", "", "preset=veryfast"}, 8},
    {"H264Mp4", ".mp4", {"mp4", "libx264", "", "preset=veryfast"}, 8},
    {"H264AnnexB", ".h264", {"h264", "libx264", "", "preset=veryfast"}, 8},
    {"HevcOpenGopMkv",
     ".mkv",
     {"matroska", "libx265", "", "preset=ultrafast:x265-params=log-level=none"},
     8},
    {"HevcOpenGopAnnexB10",
     ".hevc",
     {"hevc", "libx265", "yuv420p10le", "preset=ultrafast:x265-params=log-level=none"},
     10},
    {"HevcClosedGopMp4",
     ".mp4",
     {"mp4", "libx265", "", "preset=ultrafast:x265-params=open-gop=0"},
     8},
};

class SegmentedDecodingTest : public ::testing::TestWithParam<Case> {
 protected:
  void SetUp() override {
    const Case& c = GetParam();
    if (!test::can_encode(c.spec))
      GTEST_SKIP() << "this FFmpeg build cannot write " << c.spec.codec << " in "
                   << c.spec.container;
  }

  // Writes the case's stream of `frames` 96x64 4:2:0 pictures (texture `variant`, the case's
  // bit depth), `options` added to its encoder's, to path_, and its frames as one decoder gives
  // them (in one piece) to want_.
  void write_stream(int frames, int variant, const std::string& options) {
    const Case& c = GetParam();
    path_ = test::write_tmp(c.suffix, "");
    EncodeSpec spec = c.spec;
    spec.pixel_format = "";
    spec.options += options;
    const VideoFormat f = fmt_of(96, 64, ChromaFormat::k420, c.bitdepth);
    ASSERT_EQ(test::encode_video(path_, test::make_pictures(f, frames, variant), spec), "");
    int64_t pieces = -1;
    want_ = decoded(path_, 1, &pieces);
    ASSERT_EQ(want_.size(), size_t(frames));
    EXPECT_EQ(pieces, 0);
  }

  std::string path_;
  std::vector<Picture> want_;
};

TEST_P(SegmentedDecodingTest, FramesEqualOneDecodersInOrder) {
  ASSERT_NO_FATAL_FAILURE(write_stream(50, 3, ""));
  for (int sessions : {2, 3}) {
    int64_t pieces = -1;
    const std::vector<Picture> got = decoded(path_, sessions, &pieces);
    EXPECT_GE(pieces, 3) << sessions << " sessions";
    expect_same_frames(got, want_, std::to_string(sessions) + " sessions");
  }
}

INSTANTIATE_TEST_SUITE_P(Streams, SegmentedDecodingTest, ::testing::ValuesIn(kCases),
                         [](const auto& param_info) { return std::string(param_info.param.name); });

// How many times the start-up trace has tallied `what` in this process.
int tally_count(const std::string& what) {
  const std::string all = startup::tallies();
  const size_t at = all.find(what + " ");
  return at == std::string::npos ? 0 : std::atoi(all.c_str() + at + what.size() + 1);
}

// GOPs of 48 (longer than the packets any decoder takes to give its first
// frame): the decoder that read the first frame goes on as the first session
// (no decoder set up twice), its packets not sent again; the frames are the
// same. For HEVC's open GOP the first piece ends with the next CRA's leading
// pictures.
TEST_P(SegmentedDecodingTest, FirstSessionGoesOnWithTheFirstFramesDecoder) {
  ASSERT_NO_FATAL_FAILURE(write_stream(100, 5, ":g=48"));
  const int kept = tally_count("first decoders kept as session 0");
  int64_t pieces = -1;
  const std::vector<Picture> got = decoded(path_, 3, &pieces);
  EXPECT_GE(pieces, 2);
  EXPECT_EQ(tally_count("first decoders kept as session 0"), kept + 1);
  expect_same_frames(got, want_, "3 sessions");
}

// GOPs of 4 (the shortest piece): the first frame's decoder has usually taken
// more packets than the first piece holds (frame threads, reordering), and is
// then closed for a fresh first session; kept or not, the frames are the same.
TEST_P(SegmentedDecodingTest, ShortFirstPieceGivesTheSameFrames) {
  ASSERT_NO_FATAL_FAILURE(write_stream(30, 6, ":g=4"));
  const int kept = tally_count("first decoders kept as session 0");
  int64_t pieces = -1;
  const std::vector<Picture> got = decoded(path_, 3, &pieces);
  std::printf("[ pieces ] %lld, first decoder %s\n", static_cast<long long>(pieces),
              tally_count("first decoders kept as session 0") > kept ? "kept" : "closed");
  expect_same_frames(got, want_, "3 sessions");
}

// Raw streams whose parameter sets come once, before the first picture (as
// x264's and x265's own raw output): each piece gets them put before it.
class ParameterSetsOnce : public ::testing::TestWithParam<NalCodec> {};

TEST_P(ParameterSetsOnce, EveryPieceGetsThem) {
  const bool hevc = GetParam() == NalCodec::kHevc;
  const EncodeSpec spec =
      hevc ? EncodeSpec{"hevc", "libx265", "", "preset=ultrafast:x265-params=log-level=none"}
           : EncodeSpec{"h264", "libx264", "", "preset=veryfast"};
  if (!test::can_encode(spec)) GTEST_SKIP() << "this FFmpeg build cannot write " << spec.codec;
  const std::string full = encoded(hevc ? ".repeated.hevc" : ".repeated.h264", spec, 40, 4);
  std::ifstream in(full, std::ios::binary);
  const std::string data((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  // NAL units from one 00 00 01 to the next; parameter sets kept the first time only.
  std::vector<size_t> starts;
  for (size_t i = 0; i + 3 < data.size(); ++i)
    if (data[i] == 0 && data[i + 1] == 0 && data[i + 2] == 1) starts.push_back(i);
  std::string once;
  int dropped = 0;
  std::vector<int> seen;
  for (size_t k = 0; k < starts.size(); ++k) {
    const size_t end = k + 1 < starts.size() ? starts[k + 1] : data.size();
    const uint8_t header = uint8_t(data[starts[k] + 3]);
    const int type = hevc ? (header >> 1) & 0x3f : header & 0x1f;
    const bool parameter_set = hevc ? type >= 32 && type <= 34 : type == 7 || type == 8;
    if (parameter_set && std::ranges::find(seen, type) != seen.end()) {
      ++dropped;
      continue;
    }
    if (parameter_set) seen.push_back(type);
    once += data.substr(starts[k], end - starts[k]);
  }
  ASSERT_GE(dropped, 4);
  const std::string path = test::write_tmp(hevc ? ".hevc" : ".h264", once);
  const std::vector<Picture> want = decoded(path, 1);
  ASSERT_EQ(want.size(), 40u);
  int64_t pieces = -1;
  const std::vector<Picture> got = decoded(path, 3, &pieces);
  EXPECT_GE(pieces, 3);
  expect_same_frames(got, want, "3 sessions");
}

INSTANTIATE_TEST_SUITE_P(RawStreams, ParameterSetsOnce,
                         ::testing::Values(NalCodec::kH264, NalCodec::kHevc),
                         [](const auto& param_info) {
                           return std::string(param_info.param == NalCodec::kHevc ? "Hevc"
                                                                                  : "H264");
                         });

TEST(AccessUnit, AnnexBParameterSetsWithTheirStartCodes) {
  const auto unit = bytes({0, 0, 0, 1, 0x67, 1, 2, 0, 0, 1, 0x68, 3, 0, 0, 0, 0, 1, 0x65, 0x88});
  const auto sets = annexb_parameter_sets(NalCodec::kH264, unit);
  ASSERT_EQ(sets.size(), 2u);
  EXPECT_TRUE(std::ranges::equal(sets[0], bytes({0, 0, 0, 1, 0x67, 1, 2})));
  EXPECT_TRUE(std::ranges::equal(sets[1], bytes({0, 0, 1, 0x68, 3})));
}

TEST(SegmentedDecoding, SkipAndReadMixedAndStopEarly) {
  const EncodeSpec spec{"matroska", "libx264", "", "preset=veryfast"};
  if (!test::can_encode(spec)) GTEST_SKIP() << "this FFmpeg build cannot write libx264";
  const std::string path = encoded(".mkv", spec, 40, 1);
  const std::vector<Picture> want = decoded(path, 1);
  auto src = open_with_sessions(path, 3);
  Picture pic;
  for (size_t i = 0; i < 30; ++i) {
    if (i % 3 == 1) {
      ASSERT_TRUE(src->skip_frame()) << i;
      continue;
    }
    ASSERT_TRUE(src->read_frame(pic)) << i;
    ASSERT_TRUE(std::ranges::equal(pic.planes[0], want[i].planes[0])) << "frame " << i;
  }
  src.reset();  // closed with sessions still decoding ahead: no hang, no leak (ASan)
}

// Damage in the first GOP, which the decoder that read the first frame goes
// on with as session 0, or later: where one decoder finds it, so do the
// sessions (an error naming the file, never a frame scored).
TEST(SegmentedDecoding, DamageFoundByOneDecoderIsFoundWithSessions) {
  const EncodeSpec spec{"h264", "libx264", "", "preset=veryfast:g=48"};
  if (!test::can_encode(spec)) GTEST_SKIP() << "this FFmpeg build cannot write libx264";
  const std::string full = encoded(".damaged.h264", spec, 100, 7);
  std::ifstream in(full, std::ios::binary);
  const std::string data((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  int compared = 0;
  for (int percent : {5, 10, 15, 20, 25, 30, 45, 60, 80}) {
    std::string bytes = data;
    for (size_t i = bytes.size() * size_t(percent) / 100, n = 0; n < 48 && i < bytes.size();
         ++i, ++n)
      bytes[i] = char(bytes[i] ^ 0x5a);
    const std::string damaged = test::write_tmp(".h264", bytes);
    std::string errors[2];
    for (int k = 0; k < 2; ++k)
      errors[k] = error_of([&] {
        auto src = open_with_sessions(damaged, k == 0 ? 1 : 3);
        Picture pic;
        while (src->read_frame(pic)) {}
      });
    if (errors[0] == "(no error)") continue;  // concealed where nothing checks it
    ++compared;
    std::printf("[ damage ] at %d%%: %s\n", percent, errors[1].c_str());
    EXPECT_NE(errors[1].find(damaged), std::string::npos)
        << percent << "%: one decoder: " << errors[0] << "; 3 sessions: " << errors[1];
  }
  std::printf("[ damage ] %d of 9 places found by one decoder\n", compared);
  EXPECT_GT(compared, 0);
}

// A stream of fewer pictures than the first frame's decoder takes before it
// gives one (it is drained): that decoder goes on as session 0, sends nothing
// more and gives the rest.
TEST(SegmentedDecoding, StreamEndsBeforeTheFirstFrameComesOut) {
  for (const EncodeSpec& spec :
       {EncodeSpec{"matroska", "libx264", "", "preset=veryfast"},
        EncodeSpec{"hevc", "libx265", "", "preset=ultrafast:x265-params=log-level=none"}}) {
    if (!test::can_encode(spec)) continue;
    for (int frames : {1, 2, 3}) {
      const std::string path =
          encoded(".tiny" + std::to_string(frames) + (spec.container == "hevc" ? ".hevc" : ".mkv"),
                  spec, frames, 8);
      const std::vector<Picture> want = decoded(path, 1);
      ASSERT_EQ(want.size(), size_t(frames)) << spec.codec;
      expect_same_frames(decoded(path, 3), want, spec.codec + ", 3 sessions");
    }
  }
}

TEST(SegmentedDecoding, TruncatedFileIsAnErrorNamingIt) {
  const EncodeSpec spec{"h264", "libx264", "", "preset=veryfast"};
  if (!test::can_encode(spec)) GTEST_SKIP() << "this FFmpeg build cannot write libx264";
  const std::string full = encoded(".full.h264", spec, 40, 2);
  std::ifstream in(full, std::ios::binary);
  std::string data((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  data.resize(data.size() * 2 / 3);
  const std::string cut = test::write_tmp(".h264", data);
  for (int sessions : {1, 3}) {
    const std::string e = error_of([&] {
      auto src = open_with_sessions(cut, sessions);
      Picture pic;
      while (src->read_frame(pic)) {}
    });
    EXPECT_NE(e.find(cut), std::string::npos) << sessions << " sessions: " << e;
    EXPECT_NE(e.find("frame"), std::string::npos) << sessions << " sessions: " << e;
  }
}

}  // namespace
}  // namespace exactvq
