#include <fcntl.h>
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <functional>
#include <thread>

#include "io/video_source.h"
#include "io_test_util.h"

namespace exactvq {
namespace {

using test::error_of;
using test::le16;
using test::ramp;
using test::write_tmp;

using test::fmt_of;
RawOptions raw_of(int w, int h, ChromaFormat c, int b) {
  RawOptions r;
  r.width = w;
  r.height = h;
  r.chroma = c;
  r.bitdepth = b;
  return r;
}

// ---- raw YUV ----

TEST(RawYuv, FrameCountAndPlanes) {
  const VideoFormat f = fmt_of(7, 5, ChromaFormat::k420, 8);  // 35 + 2 * 12 = 59 bytes
  ASSERT_EQ(f.frame_bytes(), 59u);
  const std::string path = write_tmp(".yuv", ramp(59 * 3, 5));
  auto src = open_raw_yuv(path, f);
  EXPECT_EQ(src->format(), f);
  EXPECT_EQ(src->name(), path);
  EXPECT_EQ(src->frame_count(), 3);
  Picture pic;
  ASSERT_TRUE(src->read_frame(pic));
  EXPECT_EQ(pic.plane(1).width, 4);
  EXPECT_EQ(pic.plane(1).height, 3);
  EXPECT_EQ(pic.planes[0][0], 5);
  EXPECT_EQ(pic.planes[1][0], 5 + 35);
  EXPECT_EQ(pic.planes[2][11], 5 + 58);
  ASSERT_TRUE(src->skip_frame());
  ASSERT_TRUE(src->read_frame(pic));
  EXPECT_EQ(pic.planes[0][0], (5 + 2 * 59) & 0xff);
  EXPECT_FALSE(src->read_frame(pic));
  EXPECT_FALSE(src->skip_frame());
}

TEST(RawYuv, Format422) {
  const VideoFormat f = fmt_of(7, 5, ChromaFormat::k422, 8);  // chroma 4x5
  ASSERT_EQ(f.frame_bytes(), 35u + 40u);
  auto src = open_raw_yuv(write_tmp(".yuv", ramp(75)), f);
  Picture pic;
  ASSERT_TRUE(src->read_frame(pic));
  EXPECT_EQ(pic.plane(2).width, 4);
  EXPECT_EQ(pic.plane(2).height, 5);
  EXPECT_EQ(pic.planes[2][0], 55);
}

TEST(RawYuv, TruncatedLastFrame) {
  const VideoFormat f = fmt_of(4, 2, ChromaFormat::k420, 8);  // 12 bytes
  const std::string path = write_tmp(".yuv", ramp(12 * 2 + 5));
  auto src = open_raw_yuv(path, f);
  EXPECT_EQ(src->frame_count(), 3);  // the partial frame counts, and fails when read
  Picture pic;
  ASSERT_TRUE(src->read_frame(pic));
  ASSERT_TRUE(src->read_frame(pic));
  EXPECT_EQ(error_of([&] { src->read_frame(pic); }),
            path + ": truncated frame 2 (got 5 of 12 bytes)");
  auto src2 = open_raw_yuv(path, f);
  ASSERT_TRUE(src2->skip_frame());
  ASSERT_TRUE(src2->skip_frame());
  EXPECT_EQ(error_of([&] { src2->skip_frame(); }),
            path + ": truncated frame 2 (got 5 of 12 bytes)");
}

TEST(RawYuv, SixteenBitAndSampleCheck) {
  const VideoFormat f16 = fmt_of(2, 2, ChromaFormat::k420, 16);  // 4 + 1 + 1 samples
  const std::string p16 = write_tmp("_16.yuv", le16({0, 1, 0xfffe, 0xffff, 0x8000, 0x00ff}));
  auto src = open_raw_yuv(p16, f16);
  EXPECT_EQ(src->frame_count(), 1);
  Picture pic;
  ASSERT_TRUE(src->read_frame(pic));
  EXPECT_EQ(pic.plane(0).row<uint16_t>(1)[1], 0xffff);
  EXPECT_EQ(pic.plane(1).row<uint16_t>(0)[0], 0x8000);
  EXPECT_EQ(pic.plane(2).row<uint16_t>(0)[0], 0x00ff);

  const VideoFormat f10 = fmt_of(2, 2, ChromaFormat::k420, 10);
  const std::string p10 =
      write_tmp("_10.yuv", le16({0, 1, 2, 3, 4, 5}) + le16({0, 1, 1023, 3, 4, 0x0400}));
  auto s10 = open_raw_yuv(p10, f10);
  ASSERT_TRUE(s10->read_frame(pic));
  EXPECT_EQ(error_of([&] { s10->read_frame(pic); }),
            p10 + ": frame 1, plane Cr, x=0, y=0: sample 1024 exceeds the 10-bit maximum 1023");
}

TEST(RawYuv, EmptyMissingDirectoryAndBadFormat) {
  const VideoFormat f = fmt_of(4, 2, ChromaFormat::k420, 8);
  const std::string empty = write_tmp(".yuv", "");
  EXPECT_EQ(error_of([&] { open_raw_yuv(empty, f); }), empty + " is empty");
  const std::string missing = (test::io_tmp_dir() / "nope.yuv").string();
  EXPECT_EQ(error_of([&] { open_raw_yuv(missing, f); }),
            "cannot open " + missing + ": No such file or directory");
  const std::string dir = test::io_tmp_dir().string();
  EXPECT_EQ(error_of([&] { open_raw_yuv(dir, f); }), "cannot open " + dir + ": Is a directory");
  const std::string some = write_tmp("_some.yuv", ramp(12));
  EXPECT_EQ(error_of([&] { open_raw_yuv(some, fmt_of(0, 2, ChromaFormat::k420, 8)); }),
            some + ": invalid size 0x2 (width and height must be at least 1)");
  EXPECT_EQ(error_of([&] { open_raw_yuv(some, fmt_of(4, 2, ChromaFormat::k420, 17)); }),
            some + ": unsupported bit depth 17 (8..16)");
  EXPECT_NE(error_of([&] {
              open_raw_yuv(some, fmt_of(100000, 2, ChromaFormat::k420, 8));
            }).find("beyond the supported limit"),
            std::string::npos);
}

// ---- open_video ----

TEST(OpenVideo, ExtensionChoosesY4mAndIgnoresRawOptions) {
  const std::string path = write_tmp(".Y4M", "YUV4MPEG2 W4 H2 C444\nFRAME\n" + ramp(24));
  auto src = open_video(path, raw_of(8, 8, ChromaFormat::k420, 10));
  EXPECT_EQ(src->format(), fmt_of(4, 2, ChromaFormat::k444, 8));
  // A .y4m that is not Y4M is an error even with raw options.
  const std::string fake = write_tmp("_fake.y4m", ramp(24));
  EXPECT_NE(error_of([&] {
              open_video(fake, raw_of(4, 2, ChromaFormat::k420, 8));
            }).find(": not a Y4M file"),
            std::string::npos);
}

TEST(OpenVideo, CompleteRawOptionsChooseRaw) {
  // Whatever the extension: raw options are the user saying what the bytes are.
  for (const char* ext : {".yuv", ".bin", ".i420", ""}) {
    const std::string path = write_tmp(ext, ramp(24));
    auto src = open_video(path, raw_of(4, 2, ChromaFormat::k420, 8));
    EXPECT_EQ(src->format(), fmt_of(4, 2, ChromaFormat::k420, 8)) << ext;
    EXPECT_EQ(src->frame_count(), 2) << ext;
  }
}

TEST(OpenVideo, SniffsY4mWithoutExtension) {
  const std::string path = write_tmp(".dat", "YUV4MPEG2 W4 H2 Cmono\nFRAME\n" + ramp(8, 9));
  auto src = open_video(path, {});
  EXPECT_EQ(src->format(), fmt_of(4, 2, ChromaFormat::kMono, 8));
  Picture pic;
  ASSERT_TRUE(src->read_frame(pic));
  EXPECT_EQ(pic.planes[0][0], 9);
  EXPECT_FALSE(src->read_frame(pic));
  // Partial raw options are ignored when the content is Y4M.
  RawOptions partial;
  partial.width = 4;
  EXPECT_EQ(open_video(path, partial)->format(), fmt_of(4, 2, ChromaFormat::kMono, 8));
}

TEST(OpenVideo, NotY4mNeedsRawOptions) {
  const std::string path = write_tmp(".yuv", ramp(24));
  EXPECT_EQ(error_of([&] { open_video(path, {}); }),
            path + ": not a Y4M file; for raw YUV give -w, -h, -p and -b");
  RawOptions partial;
  partial.width = 4;
  partial.bitdepth = 8;
  EXPECT_EQ(error_of([&] { open_video(path, partial); }),
            path + ": not a Y4M file; for raw YUV also give -h and -p");
  partial.height = 2;
  EXPECT_EQ(error_of([&] { open_video(path, partial); }),
            path + ": not a Y4M file; for raw YUV also give -p");
  RawOptions only_p;
  only_p.chroma = ChromaFormat::k420;
  EXPECT_EQ(error_of([&] { open_video(path, only_p); }),
            path + ": not a Y4M file; for raw YUV also give -w, -h and -b");
  const std::string short_file = write_tmp("_short.yuv", "YUV");
  EXPECT_EQ(error_of([&] { open_video(short_file, {}); }),
            short_file + ": not a Y4M file; for raw YUV give -w, -h, -p and -b");
  const std::string empty = write_tmp("_empty.yuv", "");
  EXPECT_EQ(error_of([&] { open_video(empty, {}); }), empty + " is empty");
  const std::string missing = (test::io_tmp_dir() / "missing.yuv").string();
  EXPECT_EQ(error_of([&] { open_video(missing, {}); }),
            "cannot open " + missing + ": No such file or directory");
}

// ---- standard input ----

// Points file descriptor 0 at `fd` for the life of the object and restores it after.
class StdinRedirect {
 public:
  explicit StdinRedirect(int fd) {
    std::fflush(stdin);
    saved_ = dup(0);
    dup2(fd, 0);
    std::clearerr(stdin);
  }
  ~StdinRedirect() {
    // Consume what is left through the FILE so no buffered byte leaks into the next test.
    std::clearerr(stdin);
    while (std::fgetc(stdin) != EOF) {}
    std::clearerr(stdin);
    dup2(saved_, 0);
    close(saved_);
  }
  StdinRedirect(const StdinRedirect&) = delete;
  StdinRedirect& operator=(const StdinRedirect&) = delete;

 private:
  int saved_ = -1;
};

// Feeds `bytes` through a pipe into standard input and runs `f` while it is there.
void with_piped_stdin(const std::string& bytes, const std::function<void()>& f) {
  int fds[2];
  ASSERT_EQ(pipe(fds), 0);
  std::thread writer([&] {
    size_t done = 0;
    while (done < bytes.size()) {
      const ssize_t n = write(fds[1], bytes.data() + done, bytes.size() - done);
      if (n <= 0) break;
      done += size_t(n);
    }
    close(fds[1]);
  });
  {
    StdinRedirect redirect(fds[0]);
    close(fds[0]);
    f();
  }
  writer.join();
}

TEST(Stdin, SniffsY4mFromAPipeWithoutLosingBytes) {
  const std::string frame = "FRAME\n" + ramp(12, 40);
  with_piped_stdin("YUV4MPEG2 W4 H2\n" + frame + frame + frame, [&] {
    auto src = open_video("-", {});
    EXPECT_EQ(src->name(), "standard input");
    EXPECT_EQ(src->format(), fmt_of(4, 2, ChromaFormat::k420, 8));
    EXPECT_EQ(src->frame_count(), std::nullopt);
    Picture pic;
    ASSERT_TRUE(src->read_frame(pic));
    EXPECT_EQ(pic.planes[0][0], 40);
    ASSERT_TRUE(src->skip_frame());
    ASSERT_TRUE(src->read_frame(pic));
    EXPECT_EQ(pic.planes[2][1], 40 + 11);
    EXPECT_FALSE(src->read_frame(pic));
  });
}

TEST(Stdin, RawFromAPipeWithSkipAndTruncation) {
  const VideoFormat f = fmt_of(320, 240, ChromaFormat::k420, 8);  // 115200 bytes a frame
  const size_t fb = f.frame_bytes();
  with_piped_stdin(ramp(fb * 2 + 7), [&] {
    auto src = open_video("-", raw_of(320, 240, ChromaFormat::k420, 8));
    EXPECT_EQ(src->frame_count(), std::nullopt);
    ASSERT_TRUE(src->skip_frame());
    Picture pic;
    ASSERT_TRUE(src->read_frame(pic));
    EXPECT_EQ(pic.planes[0][0], uint8_t(fb & 0xff));
    EXPECT_EQ(error_of([&] { src->read_frame(pic); }),
              "standard input: truncated frame 2 (got 7 of 115200 bytes)");
  });
}

TEST(Stdin, EmptyPipeAndNotY4m) {
  with_piped_stdin(
      "", [&] { EXPECT_EQ(error_of([&] { open_video("-", {}); }), "standard input is empty"); });
  with_piped_stdin("hello world", [&] {
    EXPECT_EQ(error_of([&] { open_video("-", {}); }),
              "standard input: not a Y4M file; for raw YUV give -w, -h, -p and -b");
  });
}

TEST(Stdin, RegularFileOnStdinCountsFromItsOffset) {
  const std::string path = write_tmp(".y4m", "junk" + std::string("YUV4MPEG2 W4 H2\n") + "FRAME\n" +
                                                 ramp(12) + "FRAME\n" + ramp(12, 1));
  const int fd = open(path.c_str(), O_RDONLY);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(lseek(fd, 4, SEEK_SET), 4);
  {
    StdinRedirect redirect(fd);
    auto src = open_video("-", {});
    EXPECT_EQ(src->frame_count(), 2);
    ASSERT_TRUE(src->skip_frame());
    Picture pic;
    ASSERT_TRUE(src->read_frame(pic));
    EXPECT_EQ(pic.planes[0][0], 1);
    EXPECT_FALSE(src->read_frame(pic));
  }
  close(fd);
}

}  // namespace
}  // namespace exactvq
