// libvmaf's C API misused: NULLs, calls out of order, mismatched or foreign
// pictures, bad models and options, reading after the flush. Each returns
// libvmaf's error code (-EINVAL) and leaves the context usable or closable;
// pictures a failed call did not take are unreferenced by the test (the suite
// runs under ASan in CI, so a leak or a bad access fails it).
#include <gtest/gtest.h>

#include <cerrno>
#include <cmath>
#include <cstdint>
#include <climits>
#include <cstring>
#include <filesystem>
#include <random>

#include "libvmaf/libvmaf.h"
#include "libvmaf/libvmaf_cuda.h"

namespace {

VmafConfiguration quiet_config(unsigned threads = 0, unsigned subsample = 0) {
  VmafConfiguration cfg{};
  cfg.log_level = VMAF_LOG_LEVEL_NONE;
  cfg.n_threads = threads;
  cfg.n_subsample = subsample;
  return cfg;
}

// A w x h picture of seeded noise.
VmafPicture noise_picture(unsigned w, unsigned h, unsigned bpc, uint32_t seed,
                          VmafPixelFormat fmt = VMAF_PIX_FMT_YUV420P) {
  VmafPicture pic;
  EXPECT_EQ(vmaf_picture_alloc(&pic, fmt, bpc, w, h), 0);
  std::mt19937 rng(seed);
  for (int p = 0; p < 3; ++p) {
    auto* row = static_cast<unsigned char*>(pic.data[p]);
    for (unsigned y = 0; y < pic.h[p]; ++y, row += pic.stride[p])
      for (unsigned x = 0; x < pic.w[p]; ++x) {
        const unsigned v = unsigned(rng() % (1u << bpc));
        if (bpc > 8)
          reinterpret_cast<uint16_t*>(row)[x] = uint16_t(v);
        else
          row[x] = uint8_t(v);
      }
  }
  return pic;
}

struct Context {
  explicit Context(VmafConfiguration cfg = quiet_config()) { EXPECT_EQ(vmaf_init(&v, cfg), 0); }
  ~Context() { vmaf_close(v); }
  VmafContext* v = nullptr;
};

TEST(LibvmafApiMisuse, NullArguments) {
  EXPECT_EQ(vmaf_init(nullptr, quiet_config()), -EINVAL);
  EXPECT_EQ(vmaf_close(nullptr), -EINVAL);
  EXPECT_EQ(vmaf_read_pictures(nullptr, nullptr, nullptr, 0), -EINVAL);
  EXPECT_EQ(vmaf_picture_alloc(nullptr, VMAF_PIX_FMT_YUV420P, 8, 16, 16), -EINVAL);
  EXPECT_EQ(vmaf_picture_unref(nullptr), -EINVAL);
  EXPECT_EQ(vmaf_feature_dictionary_set(nullptr, "a", "b"), -EINVAL);
  VmafFeatureDictionary* d = nullptr;
  EXPECT_EQ(vmaf_feature_dictionary_set(&d, nullptr, "b"), -EINVAL);
  EXPECT_EQ(vmaf_feature_dictionary_set(&d, "a", nullptr), -EINVAL);
  EXPECT_EQ(vmaf_feature_dictionary_free(&d), -EINVAL);  // still NULL
  EXPECT_EQ(vmaf_feature_dictionary_free(nullptr), -EINVAL);
  VmafModel* model = nullptr;
  EXPECT_EQ(vmaf_model_load(&model, nullptr, "vmaf_v0.6.1"), -EINVAL);
  vmaf_model_destroy(nullptr);

  Context c;
  double s = 0;
  EXPECT_EQ(vmaf_use_feature(c.v, nullptr, nullptr), -EINVAL);
  EXPECT_EQ(vmaf_use_features_from_model(c.v, nullptr), -EINVAL);
  EXPECT_EQ(vmaf_score_at_index(c.v, nullptr, &s, 0), -EINVAL);
  EXPECT_EQ(vmaf_feature_score_at_index(c.v, "psnr_y", nullptr, 0), -EINVAL);
  EXPECT_EQ(vmaf_feature_score_at_index(c.v, nullptr, &s, 0), -EINVAL);
  EXPECT_EQ(vmaf_feature_score_pooled(c.v, nullptr, VMAF_POOL_METHOD_MEAN, &s, 0, 0), -EINVAL);
  EXPECT_EQ(vmaf_import_feature_score(c.v, nullptr, 1.0, 0), -EINVAL);
  EXPECT_EQ(vmaf_write_output(c.v, nullptr, VMAF_OUTPUT_FORMAT_JSON), -EINVAL);
  EXPECT_EQ(vmaf_fetch_preallocated_picture(c.v, nullptr), -EINVAL);
}

TEST(LibvmafApiMisuse, PictureAllocationChecksAndLayout) {
  VmafPicture pic;
  EXPECT_EQ(vmaf_picture_alloc(&pic, VMAF_PIX_FMT_UNKNOWN, 8, 16, 16), -EINVAL);
  EXPECT_EQ(vmaf_picture_alloc(&pic, VMAF_PIX_FMT_YUV420P, 7, 16, 16), -EINVAL);
  EXPECT_EQ(vmaf_picture_alloc(&pic, VMAF_PIX_FMT_YUV420P, 17, 16, 16), -EINVAL);
  ASSERT_EQ(vmaf_picture_alloc(&pic, VMAF_PIX_FMT_YUV420P, 10, 33, 17), 0);
  // libvmaf's layout: chroma rounded down, rows of 32-sample multiples, in bytes.
  EXPECT_EQ(pic.w[1], 16u);
  EXPECT_EQ(pic.h[1], 8u);
  EXPECT_EQ(pic.stride[0], 64 * 2);
  EXPECT_EQ(pic.stride[1], 32 * 2);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(pic.data[0]) % 32, 0u);
  EXPECT_EQ(static_cast<char*>(pic.data[1]) - static_cast<char*>(pic.data[0]), 64 * 2 * 17);
  EXPECT_NE(pic.ref, nullptr);
  EXPECT_NE(pic.priv, nullptr);
  EXPECT_EQ(vmaf_picture_unref(&pic), 0);
  EXPECT_EQ(pic.ref, nullptr);
  EXPECT_EQ(vmaf_picture_unref(&pic), -EINVAL);  // already given back
  ASSERT_EQ(vmaf_picture_alloc(&pic, VMAF_PIX_FMT_YUV400P, 8, 8, 8), 0);
  EXPECT_EQ(pic.data[1], nullptr);
  EXPECT_EQ(pic.w[1], 0u);
  EXPECT_EQ(vmaf_picture_unref(&pic), 0);
}

TEST(LibvmafApiMisuse, BadModelsAndFeatures) {
  VmafModelConfig cfg{};
  VmafModel* model = reinterpret_cast<VmafModel*>(&cfg);
  EXPECT_EQ(vmaf_model_load(&model, &cfg, "no_such_model"), -EINVAL);
  EXPECT_EQ(model, nullptr);
  EXPECT_EQ(vmaf_model_load_from_path(&model, &cfg, "/no/such/model.json"), -EINVAL);
  EXPECT_EQ(model, nullptr);
  // A collection is no model, and a model no collection (libvmaf's readers each
  // find nothing of theirs).
  EXPECT_EQ(vmaf_model_load(&model, &cfg, "vmaf_b_v0.6.3"), -EINVAL);
  EXPECT_EQ(model, nullptr);
  VmafModelCollection* collection = reinterpret_cast<VmafModelCollection*>(&cfg);
  EXPECT_EQ(vmaf_model_collection_load(&model, &collection, &cfg, "vmaf_v0.6.1"), -EINVAL);
  EXPECT_EQ(collection, nullptr);
  EXPECT_EQ(model, nullptr);

  Context c;
  EXPECT_EQ(vmaf_use_feature(c.v, "no_such_feature", nullptr), -EINVAL);
  VmafFeatureDictionary* d = nullptr;
  ASSERT_EQ(vmaf_feature_dictionary_set(&d, "no_such_option", "1"), 0);
  EXPECT_EQ(vmaf_use_feature(c.v, "psnr", d), -EINVAL);  // not taken: ours to free
  EXPECT_EQ(vmaf_feature_dictionary_free(&d), 0);
  EXPECT_EQ(d, nullptr);
}

TEST(LibvmafApiMisuse, CallsOutOfOrderAndMismatchedPictures) {
  Context c;
  VmafFeatureDictionary* d = nullptr;
  ASSERT_EQ(vmaf_feature_dictionary_set(&d, "enable_chroma", "false"), 0);
  ASSERT_EQ(vmaf_use_feature(c.v, "psnr", d), 0);  // taken
  double s = 0;
  EXPECT_EQ(vmaf_feature_score_at_index(c.v, "psnr_y", &s, 0), -EINVAL);  // nothing read yet

  VmafPicture r = noise_picture(64, 48, 8, 1), dist = noise_picture(64, 48, 8, 2);
  EXPECT_EQ(vmaf_read_pictures(c.v, &r, nullptr, 0), -EINVAL);  // one NULL
  EXPECT_EQ(vmaf_read_pictures(c.v, &r, &dist, 5), -EINVAL);    // index out of order
  ASSERT_EQ(vmaf_read_pictures(c.v, &r, &dist, 0), 0);
  EXPECT_EQ(r.ref, nullptr);                                   // taken and unreferenced
  EXPECT_EQ(vmaf_use_feature(c.v, "psnr", nullptr), -EINVAL);  // after the first picture

  VmafPicture big = noise_picture(80, 48, 8, 3), small = noise_picture(64, 48, 8, 4);
  EXPECT_EQ(vmaf_read_pictures(c.v, &big, &small, 1), -EINVAL);  // ref and dist differ
  EXPECT_EQ(vmaf_read_pictures(c.v, &big, &big, 1), -EINVAL);    // not the first frame's size
  vmaf_picture_unref(&big);
  VmafPicture deep = noise_picture(64, 48, 10, 5), deep2 = noise_picture(64, 48, 10, 6);
  EXPECT_EQ(vmaf_read_pictures(c.v, &deep, &deep2, 1), -EINVAL);  // not the first's depth
  vmaf_picture_unref(&deep);
  vmaf_picture_unref(&deep2);
  VmafPicture foreign{};  // filled by the caller, not by vmaf_picture_alloc
  foreign.pix_fmt = VMAF_PIX_FMT_YUV420P;
  foreign.bpc = 8;
  foreign.w[0] = 64;
  foreign.h[0] = 48;
  foreign.data[0] = small.data[0];
  EXPECT_EQ(vmaf_read_pictures(c.v, &foreign, &small, 1), -EINVAL);
  vmaf_picture_unref(&small);

  EXPECT_EQ(vmaf_read_pictures(c.v, nullptr, nullptr, 0), 0);  // flush
  EXPECT_EQ(vmaf_feature_score_at_index(c.v, "psnr_y", &s, 0), 0);
  EXPECT_TRUE(std::isfinite(s));
  EXPECT_EQ(vmaf_feature_score_at_index(c.v, "psnr_cb", &s, 0), -EINVAL);  // enable_chroma=false
  EXPECT_EQ(vmaf_feature_score_at_index(c.v, "psnr_y", &s, 1), -EINVAL);   // no frame 1
  EXPECT_EQ(vmaf_read_pictures(c.v, nullptr, nullptr, 0), -EINVAL);        // flushed twice
  VmafPicture late = noise_picture(64, 48, 8, 7), late2 = noise_picture(64, 48, 8, 8);
  EXPECT_EQ(vmaf_read_pictures(c.v, &late, &late2, 1), -EINVAL);  // after the flush
  vmaf_picture_unref(&late);
  vmaf_picture_unref(&late2);

  EXPECT_EQ(vmaf_feature_score_pooled(c.v, "psnr_y", VMAF_POOL_METHOD_UNKNOWN, &s, 0, 0), -EINVAL);
  EXPECT_EQ(vmaf_feature_score_pooled(c.v, "psnr_y", VMAF_POOL_METHOD_NB, &s, 0, 0), -EINVAL);
  EXPECT_EQ(vmaf_feature_score_pooled(c.v, "psnr_y", VMAF_POOL_METHOD_MEAN, &s, 1, 0), -EINVAL);
  EXPECT_EQ(vmaf_feature_score_pooled(c.v, "psnr_y", VMAF_POOL_METHOD_MEAN, &s, 0, 1), -EINVAL);
  EXPECT_EQ(vmaf_feature_score_pooled(c.v, "psnr_y", VMAF_POOL_METHOD_MEAN, &s, 0, 0), 0);
  EXPECT_EQ(vmaf_write_output(c.v, "/no/such/dir/out.json", VMAF_OUTPUT_FORMAT_JSON), -EINVAL);
  EXPECT_EQ(vmaf_write_output(c.v, "unused.json", VMAF_OUTPUT_FORMAT_NONE), -EINVAL);
  EXPECT_EQ(vmaf_write_output(c.v, "unused.json", VmafOutputFormat(5)), -EINVAL);
}

// Odd-sized 4:2:0 pictures are scored as luma alone: a run with chroma scores is
// refused at its first picture (which it does not take), and the context still
// takes pictures of another size then.
// A sample above the depth's maximum fails the call that passes it, for the
// first pair (copied at once) and for later ones (checked where they are, then
// lent to the run's threads); the refused pictures are still the caller's, and
// the run goes on with a good pair at that index.
TEST(LibvmafApiMisuse, SamplesAboveTheDepthAreRefusedByTheirCall) {
  for (const unsigned threads : {0u, 3u}) {
    Context c(quiet_config(threads));
    ASSERT_EQ(vmaf_use_feature(c.v, "psnr", nullptr), 0);
    for (unsigned i = 0; i < 6; ++i) {
      if (i == 0 || i == 4) {
        VmafPicture r = noise_picture(64, 48, 10, 10 + i), d = noise_picture(64, 48, 10, 20 + i);
        // Plane Cb of the distorted picture, x=7, y=3: 1024 at 10 bits.
        reinterpret_cast<uint16_t*>(static_cast<char*>(d.data[1]) + 3 * d.stride[1])[7] = 1024;
        EXPECT_EQ(vmaf_read_pictures(c.v, &r, &d, i), -EINVAL) << "index " << i;
        EXPECT_NE(r.ref, nullptr);  // not taken
        EXPECT_EQ(vmaf_picture_unref(&r), 0);
        EXPECT_EQ(vmaf_picture_unref(&d), 0);
      }
      VmafPicture r = noise_picture(64, 48, 10, 30 + i), d = noise_picture(64, 48, 10, 40 + i);
      ASSERT_EQ(vmaf_read_pictures(c.v, &r, &d, i), 0) << "index " << i;
    }
    ASSERT_EQ(vmaf_read_pictures(c.v, nullptr, nullptr, 0), 0);
    double s = 0;
    for (unsigned i = 0; i < 6; ++i)
      EXPECT_EQ(vmaf_feature_score_at_index(c.v, "psnr_y", &s, i), 0);
  }
}

TEST(LibvmafApiMisuse, OddSizesWithChromaScoresAreRefused) {
  Context c;
  ASSERT_EQ(vmaf_use_feature(c.v, "psnr", nullptr), 0);  // psnr_cb, psnr_cr
  VmafPicture r = noise_picture(33, 17, 8, 1), d = noise_picture(33, 17, 8, 2);
  EXPECT_EQ(vmaf_read_pictures(c.v, &r, &d, 0), -EINVAL);
  EXPECT_NE(r.ref, nullptr);
  vmaf_picture_unref(&r);
  vmaf_picture_unref(&d);
  VmafPicture r2 = noise_picture(32, 16, 8, 3), d2 = noise_picture(32, 16, 8, 4);
  ASSERT_EQ(vmaf_read_pictures(c.v, &r2, &d2, 0), 0);
  ASSERT_EQ(vmaf_read_pictures(c.v, nullptr, nullptr, 0), 0);
  double s = 0;
  EXPECT_EQ(vmaf_feature_score_at_index(c.v, "psnr_cb", &s, 0), 0);

  // Luma-only scores of odd sizes, and 4:0:0 with psnr, are scored.
  Context luma;
  VmafFeatureDictionary* dict = nullptr;
  ASSERT_EQ(vmaf_feature_dictionary_set(&dict, "enable_chroma", "false"), 0);
  ASSERT_EQ(vmaf_use_feature(luma.v, "psnr", dict), 0);
  VmafPicture r3 = noise_picture(33, 17, 8, 5), d3 = noise_picture(33, 17, 8, 6);
  ASSERT_EQ(vmaf_read_pictures(luma.v, &r3, &d3, 0), 0);
  Context mono;
  ASSERT_EQ(vmaf_use_feature(mono.v, "psnr", nullptr), 0);
  VmafPicture r4 = noise_picture(33, 17, 8, 7, VMAF_PIX_FMT_YUV400P),
              d4 = noise_picture(33, 17, 8, 8, VMAF_PIX_FMT_YUV400P);
  ASSERT_EQ(vmaf_read_pictures(mono.v, &r4, &d4, 0), 0);
}

TEST(LibvmafApiMisuse, ModelScoresNeedTheModelRegistered) {
  VmafModelConfig cfg{};
  VmafModel* model = nullptr;
  ASSERT_EQ(vmaf_model_load(&model, &cfg, "vmaf_v0.6.1"), 0);
  Context c;
  double s = 0;
  EXPECT_EQ(vmaf_score_at_index(c.v, model, &s, 0), -EINVAL);
  EXPECT_EQ(vmaf_score_pooled(c.v, model, VMAF_POOL_METHOD_MEAN, &s, 0, 0), -EINVAL);
  ASSERT_EQ(vmaf_use_features_from_model(c.v, model), 0);
  EXPECT_EQ(vmaf_score_at_index(c.v, model, &s, 0), -EINVAL);  // no picture yet
  // Pictures too small for VMAF's extractors are refused, not crashed on.
  VmafPicture r = noise_picture(8, 8, 8, 1), d = noise_picture(8, 8, 8, 2);
  EXPECT_EQ(vmaf_read_pictures(c.v, &r, &d, 0), -EINVAL);
  vmaf_picture_unref(&r);
  vmaf_picture_unref(&d);
  vmaf_model_destroy(model);
}

TEST(LibvmafApiMisuse, ImportedScoresPoolAsLibvmaf) {
  Context c;
  EXPECT_EQ(vmaf_import_feature_score(c.v, "mine", 1.0, 0), 0);
  EXPECT_EQ(vmaf_import_feature_score(c.v, "mine", 2.0, 1), 0);
  EXPECT_EQ(vmaf_import_feature_score(c.v, "mine", 3.0, 2), 0);
  EXPECT_EQ(vmaf_import_feature_score(c.v, "mine", 4.0, 2), -EINVAL);  // no overwriting
  double s = 0;
  ASSERT_EQ(vmaf_feature_score_at_index(c.v, "mine", &s, 1), 0);
  EXPECT_EQ(s, 2.0);
  ASSERT_EQ(vmaf_feature_score_pooled(c.v, "mine", VMAF_POOL_METHOD_MEAN, &s, 0, 2), 0);
  EXPECT_EQ(s, 2.0);
  ASSERT_EQ(vmaf_feature_score_pooled(c.v, "mine", VMAF_POOL_METHOD_MIN, &s, 0, 2), 0);
  EXPECT_EQ(s, 1.0);
  ASSERT_EQ(vmaf_feature_score_pooled(c.v, "mine", VMAF_POOL_METHOD_MAX, &s, 0, 2), 0);
  EXPECT_EQ(s, 3.0);
  ASSERT_EQ(vmaf_feature_score_pooled(c.v, "mine", VMAF_POOL_METHOD_HARMONIC_MEAN, &s, 0, 2), 0);
  const double inverse_sum = 1. / 2. + 1. / 3. + 1. / 4.;
  EXPECT_EQ(s, 3 / inverse_sum - 1.0);
  EXPECT_EQ(vmaf_feature_score_pooled(c.v, "mine", VMAF_POOL_METHOD_MEAN, &s, 0, 3), -EINVAL);
}

TEST(LibvmafApiMisuse, SubsampleScoresEveryNthIndex) {
  Context c(quiet_config(0, 2));
  ASSERT_EQ(vmaf_use_feature(c.v, "psnr", nullptr), 0);
  for (unsigned i = 0; i < 3; ++i) {
    VmafPicture r = noise_picture(32, 32, 8, 10 + i), d = noise_picture(32, 32, 8, 20 + i);
    ASSERT_EQ(vmaf_read_pictures(c.v, &r, &d, i), 0);
  }
  ASSERT_EQ(vmaf_read_pictures(c.v, nullptr, nullptr, 0), 0);
  double s = 0;
  EXPECT_EQ(vmaf_feature_score_at_index(c.v, "psnr_y", &s, 0), 0);
  EXPECT_EQ(vmaf_feature_score_at_index(c.v, "psnr_y", &s, 1), -EINVAL);
  EXPECT_EQ(vmaf_feature_score_at_index(c.v, "psnr_y", &s, 2), 0);
  double pooled = 0, a = 0, b = 0;
  vmaf_feature_score_at_index(c.v, "psnr_y", &a, 0);
  vmaf_feature_score_at_index(c.v, "psnr_y", &b, 2);
  ASSERT_EQ(vmaf_feature_score_pooled(c.v, "psnr_y", VMAF_POOL_METHOD_MEAN, &pooled, 0, 2), 0);
  EXPECT_EQ(pooled, (0. + a + b) / 2);
  // Ranges to the top of unsigned end at the first index without a score, at once.
  EXPECT_EQ(vmaf_feature_score_pooled(c.v, "psnr_y", VMAF_POOL_METHOD_MEAN, &pooled, 0, UINT_MAX),
            -EINVAL);
  Context sparse(quiet_config(0, 4000000000u));
  EXPECT_EQ(vmaf_import_feature_score(sparse.v, "mine", 1.0, 0), 0);
  EXPECT_EQ(
      vmaf_feature_score_pooled(sparse.v, "mine", VMAF_POOL_METHOD_MEAN, &pooled, 0, UINT_MAX),
      -EINVAL);
  ASSERT_EQ(
      vmaf_feature_score_pooled(sparse.v, "mine", VMAF_POOL_METHOD_MEAN, &pooled, 0, 3999999999u),
      0);
  EXPECT_EQ(pooled, 1.0);
}

TEST(LibvmafApiMisuse, PreallocatedPicturesReturnToThePool) {
  Context c;
  VmafPictureConfiguration cfg{};
  cfg.pic_params.w = 32;
  cfg.pic_params.h = 32;
  cfg.pic_params.bpc = 8;
  cfg.pic_params.pix_fmt = VMAF_PIX_FMT_YUV420P;
  VmafPicture p;
  EXPECT_EQ(vmaf_fetch_preallocated_picture(c.v, &p), -EINVAL);  // no pool yet
  EXPECT_EQ(vmaf_preallocate_pictures(c.v, cfg), -EINVAL);       // pic_cnt 0
  cfg.pic_cnt = 2;
  ASSERT_EQ(vmaf_preallocate_pictures(c.v, cfg), 0);
  ASSERT_EQ(vmaf_use_feature(c.v, "psnr", nullptr), 0);
  VmafPicture a, b, extra;
  ASSERT_EQ(vmaf_fetch_preallocated_picture(c.v, &a), 0);
  ASSERT_EQ(vmaf_fetch_preallocated_picture(c.v, &b), 0);
  EXPECT_EQ(vmaf_fetch_preallocated_picture(c.v, &extra), -EINVAL);  // both in use
  EXPECT_EQ(a.stride[0], 32);
  ASSERT_EQ(vmaf_read_pictures(c.v, &a, &b, 0), 0);  // taken; back in the pool
  ASSERT_EQ(vmaf_fetch_preallocated_picture(c.v, &a), 0);
  ASSERT_EQ(vmaf_fetch_preallocated_picture(c.v, &b), 0);
  vmaf_picture_unref(&a);
  // Closing with a pool picture still out is fine: it outlives the context.
  vmaf_close(c.v);
  c.v = nullptr;
  EXPECT_EQ(vmaf_picture_unref(&b), 0);
}

TEST(LibvmafApiMisuse, CudaStateWithoutCudaIsRefused) {
  Context c;
  VmafCudaConfiguration cfg{};
#ifndef EXACTVQ_HAVE_CUDA
  VmafCudaState* state = nullptr;
  EXPECT_EQ(vmaf_cuda_state_init(&state, cfg), -EINVAL);
  EXPECT_EQ(state, nullptr);
#endif
  EXPECT_EQ(vmaf_cuda_state_init(nullptr, cfg), -EINVAL);
  EXPECT_EQ(vmaf_cuda_import_state(c.v, nullptr), -EINVAL);
  VmafPicture p;
  EXPECT_EQ(vmaf_cuda_fetch_preallocated_picture(c.v, &p), -EINVAL);
  VmafCudaPictureConfiguration pc{};
  pc.pic_prealloc_method = VMAF_CUDA_PICTURE_PREALLOCATION_METHOD_DEVICE;
  EXPECT_EQ(vmaf_cuda_preallocate_pictures(c.v, pc), -EINVAL);
}

// Model collections: NULLs (-EINVAL where libvmaf checks, and where it would
// crash), unknown versions and files, a collection used before it is registered
// or scored twice at an index (libvmaf's collector takes each name once).
TEST(LibvmafApiMisuse, ModelCollections) {
  VmafModelConfig cfg{};
  VmafModel* model = nullptr;
  VmafModelCollection* collection = nullptr;
  EXPECT_EQ(vmaf_model_collection_load(nullptr, &collection, &cfg, "vmaf_b_v0.6.3"), -EINVAL);
  EXPECT_EQ(vmaf_model_collection_load(&model, nullptr, &cfg, "vmaf_b_v0.6.3"), -EINVAL);
  EXPECT_EQ(vmaf_model_collection_load(&model, &collection, nullptr, "vmaf_b_v0.6.3"), -EINVAL);
  EXPECT_EQ(vmaf_model_collection_load(&model, &collection, &cfg, nullptr), -EINVAL);
  EXPECT_EQ(vmaf_model_collection_load_from_path(&model, &collection, &cfg, nullptr), -EINVAL);
  EXPECT_EQ(vmaf_model_collection_load(&model, &collection, &cfg, "vmaf_b_v9"), -EINVAL);
  EXPECT_EQ(vmaf_model_collection_load_from_path(&model, &collection, &cfg, "/no/such.json"),
            -EINVAL);
  EXPECT_EQ(model, nullptr);
  EXPECT_EQ(collection, nullptr);
  vmaf_model_collection_destroy(nullptr);  // as libvmaf: nothing

  Context c;
  VmafModelCollectionScore score{};
  double s = 0;
  EXPECT_EQ(vmaf_use_features_from_model_collection(nullptr, collection), -EINVAL);
  EXPECT_EQ(vmaf_use_features_from_model_collection(c.v, nullptr), -EINVAL);
  EXPECT_EQ(vmaf_score_at_index_model_collection(c.v, nullptr, &score, 0), -EINVAL);
  EXPECT_EQ(vmaf_score_pooled_model_collection(c.v, nullptr, VMAF_POOL_METHOD_MEAN, &score, 0, 0),
            -EINVAL);

  cfg.name = "b";
  ASSERT_EQ(vmaf_model_collection_load(&model, &collection, &cfg, "vmaf_b_v0.6.3"), 0);
  ASSERT_NE(model, nullptr);
  ASSERT_NE(collection, nullptr);
  EXPECT_EQ(vmaf_use_features_from_model_collection(nullptr, collection), -EINVAL);
  EXPECT_EQ(vmaf_score_at_index_model_collection(nullptr, collection, &score, 0), -EINVAL);
  EXPECT_EQ(vmaf_score_at_index_model_collection(c.v, collection, nullptr, 0), -EINVAL);
  EXPECT_EQ(
      vmaf_score_pooled_model_collection(c.v, collection, VMAF_POOL_METHOD_MEAN, nullptr, 0, 0),
      -EINVAL);
  // Not registered yet, then registered but nothing read.
  EXPECT_EQ(vmaf_score_at_index_model_collection(c.v, collection, &score, 0), -EINVAL);
  ASSERT_EQ(vmaf_use_features_from_model_collection(c.v, collection), 0);
  EXPECT_EQ(vmaf_use_features_from_model_collection(c.v, collection), 0);  // again: no-op
  EXPECT_EQ(vmaf_score_at_index_model_collection(c.v, collection, &score, 0), -EINVAL);
  EXPECT_EQ(
      vmaf_score_pooled_model_collection(c.v, collection, VMAF_POOL_METHOD_MEAN, &score, 1, 0),
      -EINVAL);  // low > high
  EXPECT_EQ(
      vmaf_score_pooled_model_collection(c.v, collection, VMAF_POOL_METHOD_UNKNOWN, &score, 0, 0),
      -EINVAL);

  // The overload's NULLs leave the dictionary the caller's; otherwise it is taken.
  VmafFeatureDictionary* d = nullptr;
  ASSERT_EQ(vmaf_feature_dictionary_set(&d, "vif_enhn_gain_limit", "1.0"), 0);
  EXPECT_EQ(vmaf_model_collection_feature_overload(nullptr, &collection, "vif", d), -EINVAL);
  EXPECT_EQ(vmaf_model_collection_feature_overload(model, nullptr, "vif", d), -EINVAL);
  VmafModelCollection* none = nullptr;
  EXPECT_EQ(vmaf_model_collection_feature_overload(model, &none, "vif", d), -EINVAL);
  EXPECT_EQ(vmaf_model_collection_feature_overload(model, &collection, nullptr, d), -EINVAL);
  EXPECT_EQ(vmaf_feature_dictionary_free(&d), 0);

  for (unsigned i = 0; i < 3; ++i) {
    VmafPicture r = noise_picture(64, 48, 8, 30 + i), p = noise_picture(64, 48, 8, 40 + i);
    ASSERT_EQ(vmaf_read_pictures(c.v, &r, &p, i), 0);
  }
  // After the first picture: the same collection again is a no-op (as libvmaf),
  // another refused.
  EXPECT_EQ(vmaf_use_features_from_model_collection(c.v, collection), 0);
  VmafModel* other_model = nullptr;
  VmafModelCollection* other = nullptr;
  cfg.name = "c";
  ASSERT_EQ(vmaf_model_collection_load(&other_model, &other, &cfg, "vmaf_b_v0.6.3"), 0);
  EXPECT_EQ(vmaf_use_features_from_model_collection(c.v, other), -EINVAL);
  vmaf_model_destroy(other_model);
  vmaf_model_collection_destroy(other);
  ASSERT_EQ(vmaf_read_pictures(c.v, nullptr, nullptr, 0), 0);
  EXPECT_EQ(vmaf_score_at_index_model_collection(c.v, collection, &score, 3), -EINVAL);
  ASSERT_EQ(vmaf_score_at_index_model_collection(c.v, collection, &score, 1), 0);
  EXPECT_EQ(score.type, VMAF_MODEL_COLLECTION_SCORE_BOOTSTRAP);
  EXPECT_LE(score.bootstrap.ci.p95.lo, score.bootstrap.bagging_score);
  EXPECT_LE(score.bootstrap.bagging_score, score.bootstrap.ci.p95.hi);
  ASSERT_EQ(vmaf_feature_score_at_index(c.v, "b_bagging", &s, 1), 0);
  EXPECT_EQ(s, score.bootstrap.bagging_score);
  ASSERT_EQ(vmaf_feature_score_at_index(c.v, "b_0020", &s, 1), 0);
  EXPECT_NE(vmaf_feature_score_at_index(c.v, "b_0021", &s, 1), 0);
  // Index 1 again, and a range holding it: libvmaf refuses to write its scores twice.
  EXPECT_EQ(vmaf_score_at_index_model_collection(c.v, collection, &score, 1), -EINVAL);
  EXPECT_EQ(
      vmaf_score_pooled_model_collection(c.v, collection, VMAF_POOL_METHOD_MEAN, &score, 0, 2),
      -EINVAL);
  // Index 0 was scored by that call before it met index 1; index 2 is left.
  EXPECT_EQ(vmaf_score_at_index_model_collection(c.v, collection, &score, 0), -EINVAL);
  VmafModelCollectionScore pooled{};
  ASSERT_EQ(
      vmaf_score_pooled_model_collection(c.v, collection, VMAF_POOL_METHOD_MAX, &pooled, 2, 2), 0);
  ASSERT_EQ(vmaf_feature_score_at_index(c.v, "b_ci_p95_hi", &s, 2), 0);
  EXPECT_EQ(pooled.bootstrap.ci.p95.hi, s);
  // The main model reads its score through the collection's registration.
  EXPECT_EQ(vmaf_score_at_index(c.v, model, &s, 2), 0);
  vmaf_model_destroy(model);
  vmaf_model_collection_destroy(collection);
}

// Under n_subsample 2 a collection has scores at the even indices only; a
// pooled range of none is libvmaf's 0/0 (the same codes and values as upstream's
// library for the same calls, checked by hand).
TEST(LibvmafApiMisuse, ModelCollectionsUnderSubsampling) {
  Context c(quiet_config(0, 2));
  VmafModelConfig cfg{};
  VmafModel* model = nullptr;
  VmafModelCollection* collection = nullptr;
  ASSERT_EQ(vmaf_model_collection_load(&model, &collection, &cfg, "vmaf_b_v0.6.3"), 0);
  ASSERT_EQ(vmaf_use_features_from_model_collection(c.v, collection), 0);
  for (unsigned i = 0; i < 5; ++i) {
    VmafPicture r = noise_picture(64, 48, 8, 50 + i), p = noise_picture(64, 48, 8, 60 + i);
    ASSERT_EQ(vmaf_read_pictures(c.v, &r, &p, i), 0);
  }
  ASSERT_EQ(vmaf_read_pictures(c.v, nullptr, nullptr, 0), 0);
  VmafModelCollectionScore score{};
  EXPECT_EQ(vmaf_score_at_index_model_collection(c.v, collection, &score, 1), -EINVAL);
  ASSERT_EQ(
      vmaf_score_pooled_model_collection(c.v, collection, VMAF_POOL_METHOD_MEAN, &score, 0, 4), 0);
  double sum = 0, s = 0;
  for (unsigned i : {0u, 2u, 4u}) {
    ASSERT_EQ(vmaf_feature_score_at_index(c.v, "vmaf_stddev", &s, i), 0);
    sum += s;
  }
  EXPECT_EQ(score.bootstrap.stddev, sum / 3);
  EXPECT_EQ(
      vmaf_score_pooled_model_collection(c.v, collection, VMAF_POOL_METHOD_MEAN, &score, 1, 1), 0);
  EXPECT_TRUE(std::isnan(score.bootstrap.bagging_score));
  vmaf_model_destroy(model);
  vmaf_model_collection_destroy(collection);
}

TEST(LibvmafApiMisuse, VersionIsTheApis) { EXPECT_STREQ(vmaf_version(), "3.2.0"); }

}  // namespace
