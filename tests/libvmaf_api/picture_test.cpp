// vmaf_picture_alloc's blocks: zeroed as libvmaf's, whether made fresh or
// reused (while a context is open, a block given back is kept for the next
// picture of its size); a run whose pictures the run's threads give back (and
// the caller's next pictures reuse) scores as one on the caller's thread.
#include <gtest/gtest.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include "libvmaf/libvmaf.h"

namespace {

VmafConfiguration quiet_config(unsigned threads) {
  VmafConfiguration cfg{};
  cfg.log_level = VMAF_LOG_LEVEL_NONE;
  cfg.n_threads = threads;
  return cfg;
}

// Every byte of the picture's planes, the rows' padding included.
size_t plane_bytes(const VmafPicture& pic, int p) { return size_t(pic.stride[p]) * pic.h[p]; }

bool all_zero(const VmafPicture& pic) {
  for (int p = 0; p < 3; ++p) {
    if (!pic.data[p]) continue;
    const auto* bytes = static_cast<const unsigned char*>(pic.data[p]);
    for (size_t i = 0; i < plane_bytes(pic, p); ++i)
      if (bytes[i] != 0) return false;
  }
  return true;
}

void fill_everything(VmafPicture& pic, unsigned char value) {
  for (int p = 0; p < 3; ++p)
    if (pic.data[p]) std::memset(pic.data[p], value, plane_bytes(pic, p));
}

// Seeded noise in the samples (not the padding), as a caller writes them.
void fill_noise(VmafPicture& pic, std::mt19937& rng) {
  for (int p = 0; p < 3; ++p) {
    auto* row = static_cast<unsigned char*>(pic.data[p]);
    for (unsigned y = 0; y < pic.h[p]; ++y, row += pic.stride[p])
      for (unsigned x = 0; x < pic.w[p]; ++x) {
        const unsigned v = unsigned(rng() % (1u << pic.bpc));
        if (pic.bpc > 8)
          reinterpret_cast<uint16_t*>(row)[x] = uint16_t(v);
        else
          row[x] = uint8_t(v);
      }
  }
}

TEST(LibvmafApiPictures, FreshPicturesAreZeroed) {
  for (const VmafPixelFormat fmt :
       {VMAF_PIX_FMT_YUV420P, VMAF_PIX_FMT_YUV444P, VMAF_PIX_FMT_YUV400P}) {
    VmafPicture pic;
    ASSERT_EQ(vmaf_picture_alloc(&pic, fmt, 10, 67, 33), 0);
    EXPECT_TRUE(all_zero(pic)) << "format " << int(fmt);
    EXPECT_EQ(vmaf_picture_unref(&pic), 0);
  }
}

TEST(LibvmafApiPictures, BlocksGivenBackAreReusedZeroedWhileAContextIsOpen) {
  VmafContext* vmaf = nullptr;
  ASSERT_EQ(vmaf_init(&vmaf, quiet_config(0)), 0);
  VmafPicture a;
  ASSERT_EQ(vmaf_picture_alloc(&a, VMAF_PIX_FMT_YUV420P, 8, 96, 54), 0);
  void* const block = a.data[0];
  fill_everything(a, 0xAB);
  ASSERT_EQ(vmaf_picture_unref(&a), 0);
  // The same size gets the block back, zeroed, padding included.
  VmafPicture b;
  ASSERT_EQ(vmaf_picture_alloc(&b, VMAF_PIX_FMT_YUV420P, 8, 96, 54), 0);
  EXPECT_EQ(b.data[0], block);
  EXPECT_TRUE(all_zero(b));
  // A picture made while the first is in use gets a block of its own.
  VmafPicture c;
  ASSERT_EQ(vmaf_picture_alloc(&c, VMAF_PIX_FMT_YUV420P, 8, 96, 54), 0);
  EXPECT_NE(c.data[0], b.data[0]);
  EXPECT_TRUE(all_zero(c));
  fill_everything(b, 0x5A);
  fill_everything(c, 0xA5);
  EXPECT_EQ(vmaf_picture_unref(&b), 0);
  EXPECT_EQ(vmaf_picture_unref(&c), 0);
  // Another layout of the same bytes (luma 96 x 81, 4:0:0) reuses a block
  // of that size, zeroed too.
  VmafPicture d;
  ASSERT_EQ(vmaf_picture_alloc(&d, VMAF_PIX_FMT_YUV400P, 8, 96, 81), 0);
  EXPECT_TRUE(all_zero(d));
  EXPECT_EQ(vmaf_picture_unref(&d), 0);
  EXPECT_EQ(vmaf_close(vmaf), 0);
  // With no context open, blocks are freed; a new picture is zeroed all the same.
  VmafPicture e;
  ASSERT_EQ(vmaf_picture_alloc(&e, VMAF_PIX_FMT_YUV420P, 8, 96, 54), 0);
  EXPECT_TRUE(all_zero(e));
  fill_everything(e, 0xFF);
  EXPECT_EQ(vmaf_picture_unref(&e), 0);
  VmafPicture f;
  ASSERT_EQ(vmaf_picture_alloc(&f, VMAF_PIX_FMT_YUV420P, 8, 96, 54), 0);
  EXPECT_TRUE(all_zero(f));
  EXPECT_EQ(vmaf_picture_unref(&f), 0);
}

// The frames' psnr_y and float_ssim scores of `frames` seeded pairs read one by
// one, as FFmpeg's filter reads them (a picture allocated per frame).
std::vector<double> run_scores(unsigned threads, unsigned frames, unsigned bpc) {
  VmafContext* vmaf = nullptr;
  EXPECT_EQ(vmaf_init(&vmaf, quiet_config(threads)), 0);
  EXPECT_EQ(vmaf_use_feature(vmaf, "psnr", nullptr), 0);
  EXPECT_EQ(vmaf_use_feature(vmaf, "float_ssim", nullptr), 0);
  std::mt19937 rng(7);
  for (unsigned i = 0; i < frames; ++i) {
    VmafPicture ref, dist;
    EXPECT_EQ(vmaf_picture_alloc(&ref, VMAF_PIX_FMT_YUV420P, bpc, 64, 48), 0);
    EXPECT_EQ(vmaf_picture_alloc(&dist, VMAF_PIX_FMT_YUV420P, bpc, 64, 48), 0);
    fill_noise(ref, rng);
    fill_noise(dist, rng);
    EXPECT_EQ(vmaf_read_pictures(vmaf, &ref, &dist, i), 0);
  }
  EXPECT_EQ(vmaf_read_pictures(vmaf, nullptr, nullptr, 0), 0);
  std::vector<double> scores;
  for (unsigned i = 0; i < frames; ++i)
    for (const char* name : {"psnr_y", "float_ssim"}) {
      double s = 0;
      EXPECT_EQ(vmaf_feature_score_at_index(vmaf, name, &s, i), 0) << name << " " << i;
      scores.push_back(s);
    }
  EXPECT_EQ(vmaf_close(vmaf), 0);
  return scores;
}

TEST(LibvmafApiPictures, ReusedBlocksScoreAsOnTheCallersThread) {
  for (const unsigned bpc : {8u, 10u}) {
    // n_threads 0 scores on the caller's thread; 3 lends the pictures to the
    // run's threads, which give them back (to be reused) as they copy them.
    const std::vector<double> alone = run_scores(0, 40, bpc);
    const std::vector<double> threaded = run_scores(3, 40, bpc);
    ASSERT_EQ(alone.size(), threaded.size());
    for (size_t i = 0; i < alone.size(); ++i)
      EXPECT_EQ(std::memcmp(&alone[i], &threaded[i], sizeof(double)), 0)
          << "bpc " << bpc << ", score " << i << ": " << alone[i] << " vs " << threaded[i];
  }
}

}  // namespace
