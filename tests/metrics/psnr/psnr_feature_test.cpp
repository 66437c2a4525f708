// The psnr feature: options, names, libvmaf's per-frame and aggregate formulas on
// small frames whose SSE is known, and equal bits for any number of threads.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <cstring>
#include <random>

#include "core/error.h"
#include "metrics/feature.h"
#include "metrics/registry.h"
#include "metrics/psnr/psnr_feature.h"
#include "metrics/psnr/psnr_math.h"

namespace exactvq {
namespace {

using psnr::parse_psnr_options;
using psnr::PsnrOptions;

using Names = std::vector<std::string>;

bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

// A frame of constant planes (value `v` at every sample), and one sample of luma
// changed by `delta` when delta != 0.
Picture constant_frame(const VideoFormat& f, uint32_t v, int delta = 0) {
  Picture pic;
  pic.allocate(f);
  for (int p = 0; p < f.plane_count(); ++p) {
    const size_t n = size_t(f.plane_width(p)) * f.plane_height(p);
    for (size_t i = 0; i < n; ++i) {
      const uint32_t s = (p == 0 && i == 0) ? uint32_t(int(v) + delta) : v;
      if (f.bitdepth > 8)
        reinterpret_cast<uint16_t*>(pic.plane_data(p))[i] = uint16_t(s);
      else
        pic.plane_data(p)[i] = uint8_t(s);
    }
  }
  return pic;
}

std::vector<double> run_one(Feature& f, const Picture& a, const Picture& b) {
  std::vector<double> out(f.outputs().size());
  f.extract(a, b, out);
  return out;
}

std::unique_ptr<Feature> psnr(const std::string& options, const VideoFormat& format,
                              ThreadPool* pool = nullptr) {
  FeatureContext ctx{format, pool, nullptr};
  return make_feature(parse_feature_spec("psnr" + options), ctx);
}

TEST(PsnrOptions, ParsesEveryOptionAndDefaults) {
  const PsnrOptions d = parse_psnr_options(parse_feature_spec("psnr"));
  EXPECT_TRUE(d.enable_chroma);
  EXPECT_FALSE(d.enable_mse || d.enable_apsnr || d.reduced_hbd_peak);
  EXPECT_EQ(d.min_sse, 0.0);
  const PsnrOptions o = parse_psnr_options(parse_feature_spec(
      "psnr=enable_chroma=false:enable_mse=true:enable_apsnr=1:reduced_hbd_peak=yes:min_sse=0.5"));
  EXPECT_FALSE(o.enable_chroma);
  EXPECT_TRUE(o.enable_mse && o.enable_apsnr && o.reduced_hbd_peak);
  EXPECT_EQ(o.min_sse, 0.5);
  EXPECT_EQ(parse_psnr_options(parse_feature_spec("psnr=min_sse=1e3")).min_sse, 1000.0);
}

TEST(PsnrOptions, RejectsUnknownKeysAndBadValues) {
  for (const char* text : {"psnr=enable_chroma=maybe", "psnr=chroma=true", "psnr=min_sse=-1",
                           "psnr=min_sse=", "psnr=min_sse=abc", "psnr=min_sse=1x",
                           "psnr=min_sse=inf", "psnr=min_sse=nan", "psnr=min_sse=1e999"})
    EXPECT_THROW(parse_psnr_options(parse_feature_spec(text)), UsageError) << text;
}

TEST(PsnrFeature, NamesInLibvmafOrder) {
  const VideoFormat yuv{16, 16, ChromaFormat::k420, 8};
  EXPECT_EQ(psnr("", yuv)->outputs(), (Names{"psnr_y", "psnr_cb", "psnr_cr"}));
  EXPECT_EQ(psnr("=enable_mse=true", yuv)->outputs(),
            (Names{"psnr_y", "mse_y", "psnr_cb", "mse_cb", "psnr_cr", "mse_cr"}));
  EXPECT_EQ(psnr("=enable_chroma=false:enable_mse=true", yuv)->outputs(),
            (Names{"psnr_y", "mse_y"}));
  const VideoFormat mono{16, 16, ChromaFormat::kMono, 10};
  EXPECT_EQ(psnr("", mono)->outputs(), Names{"psnr_y"});
  EXPECT_EQ(psnr("=enable_chroma=true", mono)->outputs(), Names{"psnr_y"});
}

TEST(PsnrFeature, IdenticalFramesGiveTheCeilingOf6BitsPlus12) {
  for (int bits = 8; bits <= 16; ++bits) {
    const VideoFormat f{9, 7, ChromaFormat::k422, bits};
    const Picture a = constant_frame(f, 3);
    const auto out = run_one(*psnr("", f), a, a);
    for (const double v : out) EXPECT_EQ(v, 6.0 * bits + 12) << bits;
  }
}

TEST(PsnrFeature, OneSampleOffGivesLibvmafsFormula) {
  const VideoFormat f{4, 4, ChromaFormat::k444, 8};
  const Picture a = constant_frame(f, 100), b = constant_frame(f, 100, -3);
  const auto out = run_one(*psnr("=enable_mse=true", f), a, b);
  ASSERT_EQ(out.size(), 6u);
  const double mse = 9.0 / 16.0;
  EXPECT_TRUE(same_bits(out[0], std::min(10.0 * std::log10(65025.0 / mse), 60.0)));
  EXPECT_TRUE(same_bits(out[1], mse));
  EXPECT_EQ(out[2], 60.0);
  EXPECT_EQ(out[3], 0.0);
}

TEST(PsnrFeature, ReducedHbdPeakIs255TimesTwoToTheBitsMinus8) {
  EXPECT_EQ(psnr::peak_value(8, true), 255u);
  EXPECT_EQ(psnr::peak_value(8, false), 255u);
  EXPECT_EQ(psnr::peak_value(10, true), 1020u);
  EXPECT_EQ(psnr::peak_value(10, false), 1023u);
  EXPECT_EQ(psnr::peak_value(16, true), 65280u);
  EXPECT_EQ(psnr::peak_value(16, false), 65535u);
  const VideoFormat f{8, 2, ChromaFormat::kMono, 10};
  const Picture a = constant_frame(f, 500), b = constant_frame(f, 500, 7);
  const double mse = 49.0 / 16.0;
  EXPECT_TRUE(same_bits(run_one(*psnr("=reduced_hbd_peak=true", f), a, b)[0],
                        10.0 * std::log10(1020.0 * 1020.0 / mse)));
  EXPECT_TRUE(same_bits(run_one(*psnr("", f), a, b)[0], 10.0 * std::log10(1023.0 * 1023.0 / mse)));
}

TEST(PsnrFeature, MinSseSetsEachPlanesCeiling) {
  const VideoFormat f{16, 16, ChromaFormat::k420, 8};
  const Picture a = constant_frame(f, 9);
  // luma: ceil(10 log10(65025 / (0.5 / 256))) = 76; chroma 8x8: 70.
  const auto out = run_one(*psnr("=min_sse=0.5", f), a, a);
  EXPECT_EQ(out, (std::vector<double>{76.0, 70.0, 70.0}));
  // A tiny min_sse lifts the ceiling above the 1e-16 floor of the MSE.
  const auto floor = run_one(*psnr("=min_sse=1e-30:enable_chroma=false", f), a, a);
  EXPECT_TRUE(same_bits(floor[0], 10.0 * std::log10(65025.0 / 1e-16)));
}

TEST(PsnrFeature, AggregatePsnrOverTheRun) {
  const VideoFormat f{4, 4, ChromaFormat::k420, 8};
  const Picture a = constant_frame(f, 50), b = constant_frame(f, 50, 2),
                c = constant_frame(f, 50, 5);
  auto feature = psnr("=enable_apsnr=true", f);
  run_one(*feature, a, b);
  run_one(*feature, a, c);
  const auto agg = feature->aggregates();
  ASSERT_EQ(agg.size(), 3u);
  EXPECT_EQ(agg[0].first, "apsnr_y");
  EXPECT_EQ(agg[1].first, "apsnr_cb");
  EXPECT_EQ(agg[2].first, "apsnr_cr");
  // luma: SSE 4 + 25 over 32 samples; chroma: SSE 0, so the ceiling.
  const double want_y = 10.0 * (std::log10(65025.0) + std::log10(32.0) - std::log10(29.0));
  EXPECT_TRUE(same_bits(agg[0].second, want_y));
  EXPECT_EQ(agg[1].second, std::ceil(10.0 * std::log10(65025.0 * 8 * 2)));
  EXPECT_TRUE(psnr("", f)->aggregates().empty());
  auto luma = psnr("=enable_apsnr=true:enable_chroma=false", f);
  run_one(*luma, a, b);
  // As libvmaf: the planes not scored are named too, at -infinity (nothing measured).
  const auto luma_agg = luma->aggregates();
  ASSERT_EQ(luma_agg.size(), 3u);
  EXPECT_EQ(luma_agg[1].first, "apsnr_cb");
  EXPECT_EQ(luma_agg[1].second, -std::numeric_limits<double>::infinity());
  EXPECT_EQ(luma_agg[2].second, -std::numeric_limits<double>::infinity());
}

TEST(PsnrFeature, AggregateSumsDoNotWrapAt64Bits) {
  psnr::ApsnrSum s;
  for (int i = 0; i < 32; ++i) s.add(uint64_t{1} << 60, uint64_t{1} << 28);
  const double want =
      10.0 * (std::log10(65535.0 * 65535.0) + std::log10(0x1p33) - std::log10(0x1p65));
  EXPECT_TRUE(same_bits(psnr::aggregate_psnr(s, 65535), want));
}

TEST(PsnrFeature, AnyThreadCountGivesTheSameBits) {
  const VideoFormat f{200, 150, ChromaFormat::k420, 12};
  std::mt19937_64 rng(99);
  Picture a, b;
  a.allocate(f);
  b.allocate(f);
  for (int p = 0; p < 3; ++p) {
    auto* x = reinterpret_cast<uint16_t*>(a.plane_data(p));
    auto* y = reinterpret_cast<uint16_t*>(b.plane_data(p));
    for (size_t i = 0; i < a.planes[p].size() / 2; ++i) {
      x[i] = uint16_t(rng() % 4096);
      y[i] = uint16_t(rng() % 4096);
    }
  }
  const auto one = run_one(*psnr("=enable_mse=true", f), a, b);
  for (const int threads : {2, 3, 5}) {
    ThreadPool pool(threads);
    const auto many = run_one(*psnr("=enable_mse=true", f, &pool), a, b);
    ASSERT_EQ(many.size(), one.size());
    for (size_t k = 0; k < one.size(); ++k) EXPECT_TRUE(same_bits(many[k], one[k])) << threads;
  }
}

}  // namespace
}  // namespace exactvq
