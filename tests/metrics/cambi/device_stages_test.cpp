// cambi's device stages (metrics/cambi/definition.h) run on the host in the
// kernels' arrangement (one call an output; the contrast values a run of a
// row's samples at a time: the engines' runs, single samples and whole rows)
// against the scalar reference (reference.cpp), byte for byte: the 10-bit
// image, the mask, every scale's contrast values before pooling, and the
// pooled values through device_plan.h's host half, both from the values and
// from the kernels' pool records (pool_device.h, blocks of 32 x 8 runs and
// 16 x 16) where these give them, under every option the
// CPU's tests cover, at 8 to 16 bits. This is what proves the engines'
// indexing where no GPU is; the engines themselves run in device_test.cpp and
// the twin table.
#include <gtest/gtest.h>

#include <bit>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "banded_pictures.h"
#include "metrics/cambi/device_plan.h"
#include "metrics/cambi/reference.h"
#include "metrics/feature_spec.h"
#include "option_cases.h"

namespace exactvq::cambi {
namespace {

// A picture's luma stored tightly, as a device holds it.
std::vector<unsigned char> tight_luma(const Picture& pic) {
  const PlaneView p = pic.plane(0);
  const size_t row = size_t(p.width) * size_t(p.bytes_per_sample);
  std::vector<unsigned char> out(row * size_t(p.height));
  for (int y = 0; y < p.height; ++y)
    std::memcpy(out.data() + size_t(y) * row, p.row<uint8_t>(y), row);
  return out;
}

struct DeviceStages {
  std::vector<uint16_t> image;
  std::vector<uint8_t> mask;
  std::vector<float> values;  // every scale's, as DevicePicture lays them out
};

// A picture's pool records as the contrast kernel's blocks of `block_runs`
// runs of `run` samples by `block_rows` rows form them (each work-item's run,
// then the block's merged in any order: integers), laid out as pool_records.
std::vector<uint64_t> pool_records_of(const std::vector<float>& values, const DevicePicture& p,
                                      const PoolRecords& r, int run, int block_runs,
                                      int block_rows) {
  std::vector<uint64_t> words(r.records * EXACTVQ_CAMBI_POOL_WORDS);
  for (int n = 0; n < kScales; ++n) {
    const auto [w, h] = p.sizes[size_t(n)];
    const float* scale = values.data() + p.offset[size_t(n)];
    const int across = r.blocks_across[size_t(n)];
    for (size_t b = 0; b < r.count[size_t(n)]; ++b) {
      const int gx = int(b % size_t(across)), gy = int(b / size_t(across));
      CambiPoolPartial block = cambi_pool_empty();
      for (int ty = 0; ty < block_rows; ++ty)
        for (int tx = 0; tx < block_runs; ++tx) {
          const int i = gx * block_runs + tx, y = gy * block_rows + ty;
          if (i * run >= w || y >= h) continue;
          block = cambi_pool_merge(
              block, cambi_pool_add_run(cambi_pool_empty(), scale + size_t(y) * size_t(w), i * run,
                                        run, w));
        }
      cambi_pool_store(words.data() + (r.offset[size_t(n)] + b) * EXACTVQ_CAMBI_POOL_WORDS, block);
    }
  }
  return words;
}

// What the engines compute for picture `which` of `layout`, a kernel's output
// at a time; the contrast values a run of `run` samples of a row at a time.
DeviceStages device_stages(const Picture& pic, const CambiSetup& s, const DeviceLayout& layout,
                           int which, int run) {
  const DevicePicture& p = layout.picture[which];
  const ImagePlan& plan = *p.plan;
  const std::vector<unsigned char> luma = tight_luma(pic);
  const int wide = pic.format.bitdepth > 8;
  const int* rows = plan.source_rows.empty() ? nullptr : plan.source_rows.data();
  const int* cols = plan.source_cols.empty() ? nullptr : plan.source_cols.data();
  const int w0 = plan.width, h0 = plan.height;
  DeviceStages out;
  out.image.resize(size_t(w0) * size_t(h0));
  out.mask.resize(out.image.size());
  for (int y = 0; y < h0; ++y)
    for (int x = 0; x < w0; ++x)
      out.image[size_t(y) * size_t(w0) + size_t(x)] =
          cambi_ten_bit_at(luma.data(), wide, pic.format.width, rows, cols, layout.convert,
                           layout.anti_dither, w0, h0, x, y);
  for (int y = 0; y < h0; ++y)
    for (int x = 0; x < w0; ++x)
      out.mask[size_t(y) * size_t(w0) + size_t(x)] =
          uint8_t(cambi_mask_at(out.image.data(), w0, h0, p.mask_threshold, x, y));
  const std::vector<uint32_t> words = device_tables(s);
  CambiTables t;
  t.tvi = reinterpret_cast<const int*>(words.data() + kTableTvi);
  t.weight = reinterpret_cast<const int*>(words.data() + kTableWeight);
  t.reciprocal = reinterpret_cast<const float*>(words.data() + kTableReciprocal);
  out.values.assign(p.values, -1.0f);
  std::vector<uint16_t> filtered[2] = {std::vector<uint16_t>(out.image.size()),
                                       std::vector<uint16_t>(out.image.size())};
  const uint16_t* src = out.image.data();
  int src_width = w0;
  for (int n = 0; n < kScales; ++n) {
    const auto [w, h] = p.sizes[size_t(n)];
    uint16_t* f = filtered[n % 2].data();
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x)
        f[size_t(y) * size_t(w) + size_t(x)] =
            cambi_mode_filter_at(src, src_width, p.image_step[size_t(n)], w, h, x, y);
    std::vector<uint16_t> codes(size_t(w) * size_t(h));
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x)
        codes[size_t(y) * size_t(w) + size_t(x)] =
            cambi_band_code(f, w, out.mask.data(), w0, p.mask_step[size_t(n)], p.contrast, x, y);
    float* values = out.values.data() + p.offset[size_t(n)];
    for (int y = 0; y < h; ++y)
      for (int x0 = 0; x0 < w; x0 += run)
        cambi_contrast_run(codes.data(), w, h, x0, y, run, p.contrast, t,
                           values + size_t(y) * size_t(w));
    src = f;
    src_width = w;
  }
  return out;
}

TEST(CambiDeviceStages, EqualTheReferenceByteForByte) {
  std::mt19937_64 rng(0xca3b1'd3u);
  int pictures = 0, nonzero_scales = 0, from_records = 0, read_back = 0;
  for (const testing::OptionCase& c : testing::kOptionCases) {
    const VideoFormat f{c.w, c.h, ChromaFormat::k420, c.bitdepth};
    const CambiSetup s = make_cambi_setup(parse_cambi_options(parse_feature_spec(c.spec)), f);
    const DeviceLayout layout = device_layout(s);
    const testing::BandedLuma luma = testing::banded_luma(c.w, c.h, c.bitdepth, rng);
    const Picture pics[2] = {vif_testing::luma_picture(f, luma.dist),
                             vif_testing::luma_picture(f, luma.ref)};
    for (int which = 0; which < layout.pictures; ++which) {
      const std::string what =
          fmt::format("{}x{} {}-bit {} picture {}", c.w, c.h, c.bitdepth, c.spec, which);
      const DevicePicture& p = layout.picture[which];
      const ImagePlan& plan = *p.plan;
      // The reference's stages.
      std::vector<uint16_t> image(size_t(plan.width) * size_t(plan.height));
      ten_bit_image(pics[which].plane(0), s, plan, image.data());
      std::vector<uint8_t> mask(image.size());
      spatial_mask(image.data(), plan.width, plan.height, mask.data());
      std::vector<float> want(p.values);
      const std::array<double, kScales> want_pooled = scale_scores(
          pics[which].plane(0), s, plan, slide_counts_reference,
          [&](int n, std::span<const float> v, int, int) {
            ASSERT_EQ(v.size(), p.scale_values(n)) << what;
            std::copy(v.begin(), v.end(), want.begin() + ptrdiff_t(p.offset[size_t(n)]));
          });
      // The engines' runs of 32 samples, a sample a run (every histogram
      // counted afresh), and whole rows (the longest slides).
      for (const int run : {32, 1, 1 << 20}) {
        const DeviceStages got = device_stages(pics[which], s, layout, which, run);
        EXPECT_EQ(got.image, image) << what;
        EXPECT_EQ(got.mask, mask) << what;
        ASSERT_EQ(got.values.size(), want.size()) << what;
        EXPECT_EQ(std::memcmp(got.values.data(), want.data(), want.size() * sizeof(float)), 0)
            << what << ", runs of " << run;
        std::vector<float> reordered = got.values;
        std::array<double, kScales> pooled{};
        pool_picture(reordered, p, s.topk, nullptr, 0, nullptr, pooled);
        EXPECT_EQ(std::memcmp(pooled.data(), want_pooled.data(), sizeof pooled), 0) << what;
        if (run != 32) continue;
        // The CUDA kernel's blocks, and OpenCL's of 16 x 16.
        for (const auto& [bx, by] : {std::pair{32, 8}, std::pair{16, 16}}) {
          const PoolRecords r = pool_records(p, run, bx, by);
          const std::vector<uint64_t> words = pool_records_of(got.values, p, r, run, bx, by);
          std::array<double, kScales> from{};
          const unsigned back = pool_from_records(words.data(), r, p, s.topk, from);
          for (int n = 0; n < kScales; ++n) {
            if (back >> n & 1u) {
              ++read_back;
              continue;
            }
            ++from_records;
            EXPECT_EQ(std::bit_cast<uint64_t>(from[size_t(n)]),
                      std::bit_cast<uint64_t>(want_pooled[size_t(n)]))
                << what << ", scale " << n << " from records";
          }
        }
      }
      for (int n = 0; n < kScales; ++n) nonzero_scales += want_pooled[size_t(n)] != 0.0;
      ++pictures;
    }
  }
  std::printf(
      "cambi device stages: %d pictures, %d of their scales with banding, equal bytes; %d scales "
      "pooled from records, %d read back\n",
      pictures, nonzero_scales, from_records, read_back);
  EXPECT_GT(from_records, read_back);
  EXPECT_GT(nonzero_scales, pictures);  // the pictures band: the values are not all 0
}

}  // namespace
}  // namespace exactvq::cambi
