// The C API against the library it wraps: frames fed through exactvq_score_frame
// and files through exactvq_score_files give the scores of score_videos bit for
// bit; every misuse returns its status and a message instead of crashing.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "app/score_run.h"
#include "metrics/registry.h"
#include "core/picture.h"
#include "exactvq/exactvq.h"
#include "io/video_source.h"

namespace {

using namespace exactvq;

const std::string kRef = std::string(EXACTVQ_SAMPLES_DIR) + "/ref.y4m";
const std::string kDist = std::string(EXACTVQ_SAMPLES_DIR) + "/dist.y4m";

struct Close {
  void operator()(exactvq_context* c) const { exactvq_close(c); }
};
using ContextPtr = std::unique_ptr<exactvq_context, Close>;

// What a C caller can put in an enum field: any int.
template <typename Enum>
void set_raw(Enum& field, int value) {
  static_assert(sizeof(Enum) == sizeof(int));
  std::memcpy(&field, &value, sizeof value);
}

ContextPtr open_with(const std::vector<const char*>& features,
                     exactvq_mode mode = EXACTVQ_MODE_EXACT, int threads = 1) {
  exactvq_options o;
  exactvq_default_options(&o);
  o.features = features.data();
  o.feature_count = features.size();
  o.mode = mode;
  o.threads = threads;
  exactvq_context* ctx = nullptr;
  const exactvq_status s = exactvq_open(&ctx, &o);
  EXPECT_EQ(s, EXACTVQ_OK) << exactvq_last_error(nullptr);
  return ContextPtr(ctx);
}

exactvq_chroma chroma_of(ChromaFormat c) {
  switch (c) {
    case ChromaFormat::k420:
      return EXACTVQ_CHROMA_420;
    case ChromaFormat::k422:
      return EXACTVQ_CHROMA_422;
    case ChromaFormat::k444:
      return EXACTVQ_CHROMA_444;
    case ChromaFormat::kMono:
      return EXACTVQ_CHROMA_MONO;
  }
  return EXACTVQ_CHROMA_MONO;
}

// A view of a Picture as the C API takes it.
exactvq_picture view_of(const Picture& pic) {
  exactvq_picture v{};
  for (int p = 0; p < pic.format.plane_count(); ++p) {
    const PlaneView plane = pic.plane(p);
    v.data[p] = plane.data;
    v.stride[p] = plane.stride;
  }
  v.width = pic.format.width;
  v.height = pic.format.height;
  v.chroma = chroma_of(pic.format.chroma);
  v.bitdepth = pic.format.bitdepth;
  return v;
}

std::vector<Picture> read_all(const std::string& path) {
  auto src = open_video(path, {});
  std::vector<Picture> frames;
  Picture pic;
  while (src->read_frame(pic)) frames.push_back(pic);
  return frames;
}

ScoreReport library_scores(const std::vector<std::string>& features, int threads = 1) {
  RunOptions o;
  o.ref_path = kRef;
  o.dist_path = kDist;
  for (const auto& f : features) o.features.push_back(parse_feature_spec(f));
  o.threads = threads;
  return score_videos(o);
}

std::vector<double> read_series(const exactvq_context* ctx, const char* name) {
  size_t n = 0;
  EXPECT_EQ(exactvq_frame_count(ctx, &n), EXACTVQ_OK);
  std::vector<double> values(n);
  EXPECT_EQ(exactvq_read_scores(ctx, name, values.data(), n), EXACTVQ_OK)
      << exactvq_last_error(ctx);
  return values;
}

// Bit-for-bit equality of two series of doubles.
void expect_same_bits(const std::vector<double>& a, const std::vector<double>& b) {
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i)
    EXPECT_EQ(std::memcmp(&a[i], &b[i], sizeof(double)), 0)
        << "frame " << i << ": " << a[i] << " vs " << b[i];
}

TEST(CApi, VersionAndStatusNames) {
  EXPECT_STREQ(exactvq_version(), EXACTVQ_VERSION);
  EXPECT_STREQ(exactvq_status_name(EXACTVQ_ERROR_INPUT), "EXACTVQ_ERROR_INPUT");
  exactvq_status unknown;
  set_raw(unknown, 99);
  EXPECT_STREQ(exactvq_status_name(unknown), "EXACTVQ_UNKNOWN_STATUS");
}

TEST(CApi, DefaultsScoreSsim) {
  exactvq_context* raw = nullptr;
  ASSERT_EQ(exactvq_open(&raw, nullptr), EXACTVQ_OK);
  ContextPtr ctx(raw);
  size_t count = 0;
  ASSERT_EQ(exactvq_score_count(ctx.get(), &count), EXACTVQ_OK);
  ASSERT_EQ(count, 1u);
  const char* name = nullptr;
  ASSERT_EQ(exactvq_score_name(ctx.get(), 0, &name), EXACTVQ_OK);
  EXPECT_STREQ(name, "ssim");
  EXPECT_STREQ(exactvq_last_error(ctx.get()), "");
}

TEST(CApi, FedFramesEqualTheLibraryBitForBit) {
  const auto refs = read_all(kRef), dists = read_all(kDist);
  ASSERT_EQ(refs.size(), 10u);
  for (const char* spec :
       {"ssim=chroma=true", "ssim=sum=raster:chroma=true", "ssim=enable_db=true"})
    for (int threads : {1, 2}) {
      SCOPED_TRACE(std::string(spec) + ", threads " + std::to_string(threads));
      ContextPtr ctx = open_with({spec}, EXACTVQ_MODE_EXACT, threads);
      for (size_t i = 0; i < refs.size(); ++i) {
        const exactvq_picture r = view_of(refs[i]), d = view_of(dists[i]);
        ASSERT_EQ(exactvq_score_frame(ctx.get(), &r, &d), EXACTVQ_OK)
            << exactvq_last_error(ctx.get());
      }
      ASSERT_EQ(exactvq_flush(ctx.get()), EXACTVQ_OK);
      const ScoreReport expected = library_scores({spec}, threads);
      for (const auto& series : expected.features) {
        expect_same_bits(read_series(ctx.get(), series.name.c_str()), series.values);
        exactvq_pooled_scores p;
        ASSERT_EQ(exactvq_read_pooled(ctx.get(), series.name.c_str(), &p), EXACTVQ_OK);
        EXPECT_EQ(p.mean, pool(series.values).mean);
        EXPECT_EQ(p.harmonic_mean, pool(series.values).harmonic_mean);
      }
    }
}

TEST(CApi, ModeRasterIsTheSumOfSsimWithoutItsOwn) {
  const auto refs = read_all(kRef), dists = read_all(kDist);
  ContextPtr ctx = open_with({"ssim"}, EXACTVQ_MODE_RASTER);
  const exactvq_picture r = view_of(refs[0]), d = view_of(dists[0]);
  ASSERT_EQ(exactvq_score_frame(ctx.get(), &r, &d), EXACTVQ_OK);
  double score = 0;
  ASSERT_EQ(exactvq_read_score(ctx.get(), "ssim", 0, &score), EXACTVQ_OK);
  const ScoreReport expected = library_scores({"ssim=sum=raster"});
  EXPECT_EQ(score, expected.features[0].values[0]);
}

TEST(CApi, BatchEqualsOneByOneAndStridesDoNotMatter) {
  const auto refs = read_all(kRef), dists = read_all(kDist);
  // Copies with padded, then negative strides (rows stored bottom up).
  const VideoFormat f = refs[0].format;
  std::vector<std::vector<uint8_t>> storage;
  std::vector<exactvq_picture> padded_refs, flipped_dists;
  for (size_t i = 0; i < refs.size(); ++i) {
    exactvq_picture pr = view_of(refs[i]), pd = view_of(dists[i]);
    for (int p = 0; p < 3; ++p) {
      const PlaneView r = refs[i].plane(p), d = dists[i].plane(p);
      const ptrdiff_t pad_stride = r.stride + 13;
      storage.emplace_back(size_t(pad_stride) * size_t(r.height), uint8_t(0xEE));
      for (int y = 0; y < r.height; ++y)
        std::memcpy(storage.back().data() + y * pad_stride, r.row<uint8_t>(y), size_t(r.width));
      pr.data[p] = storage.back().data();
      pr.stride[p] = pad_stride;
      storage.emplace_back(size_t(d.stride) * size_t(d.height));
      for (int y = 0; y < d.height; ++y)
        std::memcpy(storage.back().data() + (d.height - 1 - y) * d.stride, d.row<uint8_t>(y),
                    size_t(d.width));
      pd.data[p] = storage.back().data() + (d.height - 1) * d.stride;
      pd.stride[p] = -d.stride;
    }
    padded_refs.push_back(pr);
    flipped_dists.push_back(pd);
  }
  (void)f;
  ContextPtr batch = open_with({"ssim=chroma=true"});
  ASSERT_EQ(
      exactvq_score_frames(batch.get(), padded_refs.data(), flipped_dists.data(), refs.size()),
      EXACTVQ_OK)
      << exactvq_last_error(batch.get());
  const ScoreReport expected = library_scores({"ssim=chroma=true"});
  for (const auto& series : expected.features)
    expect_same_bits(read_series(batch.get(), series.name.c_str()), series.values);
}

TEST(CApi, ScoreFilesEqualsTheLibrary) {
  ContextPtr ctx = open_with({"ssim=chroma=true"});
  exactvq_file_options fo;
  exactvq_default_file_options(&fo);
  fo.subsample = 3;
  ASSERT_EQ(exactvq_score_files(ctx.get(), kRef.c_str(), kDist.c_str(), &fo), EXACTVQ_OK)
      << exactvq_last_error(ctx.get());
  RunOptions o;
  o.ref_path = kRef;
  o.dist_path = kDist;
  o.features = {parse_feature_spec("ssim=chroma=true")};
  o.subsample = 3;
  const ScoreReport expected = score_videos(o);
  size_t n = 0;
  ASSERT_EQ(exactvq_frame_count(ctx.get(), &n), EXACTVQ_OK);
  ASSERT_EQ(n, expected.frame_numbers.size());
  for (size_t i = 0; i < n; ++i) {
    uint32_t number = 0;
    ASSERT_EQ(exactvq_frame_number(ctx.get(), i, &number), EXACTVQ_OK);
    EXPECT_EQ(number, expected.frame_numbers[i]);
  }
  for (const auto& series : expected.features)
    expect_same_bits(read_series(ctx.get(), series.name.c_str()), series.values);
  exactvq_pooled_scores p;
  ASSERT_EQ(exactvq_read_pooled(ctx.get(), "ssim_cr", &p), EXACTVQ_OK);
  EXPECT_EQ(p.min, pool(expected.features[2].values).min);
}

// Monochrome files have no chroma scores: psnr names psnr_y alone, and every name reads its own
// series (the names known at open, from a 4:2:0 probe, also held psnr_cb and psnr_cr).
TEST(CApi, ScoreFilesOfMonochromeFilesNameTheirScores) {
  const std::string dir = ::testing::TempDir();
  const std::string ref = dir + "/capi_mono_ref.y4m", dist = dir + "/capi_mono_dist.y4m";
  uint32_t state = 777;
  for (const std::string* path : {&ref, &dist}) {
    std::FILE* f = std::fopen(path->c_str(), "wb");
    ASSERT_NE(f, nullptr);
    std::fputs("YUV4MPEG2 W48 H32 F25:1 Ip A1:1 Cmono\n", f);
    for (int frame = 0; frame < 3; ++frame) {
      std::fputs("FRAME\n", f);
      for (int i = 0; i < 48 * 32; ++i) {
        state = state * 1664525u + 1013904223u;
        std::fputc(int((i + frame * 7 + (path == &dist ? int(state >> 28) : 0)) & 255), f);
      }
    }
    std::fclose(f);
  }
  ContextPtr ctx = open_with({"psnr", "ssim"});
  ASSERT_EQ(exactvq_score_files(ctx.get(), ref.c_str(), dist.c_str(), nullptr), EXACTVQ_OK)
      << exactvq_last_error(ctx.get());
  RunOptions o;
  o.ref_path = ref;
  o.dist_path = dist;
  o.features = {parse_feature_spec("psnr"), parse_feature_spec("ssim")};
  const ScoreReport expected = score_videos(o);
  ASSERT_EQ(expected.features.size(), 2u);
  size_t count = 0;
  ASSERT_EQ(exactvq_score_count(ctx.get(), &count), EXACTVQ_OK);
  ASSERT_EQ(count, expected.features.size());
  for (size_t i = 0; i < count; ++i) {
    const char* name = nullptr;
    ASSERT_EQ(exactvq_score_name(ctx.get(), i, &name), EXACTVQ_OK);
    EXPECT_EQ(std::string(name), expected.features[i].name);
    expect_same_bits(read_series(ctx.get(), name), expected.features[i].values);
  }
  double v = 0;
  EXPECT_EQ(exactvq_read_score(ctx.get(), "psnr_cb", 0, &v), EXACTVQ_ERROR_STATE);
}

// A synthetic 10-bit 4:2:2 pair, through the C API and straight through the feature.
TEST(CApi, TenBitPicturesEqualTheFeature) {
  const VideoFormat f{37, 21, ChromaFormat::k422, 10};
  Picture ref, dist;
  ref.allocate(f);
  dist.allocate(f);
  uint32_t state = 12345;
  for (int p = 0; p < 3; ++p) {
    auto* r = reinterpret_cast<uint16_t*>(ref.plane_data(p));
    auto* d = reinterpret_cast<uint16_t*>(dist.plane_data(p));
    for (size_t i = 0; i < ref.planes[p].size() / 2; ++i) {
      state = state * 1664525u + 1013904223u;
      r[i] = uint16_t((state >> 8) & 1023);
      d[i] = uint16_t(std::min<uint32_t>(1023, r[i] + ((state >> 20) & 31)));
    }
  }
  ContextPtr ctx = open_with({"ssim=chroma=true"});
  const exactvq_picture r = view_of(ref), d = view_of(dist);
  ASSERT_EQ(exactvq_score_frame(ctx.get(), &r, &d), EXACTVQ_OK) << exactvq_last_error(ctx.get());
  auto feature =
      make_feature(parse_feature_spec("ssim=chroma=true"), FeatureContext{f, nullptr, nullptr});
  std::vector<double> expected(3);
  feature->extract(ref, dist, expected);
  for (int p = 0; p < 3; ++p) {
    double v = 0;
    ASSERT_EQ(exactvq_read_score(ctx.get(), feature->outputs()[size_t(p)].c_str(), 0, &v),
              EXACTVQ_OK);
    EXPECT_EQ(std::memcmp(&v, &expected[size_t(p)], sizeof v), 0) << p;
  }
}

TEST(CApi, OpenRefusesBadFeaturesWithTheirMessage) {
  exactvq_options o;
  exactvq_default_options(&o);
  const char* unknown[] = {"nosuch"};
  o.features = unknown;
  o.feature_count = 1;
  exactvq_context* ctx = reinterpret_cast<exactvq_context*>(&o);  // overwritten with null
  EXPECT_EQ(exactvq_open(&ctx, &o), EXACTVQ_ERROR_USAGE);
  EXPECT_EQ(ctx, nullptr);
  EXPECT_NE(std::string(exactvq_last_error(nullptr)).find("unknown feature 'nosuch'"),
            std::string::npos)
      << exactvq_last_error(nullptr);

  const char* bad_option[] = {"ssim=sum=fast"};
  o.features = bad_option;
  EXPECT_EQ(exactvq_open(&ctx, &o), EXACTVQ_ERROR_USAGE);
  EXPECT_NE(std::string(exactvq_last_error(nullptr)).find("sum=fast"), std::string::npos);

  const char* twice[] = {"ssim", "ssim=chroma=true"};
  o.features = twice;
  o.feature_count = 2;
  EXPECT_EQ(exactvq_open(&ctx, &o), EXACTVQ_ERROR_USAGE);
  EXPECT_NE(std::string(exactvq_last_error(nullptr)).find("twice"), std::string::npos);

  o.feature_count = 0;
  o.threads = -1;
  EXPECT_EQ(exactvq_open(&ctx, &o), EXACTVQ_ERROR_ARGUMENT);
  o.threads = 0;
  set_raw(o.backend, 17);
  EXPECT_EQ(exactvq_open(&ctx, &o), EXACTVQ_ERROR_ARGUMENT);
  EXPECT_EQ(exactvq_open(nullptr, &o), EXACTVQ_ERROR_ARGUMENT);
}

TEST(CApi, BadPicturesAreRefusedAndScoreNothing) {
  const auto refs = read_all(kRef), dists = read_all(kDist);
  ContextPtr ctx = open_with({"ssim"});
  exactvq_picture r = view_of(refs[0]), d = view_of(dists[0]);
  const auto expect_error = [&](exactvq_status status, const std::string& fragment) {
    EXPECT_EQ(exactvq_score_frame(ctx.get(), &r, &d), status);
    EXPECT_NE(std::string(exactvq_last_error(ctx.get())).find(fragment), std::string::npos)
        << exactvq_last_error(ctx.get());
    r = view_of(refs[0]);
    d = view_of(dists[0]);
  };
  d.width = 100;
  expect_error(
      EXACTVQ_ERROR_INPUT,
      "reference picture (176x144 420 8-bit) and the distorted picture (100x144 420 8-bit)");
  r.data[1] = nullptr;
  expect_error(EXACTVQ_ERROR_ARGUMENT, "frame 0, reference picture: plane Cb is a null pointer");
  d.stride[2] = 10;
  expect_error(EXACTVQ_ERROR_ARGUMENT, "plane Cr stride 10 is shorter than its row of 88 bytes");
  r.bitdepth = d.bitdepth = 17;
  expect_error(EXACTVQ_ERROR_INPUT, "unsupported bit depth 17");
  set_raw(r.chroma, 9);
  set_raw(d.chroma, 9);
  expect_error(EXACTVQ_ERROR_ARGUMENT, "unknown chroma value 9");
  EXPECT_EQ(exactvq_score_frame(ctx.get(), nullptr, &d), EXACTVQ_ERROR_ARGUMENT);

  size_t n = 1;
  ASSERT_EQ(exactvq_frame_count(ctx.get(), &n), EXACTVQ_OK);
  EXPECT_EQ(n, 0u);
  ASSERT_EQ(exactvq_score_frame(ctx.get(), &r, &d), EXACTVQ_OK);
  EXPECT_STREQ(exactvq_last_error(ctx.get()), "");

  // The first frame fixed the format.
  const Picture small = [] {
    Picture p;
    p.allocate({16, 16, ChromaFormat::kMono, 8});
    return p;
  }();
  r = d = view_of(small);
  expect_error(
      EXACTVQ_ERROR_INPUT,
      "frame 1: the pictures are 16x16 mono 8-bit, but the first frame was 176x144 420 8-bit");
}

TEST(CApi, SamplesAboveTheBitDepthAreNamed) {
  Picture ref;
  ref.allocate({8, 4, ChromaFormat::kMono, 10});
  reinterpret_cast<uint16_t*>(ref.plane_data(0))[2 * 8 + 5] = 1024;
  ContextPtr ctx = open_with({"ssim"});
  const exactvq_picture r = view_of(ref), d = view_of(ref);
  EXPECT_EQ(exactvq_score_frame(ctx.get(), &r, &d), EXACTVQ_ERROR_INPUT);
  EXPECT_STREQ(
      exactvq_last_error(ctx.get()),
      "frame 0, reference picture: plane Y, x=5, y=2: sample 1024 exceeds the 10-bit maximum 1023");
}

TEST(CApi, CallsOutOfOrderAreStateErrors) {
  const auto refs = read_all(kRef), dists = read_all(kDist);
  ContextPtr ctx = open_with({"ssim"});
  const exactvq_picture r = view_of(refs[0]), d = view_of(dists[0]);
  ASSERT_EQ(exactvq_score_frame(ctx.get(), &r, &d), EXACTVQ_OK);
  exactvq_pooled_scores p;
  EXPECT_EQ(exactvq_read_pooled(ctx.get(), "ssim", &p), EXACTVQ_ERROR_STATE);
  EXPECT_EQ(exactvq_score_files(ctx.get(), kRef.c_str(), kDist.c_str(), nullptr),
            EXACTVQ_ERROR_STATE);
  double v = 0;
  EXPECT_EQ(exactvq_read_score(ctx.get(), "ssim_cb", 0, &v), EXACTVQ_ERROR_STATE);
  EXPECT_NE(std::string(exactvq_last_error(ctx.get())).find("no score 'ssim_cb'"),
            std::string::npos);
  EXPECT_EQ(exactvq_read_score(ctx.get(), "ssim", 1, &v), EXACTVQ_ERROR_RANGE);
  EXPECT_EQ(exactvq_read_scores(ctx.get(), "ssim", &v, 2), EXACTVQ_ERROR_RANGE);
  ASSERT_EQ(exactvq_flush(ctx.get()), EXACTVQ_OK);
  EXPECT_EQ(exactvq_score_frame(ctx.get(), &r, &d), EXACTVQ_ERROR_STATE);
  EXPECT_EQ(exactvq_read_pooled(ctx.get(), "ssim", &p), EXACTVQ_OK);
  EXPECT_EQ(exactvq_flush(nullptr), EXACTVQ_ERROR_ARGUMENT);
  EXPECT_EQ(exactvq_frame_count(nullptr, nullptr), EXACTVQ_ERROR_ARGUMENT);
  exactvq_close(nullptr);

  ContextPtr empty = open_with({"ssim"});
  ASSERT_EQ(exactvq_flush(empty.get()), EXACTVQ_OK);
  EXPECT_EQ(exactvq_read_pooled(empty.get(), "ssim", &p), EXACTVQ_ERROR_STATE);
}

TEST(CApi, FileErrorsNameTheFile) {
  ContextPtr ctx = open_with({"ssim"});
  EXPECT_EQ(exactvq_score_files(ctx.get(), "/nonexistent/ref.y4m", kDist.c_str(), nullptr),
            EXACTVQ_ERROR_INPUT);
  EXPECT_NE(std::string(exactvq_last_error(ctx.get())).find("/nonexistent/ref.y4m"),
            std::string::npos)
      << exactvq_last_error(ctx.get());
  exactvq_file_options fo;
  exactvq_default_file_options(&fo);
  fo.subsample = 0;
  EXPECT_EQ(exactvq_score_files(ctx.get(), kRef.c_str(), kDist.c_str(), &fo),
            EXACTVQ_ERROR_ARGUMENT);
  // A failed attempt leaves the context usable.
  ASSERT_EQ(exactvq_score_files(ctx.get(), kRef.c_str(), kDist.c_str(), nullptr), EXACTVQ_OK);
}

TEST(CApi, WarningsReachTheMessageCallback) {
  std::vector<std::string> messages;
  exactvq_options o;
  exactvq_default_options(&o);
  o.threads = 1;
  o.on_message = [](void* user, const char* m) {
    static_cast<std::vector<std::string>*>(user)->push_back(m);
  };
  o.message_user = &messages;
  exactvq_context* raw = nullptr;
  ASSERT_EQ(exactvq_open(&raw, &o), EXACTVQ_OK);
  ContextPtr ctx(raw);
  exactvq_file_options fo;
  exactvq_default_file_options(&fo);
  fo.skip_ref = 1;  // the reference ends one frame before the distorted video
  ASSERT_EQ(exactvq_score_files(ctx.get(), kRef.c_str(), kDist.c_str(), &fo), EXACTVQ_OK);
  ASSERT_EQ(messages.size(), 1u);
  EXPECT_NE(messages[0].find("ref.y4m"), std::string::npos) << messages[0];
}

// A requested GPU that is absent (no toolkit, or no device) is an error with a
// message, never a crash; on a machine with a GPU it scores.
TEST(CApi, MissingDeviceIsAnError) {
  exactvq_options o;
  exactvq_default_options(&o);
  o.backend = EXACTVQ_BACKEND_CUDA;
  exactvq_context* raw = nullptr;
  ASSERT_EQ(exactvq_open(&raw, &o), EXACTVQ_OK);
  ContextPtr ctx(raw);
  const exactvq_status s = exactvq_score_files(ctx.get(), kRef.c_str(), kDist.c_str(), nullptr);
  if (s != EXACTVQ_OK) {
    EXPECT_EQ(s, EXACTVQ_ERROR_DEVICE);
    EXPECT_NE(std::string(exactvq_last_error(ctx.get())).find("cuda"), std::string::npos);
  }
}

}  // namespace
