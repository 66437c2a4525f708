#include <gtest/gtest.h>

#include <fmt/format.h>

#include <tuple>

#include "io/input_file.h"
#include "io/video_source.h"
#include "io/y4m_header.h"
#include "io_test_util.h"

namespace exactvq {
namespace {

using test::error_of;
using test::le16;
using test::ramp;
using test::write_tmp;

using test::fmt_of;
// ---- chroma tags ----

TEST(Y4mChroma, EveryTagParses) {
  const std::vector<std::tuple<std::string, ChromaFormat, int>> cases = {
      {"420jpeg", ChromaFormat::k420, 8},  {"420paldv", ChromaFormat::k420, 8},
      {"420mpeg2", ChromaFormat::k420, 8}, {"420", ChromaFormat::k420, 8},
      {"422", ChromaFormat::k422, 8},      {"444", ChromaFormat::k444, 8},
      {"mono", ChromaFormat::kMono, 8}};
  for (const auto& [tag, chroma, depth] : cases) {
    const auto c = parse_y4m_chroma(tag);
    ASSERT_TRUE(c) << tag;
    EXPECT_EQ(c->chroma, chroma) << tag;
    EXPECT_EQ(c->bitdepth, depth) << tag;
  }
  const std::vector<std::pair<std::string, ChromaFormat>> prefixes = {
      {"420p", ChromaFormat::k420},
      {"422p", ChromaFormat::k422},
      {"444p", ChromaFormat::k444},
      {"mono", ChromaFormat::kMono}};
  for (const auto& [prefix, chroma] : prefixes) {
    for (int b = 9; b <= 16; ++b) {
      const std::string tag = prefix + std::to_string(b);
      const auto c = parse_y4m_chroma(tag);
      ASSERT_TRUE(c) << tag;
      EXPECT_EQ(c->chroma, chroma) << tag;
      EXPECT_EQ(c->bitdepth, b) << tag;
    }
  }
}

TEST(Y4mChroma, RejectsOthers) {
  for (const char* tag :
       {"444alpha", "411", "420p8", "420p17", "420p010", "420p", "mono0", "mono8", "mono1",
        "422p99999999999999999999", "", "420JPEG", "444p16x", "yuv420p"}) {
    EXPECT_FALSE(parse_y4m_chroma(tag)) << tag;
  }
}

TEST(Y4mHeader, EveryTagGivesTheFormatThroughTheReader) {
  struct Case {
    const char* tag;
    ChromaFormat chroma;
    int depth;
  };
  const Case cases[] = {{"420jpeg", ChromaFormat::k420, 8},  {"420paldv", ChromaFormat::k420, 8},
                        {"420mpeg2", ChromaFormat::k420, 8}, {"420", ChromaFormat::k420, 8},
                        {"422", ChromaFormat::k422, 8},      {"444", ChromaFormat::k444, 8},
                        {"mono", ChromaFormat::kMono, 8},    {"420p10", ChromaFormat::k420, 10},
                        {"422p12", ChromaFormat::k422, 12},  {"444p16", ChromaFormat::k444, 16},
                        {"mono10", ChromaFormat::kMono, 10}, {"mono12", ChromaFormat::kMono, 12},
                        {"mono16", ChromaFormat::kMono, 16}, {"420p9", ChromaFormat::k420, 9},
                        {"444p14", ChromaFormat::k444, 14}};
  for (const Case& c : cases) {
    const VideoFormat f = fmt_of(7, 5, c.chroma, c.depth);
    const std::string path =
        write_tmp(std::string("_") + c.tag + ".y4m",
                  std::string("YUV4MPEG2 W7 H5 F30000:1001 It A1:1 C") + c.tag +
                      " XYSCSS=whatever\nFRAME\n" + ramp(f.frame_bytes()) /* values may exceed */);
    auto src = open_y4m(path);
    EXPECT_EQ(src->format(), f) << c.tag;
    EXPECT_EQ(src->name(), path);
    EXPECT_TRUE(src->skip_frame()) << c.tag;  // skip does not check samples
    EXPECT_FALSE(src->skip_frame()) << c.tag;
  }
}

TEST(Y4mHeader, MissingChromaIs420Jpeg8Bit) {
  EXPECT_EQ(parse_y4m_header("YUV4MPEG2 W4 H2", "x"), fmt_of(4, 2, ChromaFormat::k420, 8));
  // Tags in any order, repeated spaces tolerated, trailing space tolerated.
  EXPECT_EQ(parse_y4m_header("YUV4MPEG2 C444p10 Ip  H2 F25:1 W4 ", "x"),
            fmt_of(4, 2, ChromaFormat::k444, 10));
  EXPECT_EQ(parse_y4m_header("YUV4MPEG2 W4 H2 I? Im Ib A0:0 F0:0 X X=1", "x"),
            fmt_of(4, 2, ChromaFormat::k420, 8));
}

// ---- header errors ----

TEST(Y4mHeader, BadWidthAndHeight) {
  auto err = [](const std::string& line) {
    return error_of([&] { parse_y4m_header(line, "in.y4m"); });
  };
  EXPECT_EQ(err("YUV4MPEG2 H2 C420"), "in.y4m: Y4M header has no width tag (W)");
  EXPECT_EQ(err("YUV4MPEG2 W2 C420"), "in.y4m: Y4M header has no height tag (H)");
  EXPECT_EQ(err("YUV4MPEG2 W0 H2"),
            "in.y4m: invalid size 0x2 (width and height must be at least 1)");
  EXPECT_EQ(err("YUV4MPEG2 W4 H0"),
            "in.y4m: invalid size 4x0 (width and height must be at least 1)");
  EXPECT_EQ(err("YUV4MPEG2 W-5 H2"),
            "in.y4m: Y4M header: width in tag 'W-5' at byte 10 is not a positive decimal number");
  EXPECT_EQ(err("YUV4MPEG2 W4 H+2"),
            "in.y4m: Y4M header: height in tag 'H+2' at byte 13 is not a positive decimal number");
  EXPECT_EQ(err("YUV4MPEG2 W H2"),
            "in.y4m: Y4M header: width in tag 'W' at byte 10 is not a positive decimal number");
  EXPECT_EQ(err("YUV4MPEG2 W12abc H2"),
            "in.y4m: Y4M header: width in tag 'W12abc' at byte 10 is not a positive decimal "
            "number");
  EXPECT_EQ(err("YUV4MPEG2 W0x10 H2"),
            "in.y4m: Y4M header: width in tag 'W0x10' at byte 10 is not a positive decimal "
            "number");
  EXPECT_EQ(err("YUV4MPEG2 W999999999 H2"),
            "in.y4m: size 999999999x2 is beyond the supported limit (65536 per side, 268435456 "
            "samples per plane)");
  EXPECT_EQ(err("YUV4MPEG2 W4 H99999999999999999999999999"),
            "in.y4m: Y4M header: height in tag 'H99999999999999999999999999' at byte 13 is too "
            "large (at most 65536 per side)");
  EXPECT_EQ(err("YUV4MPEG2 W2147483648 H2"),
            "in.y4m: Y4M header: width in tag 'W2147483648' at byte 10 is too large (at most "
            "65536 per side)");
  EXPECT_NE(err("YUV4MPEG2 W2147483647 H2").find("beyond the supported limit"), std::string::npos);
  EXPECT_NE(err("YUV4MPEG2 W65536 H65536").find("beyond the supported limit"), std::string::npos);
  EXPECT_EQ(err("YUV4MPEG2 W65536 H1"), "(no error)");
}

TEST(Y4mHeader, UnknownTagNamesTagAndOffset) {
  EXPECT_EQ(error_of([] { parse_y4m_header("YUV4MPEG2 W4 H2 Q5 C420", "a.y4m"); }),
            "a.y4m: Y4M header: unknown tag 'Q5' at byte 16");
  EXPECT_EQ(error_of([] { parse_y4m_header("YUV4MPEG2 W4 H2 \x01\xff", "a.y4m"); }),
            "a.y4m: Y4M header: unknown tag '\\x01\\xff' at byte 16");
  EXPECT_EQ(error_of([] { parse_y4m_header("YUV4MPEG2 W4 H2 w4", "a.y4m"); }),
            "a.y4m: Y4M header: unknown tag 'w4' at byte 16");
}

TEST(Y4mHeader, MalformedRateAspectInterlace) {
  EXPECT_EQ(error_of([] { parse_y4m_header("YUV4MPEG2 W4 H2 F25", "a"); }),
            "a: Y4M header: malformed frame rate tag 'F25' at byte 16 (expected F<num>:<den>)");
  EXPECT_EQ(error_of([] { parse_y4m_header("YUV4MPEG2 W4 H2 A1:x", "a"); }),
            "a: Y4M header: malformed aspect ratio tag 'A1:x' at byte 16 (expected "
            "A<num>:<den>)");
  EXPECT_EQ(error_of([] { parse_y4m_header("YUV4MPEG2 W4 H2 Ix", "a"); }),
            "a: Y4M header: malformed interlacing tag 'Ix' at byte 16 (expected Ip, It, Ib, Im "
            "or I?)");
  EXPECT_NE(error_of([] {
              parse_y4m_header("YUV4MPEG2 W4 H2 F99999999999:1", "a");
            }).find("malformed frame rate"),
            std::string::npos);
}

TEST(Y4mHeader, UnsupportedChroma) {
  const std::string path = write_tmp(".y4m", "YUV4MPEG2 W4 H2 C444alpha\nFRAME\n");
  const std::string msg = error_of([&] { open_y4m(path); });
  EXPECT_EQ(msg.rfind(path + ": unsupported chroma tag '444alpha' at byte 16 of the Y4M header", 0),
            0u)
      << msg;
  EXPECT_NE(error_of([] {
              parse_y4m_header("YUV4MPEG2 W4 H2 C411", "b");
            }).find("unsupported chroma tag '411'"),
            std::string::npos);
}

TEST(Y4mReader, EmptyFile) {
  const std::string path = write_tmp(".y4m", "");
  EXPECT_EQ(error_of([&] { open_y4m(path); }), path + " is empty");
}

TEST(Y4mReader, NotY4m) {
  const std::string path = write_tmp(".y4m", "RIFF\x01\x02");
  EXPECT_EQ(error_of([&] { open_y4m(path); }),
            path + ": not a Y4M file (it starts with 'RIFF\\x01\\x02', not 'YUV4MPEG2 ')");
}

TEST(Y4mReader, TruncatedHeader) {
  const std::string path = write_tmp(".y4m", "YUV4MPEG2 W4 H2 C4");
  EXPECT_EQ(error_of([&] { open_y4m(path); }),
            path +
                ": truncated Y4M header (the input ends after 18 bytes, before the end of the "
                "header line)");
  const std::string sig_only = write_tmp("_sig.y4m", "YUV4MP");
  EXPECT_NE(error_of([&] { open_y4m(sig_only); }).find("not a Y4M file"), std::string::npos);
}

TEST(Y4mReader, HeaderWithoutNewlineIsBounded) {
  const std::string path = write_tmp(".y4m", "YUV4MPEG2 W4 H2 X" + std::string(100000, 'a'));
  EXPECT_EQ(error_of([&] { open_y4m(path); }),
            path + ": Y4M header has no end of line within 4096 bytes");
}

TEST(Y4mReader, NonexistentAndDirectory) {
  const std::string missing = (test::io_tmp_dir() / "no_such_file.y4m").string();
  EXPECT_EQ(error_of([&] { open_y4m(missing); }),
            "cannot open " + missing + ": No such file or directory");
  const std::string dir = test::io_tmp_dir().string();
  EXPECT_EQ(error_of([&] { open_y4m(dir); }), "cannot open " + dir + ": Is a directory");
  EXPECT_EQ(error_of([&] { open_video(dir, {}); }), "cannot open " + dir + ": Is a directory");
  const std::string dir_y4m = (test::io_tmp_dir() / "dir.y4m").string();
  std::filesystem::create_directories(dir_y4m);
  EXPECT_EQ(error_of([&] { open_video(dir_y4m, {}); }),
            "cannot open " + dir_y4m + ": Is a directory");
}

// ---- frames ----

TEST(Y4mReader, OddSizesHaveTheRightPlanes) {
  struct Case {
    int w, h;
    ChromaFormat c;
    const char* tag;
    int cw, ch;
  };
  const Case cases[] = {
      {1, 1, ChromaFormat::k420, "420jpeg", 1, 1},   {7, 5, ChromaFormat::k420, "420", 4, 3},
      {17, 9, ChromaFormat::k420, "420mpeg2", 9, 5}, {17, 9, ChromaFormat::k422, "422", 9, 9},
      {17, 9, ChromaFormat::k444, "444", 17, 9},     {7, 5, ChromaFormat::kMono, "mono", 0, 0},
      {7, 5, ChromaFormat::k422, "422", 4, 5},       {1, 1, ChromaFormat::k444, "444", 1, 1}};
  for (const Case& c : cases) {
    const VideoFormat f = fmt_of(c.w, c.h, c.c, 8);
    const size_t fb = f.frame_bytes();
    const size_t expected_fb =
        size_t(c.w * c.h) + (c.c == ChromaFormat::kMono ? 0u : 2u * size_t(c.cw * c.ch));
    ASSERT_EQ(fb, expected_fb);
    const std::string data0 = ramp(fb, 0), data1 = ramp(fb, 100);
    const std::string path =
        write_tmp(fmt::format("_{}x{}_{}.y4m", c.w, c.h, c.tag),
                  fmt::format("YUV4MPEG2 W{} H{} F25:1 Ip A1:1 C{}\n", c.w, c.h, c.tag) +
                      "FRAME\n" + data0 + "FRAME\n" + data1);
    auto src = open_y4m(path);
    ASSERT_EQ(src->format(), f);
    EXPECT_EQ(src->frame_count(), 2);
    Picture pic;
    ASSERT_TRUE(src->read_frame(pic));
    ASSERT_EQ(pic.format, f);
    size_t at = 0;
    for (int p = 0; p < f.plane_count(); ++p) {
      const PlaneView v = pic.plane(p);
      EXPECT_EQ(v.width, p == 0 ? c.w : c.cw);
      EXPECT_EQ(v.height, p == 0 ? c.h : c.ch);
      EXPECT_EQ(v.bytes_per_sample, 1);
      ASSERT_EQ(pic.planes[p].size(), size_t(v.width * v.height));
      EXPECT_EQ(std::string(reinterpret_cast<const char*>(v.data), pic.planes[p].size()),
                data0.substr(at, pic.planes[p].size()));
      at += pic.planes[p].size();
    }
    if (c.c == ChromaFormat::kMono) {
      EXPECT_TRUE(pic.planes[1].empty());
      EXPECT_TRUE(pic.planes[2].empty());
    }
    const uint8_t* y_before = pic.planes[0].data();
    ASSERT_TRUE(src->read_frame(pic));
    EXPECT_EQ(pic.planes[0].data(), y_before);  // buffers reused
    EXPECT_EQ(pic.planes[0][0], 100);
    EXPECT_FALSE(src->read_frame(pic));
    EXPECT_FALSE(src->read_frame(pic));  // stays at the end
  }
}

TEST(Y4mReader, FrameParametersAreAccepted) {
  const VideoFormat f = fmt_of(4, 2, ChromaFormat::k420, 8);
  const std::string path =
      write_tmp(".y4m", "YUV4MPEG2 W4 H2\nFRAME Ip XFOO=bar\n" + ramp(12, 1) + "FRAME \n" +
                            ramp(12, 2) + "FRAME\n" + ramp(12, 3));
  auto src = open_y4m(path);
  EXPECT_EQ(src->format(), f);
  EXPECT_EQ(src->frame_count(), std::nullopt);  // parameters: count unknown without reading
  Picture pic;
  ASSERT_TRUE(src->read_frame(pic));
  EXPECT_EQ(pic.planes[0][0], 1);
  ASSERT_TRUE(src->skip_frame());
  ASSERT_TRUE(src->read_frame(pic));
  EXPECT_EQ(pic.planes[0][0], 3);
  EXPECT_EQ(pic.planes[2][1], 3 + 11);
  EXPECT_FALSE(src->read_frame(pic));
}

TEST(Y4mReader, HighBitDepthValuesReadBackExactly) {
  for (int b : {9, 10, 12, 14, 16}) {
    const VideoFormat f = fmt_of(3, 3, ChromaFormat::k420, b);  // Y 3x3, chroma 2x2
    const auto max = uint16_t((1u << b) - 1);
    std::vector<uint16_t> samples;
    for (size_t i = 0; i < 9 + 8; ++i) samples.push_back(uint16_t((i * 0x1357u + 0x0102u) & max));
    samples[0] = max;
    samples[1] = 0;
    samples[16] = max;
    const std::string path =
        write_tmp(fmt::format("_{}.y4m", b),
                  fmt::format("YUV4MPEG2 W3 H3 C420p{}\nFRAME\n", b) + le16(samples));
    auto src = open_y4m(path);
    ASSERT_EQ(src->format(), f);
    Picture pic;
    ASSERT_TRUE(src->read_frame(pic));
    size_t k = 0;
    for (int p = 0; p < 3; ++p) {
      const PlaneView v = pic.plane(p);
      EXPECT_EQ(v.bytes_per_sample, 2);
      for (int y = 0; y < v.height; ++y)
        for (int x = 0; x < v.width; ++x) EXPECT_EQ(v.row<uint16_t>(y)[x], samples[k++]) << b;
    }
    EXPECT_FALSE(src->read_frame(pic));
  }
  // 16-bit: every value is valid, including 0xffff and byte order 0x1234.
  const std::string path =
      write_tmp("_16.y4m", "YUV4MPEG2 W2 H1 Cmono16\nFRAME\n" + le16({0xffff, 0x1234}));
  auto src = open_y4m(path);
  Picture pic;
  ASSERT_TRUE(src->read_frame(pic));
  EXPECT_EQ(pic.plane(0).row<uint16_t>(0)[0], 0xffff);
  EXPECT_EQ(pic.plane(0).row<uint16_t>(0)[1], 0x1234);
}

TEST(Y4mReader, SampleAboveMaximumIsLocated) {
  // 5x3 4:2:0 10-bit: Y 5x3, Cb/Cr 3x2.
  const VideoFormat f = fmt_of(5, 3, ChromaFormat::k420, 10);
  std::vector<uint16_t> good(15 + 6 + 6, 1023);
  std::vector<uint16_t> bad = good;
  bad[15 + 3 * 1 + 2] = 1024;  // Cb x=2 y=1
  bad[15 + 6 + 1] = 65535;     // Cr later: the first one wins
  const std::string path =
      write_tmp(".y4m", "YUV4MPEG2 W5 H3 C420p10\nFRAME\n" + le16(good) + "FRAME\n" + le16(bad) +
                            "FRAME\n" + le16(bad) + "FRAME\n" + le16(good));
  auto src = open_y4m(path);
  ASSERT_EQ(src->format(), f);
  Picture pic;
  ASSERT_TRUE(src->read_frame(pic));
  EXPECT_EQ(error_of([&] { src->read_frame(pic); }),
            path + ": frame 1, plane Cb, x=2, y=1: sample 1024 exceeds the 10-bit maximum 1023");
  // skip_frame does not check samples.
  ASSERT_TRUE(src->skip_frame());
  ASSERT_TRUE(src->read_frame(pic));
  EXPECT_FALSE(src->read_frame(pic));

  // Luma, 12-bit, last sample of the plane.
  std::vector<uint16_t> s12(15 + 6 + 6, 4095);
  s12[14] = 4096;
  const std::string p12 = write_tmp("_12.y4m", "YUV4MPEG2 W5 H3 C420p12\nFRAME\n" + le16(s12));
  EXPECT_EQ(error_of([&] {
              Picture p;
              open_y4m(p12)->read_frame(p);
            }),
            p12 + ": frame 0, plane Y, x=4, y=2: sample 4096 exceeds the 12-bit maximum 4095");
  // Cr, 9-bit, mono has no chroma.
  std::vector<uint16_t> s9(15 + 6 + 6, 0);
  s9[15 + 6 + 5] = 512;
  const std::string p9 = write_tmp("_9.y4m", "YUV4MPEG2 W5 H3 C420p9\nFRAME\n" + le16(s9));
  EXPECT_EQ(error_of([&] {
              Picture p;
              open_y4m(p9)->read_frame(p);
            }),
            p9 + ": frame 0, plane Cr, x=2, y=1: sample 512 exceeds the 9-bit maximum 511");
}

TEST(Y4mReader, SampleCheckOnLargePlane) {
  // Exercise the vectorised scan on a plane with a tail (not a multiple of any vector width).
  const int w = 123, h = 37;
  const VideoFormat f = fmt_of(w, h, ChromaFormat::kMono, 10);
  std::vector<uint16_t> s(size_t(w * h), 1023);
  std::string ok = le16(s);
  s[size_t(w * h - 1)] = 2048;
  const std::string path = write_tmp(
      ".y4m", fmt::format("YUV4MPEG2 W{} H{} Cmono10\nFRAME\n", w, h) + ok + "FRAME\n" + le16(s));
  auto src = open_y4m(path);
  ASSERT_EQ(src->format(), f);
  Picture pic;
  ASSERT_TRUE(src->read_frame(pic));
  EXPECT_EQ(error_of([&] { src->read_frame(pic); }),
            path + ": frame 1, plane Y, x=122, y=36: sample 2048 exceeds the 10-bit maximum 1023");
}

TEST(Y4mReader, Truncation) {
  const std::string head = "YUV4MPEG2 W4 H2 C420\n";  // frame: 8 + 2 + 2 = 12 bytes
  const std::string frame = "FRAME\n" + ramp(12);
  struct Case {
    std::string tail;
    std::string message;  // after "<path>: "
  };
  const Case cases[] = {
      {"FRA", "truncated frame 1 (the input ends inside its FRAME header after 3 bytes)"},
      {"F", "truncated frame 1 (the input ends inside its FRAME header after 1 bytes)"},
      {"FRAME", "truncated frame 1 (the input ends inside its FRAME header after 5 bytes)"},
      {"FRAME Ixyz", "truncated frame 1 (the input ends inside its FRAME header after 10 bytes)"},
      {"FRAME\n", "truncated frame 1 (got 0 of 12 bytes)"},
      {"FRAME\n" + ramp(7), "truncated frame 1 (got 7 of 12 bytes)"},
      {"FRAME\n" + ramp(11), "truncated frame 1 (got 11 of 12 bytes)"},
      {"FRAMX\n" + ramp(12), "frame 1: expected a FRAME marker at byte 39, found 'FRAMX'"},
      {"frame\n" + ramp(12), "frame 1: expected a FRAME marker at byte 39, found 'f'"},
      {"FRAMEX\n" + ramp(12), "frame 1: expected a FRAME marker at byte 39, found 'FRAMEX'"},
      {"FRAME\t\n" + ramp(12), "frame 1: expected a FRAME marker at byte 39, found 'FRAME\\x09'"},
      {"\n", "frame 1: expected a FRAME marker at byte 39, found '\\n'"},
  };
  int i = 0;
  for (const Case& c : cases) {
    const std::string path = write_tmp(fmt::format("_{}.y4m", i++), head + frame + c.tail);
    {
      auto src = open_y4m(path);
      EXPECT_EQ(src->frame_count(), std::nullopt) << c.message;
      Picture pic;
      ASSERT_TRUE(src->read_frame(pic));
      EXPECT_EQ(error_of([&] { src->read_frame(pic); }), path + ": " + c.message);
    }
    {
      auto src = open_y4m(path);
      ASSERT_TRUE(src->skip_frame());
      EXPECT_EQ(error_of([&] { src->skip_frame(); }), path + ": " + c.message);
    }
  }
  // Missing FRAME on the very first frame.
  const std::string p0 = write_tmp("_first.y4m", head + ramp(12));
  Picture pic;
  EXPECT_EQ(error_of([&] { open_y4m(p0)->read_frame(pic); }),
            p0 + ": frame 0: expected a FRAME marker at byte 21, found '\\x00'");
  // Header only: zero frames, a clean end.
  const std::string none = write_tmp("_none.y4m", head);
  auto src = open_y4m(none);
  EXPECT_EQ(src->frame_count(), 0);
  EXPECT_FALSE(src->read_frame(pic));
  EXPECT_FALSE(src->skip_frame());
}

// Luma only (a run whose features read no chroma): chroma is left as it was in the
// picture, in frame by frame reading and in read_ahead. At 8 bits it is skipped in the
// input; truncation inside it is still reported. Where it could hold a sample out of
// range (9..15 bits) it is still read and checked, not stored.
TEST(Y4mReader, LumaOnlyReadingChecksChromaWhereASampleCanBeBad) {
  const std::string head = "YUV4MPEG2 W4 H2 C420\n";  // Y 8 bytes, Cb 2, Cr 2
  const std::string frames =
      "FRAME\n" + ramp(12, 1) + "FRAME\n" + ramp(12, 41) + "FRAME\n" + ramp(12, 81);
  const std::string path = write_tmp(".y4m", head + frames);
  for (bool ahead : {false, true}) {
    auto src = open_y4m(path);
    src->read_planes_only(1);
    std::vector<Picture> pics(3);
    if (ahead) {
      const int64_t which[] = {0, 1, 2};
      ASSERT_EQ(src->read_ahead(pics, which, 2), 3u);
    } else {
      for (Picture& pic : pics) ASSERT_TRUE(src->read_frame(pic));
    }
    Picture last;
    EXPECT_FALSE(src->read_frame(last));
    for (int k = 0; k < 3; ++k) {
      const PlaneView y = pics[size_t(k)].plane(0), cb = pics[size_t(k)].plane(1);
      EXPECT_EQ(y.row<uint8_t>(1)[3], uint8_t(1 + 40 * k + 7)) << "frame " << k;
      EXPECT_EQ(cb.row<uint8_t>(0)[0], 0) << "chroma left as allocated, frame " << k;
    }
  }
  const std::string cut = write_tmp("_cut.y4m", head + "FRAME\n" + ramp(12) + "FRAME\n" + ramp(9));
  auto src = open_y4m(cut);
  src->read_planes_only(1);
  Picture pic;
  ASSERT_TRUE(src->read_frame(pic));
  EXPECT_EQ(error_of([&] { src->read_frame(pic); }),
            cut + ": truncated frame 1 (got 9 of 12 bytes)");

  // 10-bit: chroma is read and checked all the same, and not stored.
  std::vector<uint16_t> s10(8 + 2 + 2, 5);
  s10[8 + 2 + 1] = 1024;
  const std::string p10 = write_tmp("_10.y4m", "YUV4MPEG2 W4 H2 C420p10\nFRAME\n" + le16(s10));
  auto src10 = open_y4m(p10);
  src10->read_planes_only(1);
  EXPECT_EQ(error_of([&] { src10->read_frame(pic); }),
            p10 + ": frame 0, plane Cr, x=1, y=0: sample 1024 exceeds the 10-bit maximum 1023");
  std::vector<uint16_t> good(8 + 2 + 2, 1023);
  const std::string g10 = write_tmp(
      "_10good.y4m", "YUV4MPEG2 W4 H2 C420p10\nFRAME\n" + le16(good) + "FRAME\n" + le16(s10));
  for (bool ahead : {false, true}) {
    auto good_src = open_y4m(g10);
    good_src->read_planes_only(1);
    Picture first;
    if (ahead) {
      const int64_t which[] = {0, 1};
      std::vector<Picture> pics(2);
      ASSERT_EQ(good_src->read_ahead(pics, which, 2), 1u) << "stops before the bad frame";
      first = pics[0];
    } else {
      ASSERT_TRUE(good_src->read_frame(first));
    }
    EXPECT_EQ(first.plane(0).row<uint16_t>(1)[3], 1023);
    EXPECT_EQ(first.plane(2).row<uint16_t>(0)[1], 0) << "chroma left as allocated";
    EXPECT_EQ(error_of([&] { good_src->read_frame(pic); }),
              g10 + ": frame 1, plane Cr, x=1, y=0: sample 1024 exceeds the 10-bit maximum 1023");
  }
}

// 9..15-bit samples are checked a piece at a time as they are read: the first bad
// one is found past the first piece, before a later one in chroma, at its place.
TEST(Y4mReader, SampleOutOfRangePastTheFirstPieceIsPlaced) {
  const int w = 512, h = 300;  // luma 307200 bytes: more than one piece
  std::vector<uint16_t> s(size_t(w * h + 2 * (w / 2) * (h / 2)), 7);
  s[140000] = 4096;             // luma x=224, y=273
  s[size_t(w * h) + 5] = 5000;  // Cb, later
  const std::string path =
      write_tmp("_12.y4m", fmt::format("YUV4MPEG2 W{} H{} C420p12\nFRAME\n", w, h) + le16(s));
  for (int planes : {1, 3}) {
    auto src = open_y4m(path);
    src->read_planes_only(planes);
    Picture pic;
    EXPECT_EQ(
        error_of([&] { src->read_frame(pic); }),
        path + ": frame 0, plane Y, x=224, y=273: sample 4096 exceeds the 12-bit maximum 4095");
  }
}

TEST(Y4mReader, FrameHeaderWithoutNewlineIsBounded) {
  const std::string path = write_tmp(".y4m", "YUV4MPEG2 W4 H2\nFRAME " + std::string(20000, 'x'));
  Picture pic;
  EXPECT_EQ(error_of([&] { open_y4m(path)->read_frame(pic); }),
            path + ": frame 0: FRAME header at byte 16 has no end of line within 4096 bytes");
}

TEST(Y4mReader, FrameCountForRegularFiles) {
  const std::string head = "YUV4MPEG2 W4 H2 C420\n";
  const std::string frame = "FRAME\n" + ramp(12);
  std::string three = head + frame + frame + frame;
  auto src = open_y4m(write_tmp("_3.y4m", three));
  EXPECT_EQ(src->frame_count(), 3);
  // Last frame with parameters: unknown.
  auto src2 = open_y4m(write_tmp("_p.y4m", head + frame + frame + "FRAME Ip\n" + ramp(12)));
  EXPECT_EQ(src2->frame_count(), std::nullopt);
}

TEST(InputFile, PrintableEscapes) {
  EXPECT_EQ(printable("abc"), "abc");
  EXPECT_EQ(printable(std::string("a\0b\n\\", 5)), "a\\x00b\\n\\\\");
  EXPECT_EQ(printable(std::string(40, 'z'), 4), "zzzz...");
}

}  // namespace
}  // namespace exactvq
