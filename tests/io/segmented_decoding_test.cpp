// Segment-parallel decoding (io/segmented_decoding.h) on the CPU's decoders:
// every frame equals one decoder's, in order, on closed and open GOPs, in
// containers and raw streams; and the access-unit reading that chooses the
// cuts. The GPU's sessions run the same code with NVDEC
// (tests/cuda/cuda_hwdec_test.cpp).
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

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
  for (int leading : {6, 7, 8, 9}) EXPECT_TRUE(classify_access_unit(NalCodec::kHevc, {}, unit(leading)).leading);
  EXPECT_FALSE(classify_access_unit(NalCodec::kHevc, {}, unit(1)).leading);
  for (int ps : {32, 33, 34}) EXPECT_TRUE(classify_access_unit(NalCodec::kHevc, {}, unit(ps)).parameter_sets);
  const AccessUnitKind bla = classify_access_unit(NalCodec::kHevc, {}, unit(16));
  EXPECT_FALSE(bla.instant_refresh || bla.clean_random_access);  // never cut at a BLA
}

std::vector<Picture> all_frames(VideoSource& src) {
  std::vector<Picture> out;
  for (Picture pic; src.read_frame(pic);) out.push_back(pic);
  return out;
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
    {"HevcOpenGopMkv", ".mkv", {"matroska", "libx265", "", "preset=ultrafast:x265-params=log-level=none"}, 8},
    {"HevcOpenGopAnnexB10", ".hevc", {"hevc", "libx265", "yuv420p10le", "preset=ultrafast:x265-params=log-level=none"}, 10},
    {"HevcClosedGopMp4", ".mp4", {"mp4", "libx265", "", "preset=ultrafast:x265-params=open-gop=0"}, 8},
};

class SegmentedDecodingTest : public ::testing::TestWithParam<Case> {};

TEST_P(SegmentedDecodingTest, FramesEqualOneDecodersInOrder) {
  const Case& c = GetParam();
  if (!test::can_encode(c.spec)) GTEST_SKIP() << "this FFmpeg build cannot write " << c.spec.codec << " in " << c.spec.container;
  const VideoFormat f = fmt_of(96, 64, ChromaFormat::k420, c.bitdepth);
  const std::string path = test::write_tmp(c.suffix, "");
  EncodeSpec spec = c.spec;
  spec.pixel_format = "";
  ASSERT_EQ(test::encode_video(path, test::make_pictures(f, 50, 3), spec), "");

  DecodeOptions one;
  one.sessions = 1;
  auto whole = open_video(path, {}, one);
  const std::vector<Picture> want = all_frames(*whole);
  ASSERT_EQ(want.size(), 50u);
  EXPECT_EQ(whole->decoding_segments(), 0);

  for (int sessions : {2, 3}) {
    DecodeOptions apart;
    apart.sessions = sessions;
    auto src = open_video(path, {}, apart);
    const std::vector<Picture> got = all_frames(*src);
    EXPECT_GE(src->decoding_segments(), 3) << sessions << " sessions";
    ASSERT_EQ(got.size(), want.size()) << sessions << " sessions";
    for (size_t i = 0; i < want.size(); ++i)
      for (int p = 0; p < f.plane_count(); ++p)
        ASSERT_TRUE(std::ranges::equal(got[i].planes[p], want[i].planes[p]))
            << sessions << " sessions, frame " << i << " plane " << p;
  }
}

INSTANTIATE_TEST_SUITE_P(Streams, SegmentedDecodingTest, ::testing::ValuesIn(kCases),
                         [](const auto& info) { return std::string(info.param.name); });

TEST(SegmentedDecoding, SkipAndReadMixedAndStopEarly) {
  const EncodeSpec spec{"matroska", "libx264", "", "preset=veryfast"};
  if (!test::can_encode(spec)) GTEST_SKIP() << "this FFmpeg build cannot write libx264";
  const VideoFormat f = fmt_of(64, 48, ChromaFormat::k420, 8);
  const std::string path = test::write_tmp(".mkv", "");
  ASSERT_EQ(test::encode_video(path, test::make_pictures(f, 40, 1), spec), "");
  DecodeOptions one;
  one.sessions = 1;
  auto whole = open_video(path, {}, one);
  const std::vector<Picture> want = all_frames(*whole);
  DecodeOptions apart;
  apart.sessions = 3;
  auto src = open_video(path, {}, apart);
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

TEST(SegmentedDecoding, TruncatedFileIsAnErrorNamingIt) {
  const EncodeSpec spec{"h264", "libx264", "", "preset=veryfast"};
  if (!test::can_encode(spec)) GTEST_SKIP() << "this FFmpeg build cannot write libx264";
  const VideoFormat f = fmt_of(64, 48, ChromaFormat::k420, 8);
  const std::string full = test::write_tmp(".full.h264", "");
  ASSERT_EQ(test::encode_video(full, test::make_pictures(f, 40, 2), spec), "");
  std::ifstream in(full, std::ios::binary);
  std::string data((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  data.resize(data.size() * 2 / 3);
  const std::string cut = test::write_tmp(".h264", data);
  for (int sessions : {1, 3}) {
    DecodeOptions d;
    d.sessions = sessions;
    const std::string e = error_of([&] {
      auto src = open_video(cut, {}, d);
      Picture pic;
      while (src->read_frame(pic)) {
      }
    });
    EXPECT_NE(e.find(cut), std::string::npos) << sessions << " sessions: " << e;
    EXPECT_NE(e.find("frame"), std::string::npos) << sessions << " sessions: " << e;
  }
}

}  // namespace
}  // namespace exactvq
