// Pictures in CUDA device memory (vmaf_cuda_preallocate_pictures with
// METHOD_DEVICE, as FFmpeg's libvmaf_cuda filter uses them): filled with
// cudaMemcpy2D from host frames of the public Y4M pairs, read, and scored on the
// state's device; VMAF v0.6.1's per-frame and pooled values equal libvmaf's
// plain C (the stored nosimd run). Skipped where CUDA is not compiled in or no
// device is usable; without CUDA, METHOD_DEVICE is refused.
#include <gtest/gtest.h>

#include <cerrno>
#include <cstring>
#include <fstream>

#include <nlohmann/json.hpp>

#ifdef EXACTVQ_HAVE_CUDA
#include <cuda_runtime_api.h>
#endif

#include "api_runs.h"
#include "libvmaf/libvmaf_cuda.h"
#include "y4m_pictures.h"

namespace exactvq::libvmaf_test {
namespace {

TEST(LibvmafApiCudaPictures, DevicePicturesNeedACudaState) {
  VmafConfiguration cfg{};
  cfg.log_level = VMAF_LOG_LEVEL_NONE;
  VmafContext* vmaf = nullptr;
  ASSERT_EQ(vmaf_init(&vmaf, cfg), 0);
  VmafCudaPictureConfiguration pc{};
  pc.pic_params.w = 64;
  pc.pic_params.h = 64;
  pc.pic_params.bpc = 8;
  pc.pic_params.pix_fmt = VMAF_PIX_FMT_YUV420P;
  pc.pic_prealloc_method = VMAF_CUDA_PICTURE_PREALLOCATION_METHOD_DEVICE;
  EXPECT_EQ(vmaf_cuda_preallocate_pictures(vmaf, pc), -EINVAL);
  pc.pic_prealloc_method = VMAF_CUDA_PICTURE_PREALLOCATION_METHOD_HOST;
  EXPECT_EQ(vmaf_cuda_preallocate_pictures(vmaf, pc), 0);  // host pictures need none
  VmafPicture pic;
  ASSERT_EQ(vmaf_cuda_fetch_preallocated_picture(vmaf, &pic), 0);
  EXPECT_EQ(vmaf_picture_unref(&pic), 0);
  EXPECT_EQ(vmaf_close(vmaf), 0);
}

#ifdef EXACTVQ_HAVE_CUDA
TEST(LibvmafApiCudaPictures, DevicePicturesGiveLibvmafsPlainCBits) {
  std::ifstream in(shared_dir() / "vectors" / "libvmaf_vmaf_scores.json");
  if (!in) GTEST_SKIP() << "no " << (shared_dir() / "vectors").string();
  const auto doc = nlohmann::json::parse(in);
  VmafCudaState* state = nullptr;
  if (vmaf_cuda_state_init(&state, VmafCudaConfiguration{}) != 0)
    GTEST_SKIP() << "no usable CUDA device";
  size_t total = 0;
  for (const auto& [pair, entry] : doc["pairs"].items()) {
    const auto& format = entry["format"];
    const auto& run = entry["runs"]["vmaf_v0.6.1_nosimd"];
    if (format["file_type"] != "y4m" || format["width"] != 576 || run["rc"] != 0) continue;
    const fs::path dir = shared_dir() / "vectors" / pair;
    VmafConfiguration cfg{};
    cfg.log_level = VMAF_LOG_LEVEL_ERROR;
    VmafContext* vmaf = nullptr;
    ASSERT_EQ(vmaf_init(&vmaf, cfg), 0);
    ASSERT_EQ(vmaf_cuda_import_state(vmaf, state), 0);
    VmafModelConfig model_cfg{};
    VmafModel* model = nullptr;
    ASSERT_EQ(vmaf_model_load(&model, &model_cfg, "vmaf_v0.6.1"), 0);
    ASSERT_EQ(vmaf_use_features_from_model(vmaf, model), 0);
    Y4mPictures ref(dir / "ref.y4m"), dist(dir / "dist.y4m");
    VmafCudaPictureConfiguration pc{};
    pc.pic_params.w = ref.width();
    pc.pic_params.h = ref.height();
    pc.pic_params.bpc = ref.bpc();
    pc.pic_params.pix_fmt = ref.pix_fmt();
    pc.pic_prealloc_method = VMAF_CUDA_PICTURE_PREALLOCATION_METHOD_DEVICE;
    ASSERT_EQ(vmaf_cuda_preallocate_pictures(vmaf, pc), 0);
    unsigned n = 0;
    for (VmafPicture r, d; ref.next(r) && dist.next(d); ++n) {
      VmafPicture on_device[2];
      const VmafPicture* host[2] = {&r, &d};
      for (int k = 0; k < 2; ++k) {
        ASSERT_EQ(vmaf_cuda_fetch_preallocated_picture(vmaf, &on_device[k]), 0);
        const size_t bytes = host[k]->bpc > 8 ? 2 : 1;
        for (int p = 0; p < 3; ++p)
          if (host[k]->data[p])
            ASSERT_EQ(cudaMemcpy2D(on_device[k].data[p], size_t(on_device[k].stride[p]),
                                   host[k]->data[p], size_t(host[k]->stride[p]),
                                   bytes * host[k]->w[p], host[k]->h[p], cudaMemcpyHostToDevice),
                      cudaSuccess);
      }
      vmaf_picture_unref(&r);
      vmaf_picture_unref(&d);
      ASSERT_EQ(vmaf_read_pictures(vmaf, &on_device[0], &on_device[1], n), 0) << pair;
    }
    ASSERT_EQ(vmaf_read_pictures(vmaf, nullptr, nullptr, 0), 0);
    for (const auto& frame : run["frames"]) {
      const unsigned i = frame["frameNum"];
      for (const auto& [key, value] : frame.items()) {
        if (key == "frameNum" || value.is_null()) continue;
        double s = 0;
        const int err = key == "vmaf" ? vmaf_score_at_index(vmaf, model, &s, i)
                                      : vmaf_feature_score_at_index(vmaf, key.c_str(), &s, i);
        ASSERT_EQ(err, 0) << pair << " " << key;
        const double want = value.get<double>();
        EXPECT_EQ(std::memcmp(&s, &want, sizeof s), 0) << pair << " frame " << i << " " << key;
        ++total;
      }
    }
    vmaf_model_destroy(model);
    EXPECT_EQ(vmaf_close(vmaf), 0);
  }
  std::free(state);
  std::printf("CUDA device pictures: %zu values compared with libvmaf's plain C\n", total);
}
#endif

}  // namespace
}  // namespace exactvq::libvmaf_test
