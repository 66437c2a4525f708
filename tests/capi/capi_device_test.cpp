// The C API on a GPU gives the CPU's bits: sample files, and random 10-bit frames
// fed one by one and as one batch. Skipped where no device can be opened (CI).
#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "core/picture.h"
#include "exactvq/exactvq.h"

namespace {

using namespace exactvq;

struct Close {
  void operator()(exactvq_context* c) const { exactvq_close(c); }
};
using ContextPtr = std::unique_ptr<exactvq_context, Close>;

ContextPtr open_on(exactvq_backend backend, const char* feature) {
  exactvq_options o;
  exactvq_default_options(&o);
  o.features = &feature;
  o.feature_count = 1;
  o.backend = backend;
  o.threads = 2;
  exactvq_context* ctx = nullptr;
  EXPECT_EQ(exactvq_open(&ctx, &o), EXACTVQ_OK) << exactvq_last_error(nullptr);
  return ContextPtr(ctx);
}

std::vector<double> series(const exactvq_context* ctx, const char* name) {
  size_t n = 0;
  exactvq_frame_count(ctx, &n);
  std::vector<double> v(n);
  EXPECT_EQ(exactvq_read_scores(ctx, name, v.data(), n), EXACTVQ_OK) << exactvq_last_error(ctx);
  return v;
}

bool same_bits(const std::vector<double>& a, const std::vector<double>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0;
}

exactvq_picture view_of(const Picture& pic) {
  exactvq_picture v{};
  for (int p = 0; p < 3; ++p) {
    v.data[p] = pic.plane(p).data;
    v.stride[p] = pic.plane(p).stride;
  }
  v.width = pic.format.width;
  v.height = pic.format.height;
  v.chroma = EXACTVQ_CHROMA_420;
  v.bitdepth = pic.format.bitdepth;
  return v;
}

class CApiDevice : public testing::TestWithParam<exactvq_backend> {};

TEST_P(CApiDevice, EqualsTheCpuBitForBit) {
  const std::string ref = std::string(EXACTVQ_SAMPLES_DIR) + "/ref.y4m";
  const std::string dist = std::string(EXACTVQ_SAMPLES_DIR) + "/dist.y4m";
  const char* feature = "ssim=chroma=true";
  ContextPtr device = open_on(GetParam(), feature);
  const exactvq_status s = exactvq_score_files(device.get(), ref.c_str(), dist.c_str(), nullptr);
  if (s == EXACTVQ_ERROR_DEVICE) GTEST_SKIP() << exactvq_last_error(device.get());
  ASSERT_EQ(s, EXACTVQ_OK) << exactvq_last_error(device.get());
  ContextPtr cpu = open_on(EXACTVQ_BACKEND_CPU, feature);
  ASSERT_EQ(exactvq_score_files(cpu.get(), ref.c_str(), dist.c_str(), nullptr), EXACTVQ_OK);
  for (const char* name : {"ssim", "ssim_cb", "ssim_cr"})
    EXPECT_TRUE(same_bits(series(device.get(), name), series(cpu.get(), name))) << name;

  // Random 10-bit 4:2:0 frames of an odd size: one by one, and as one batch.
  const VideoFormat f{333, 211, ChromaFormat::k420, 10};
  std::vector<Picture> refs(7), dists(7);
  uint32_t state = 99;
  for (size_t i = 0; i < refs.size(); ++i) {
    refs[i].allocate(f);
    dists[i].allocate(f);
    for (int p = 0; p < 3; ++p) {
      auto* r = reinterpret_cast<uint16_t*>(refs[i].plane_data(p));
      auto* d = reinterpret_cast<uint16_t*>(dists[i].plane_data(p));
      for (size_t k = 0; k < refs[i].planes[p].size() / 2; ++k) {
        state = state * 1664525u + 1013904223u;
        r[k] = uint16_t((state >> 7) & 1023);
        d[k] = uint16_t((r[k] + ((state >> 21) & 63)) & 1023);
      }
    }
  }
  std::vector<exactvq_picture> rv, dv;
  for (size_t i = 0; i < refs.size(); ++i) {
    rv.push_back(view_of(refs[i]));
    dv.push_back(view_of(dists[i]));
  }
  ContextPtr one_by_one = open_on(GetParam(), feature), batch = open_on(GetParam(), feature),
             reference = open_on(EXACTVQ_BACKEND_CPU, feature);
  for (size_t i = 0; i < rv.size(); ++i)
    ASSERT_EQ(exactvq_score_frame(one_by_one.get(), &rv[i], &dv[i]), EXACTVQ_OK)
        << exactvq_last_error(one_by_one.get());
  ASSERT_EQ(exactvq_score_frames(batch.get(), rv.data(), dv.data(), rv.size()), EXACTVQ_OK)
      << exactvq_last_error(batch.get());
  ASSERT_EQ(exactvq_score_frames(reference.get(), rv.data(), dv.data(), rv.size()), EXACTVQ_OK);
  for (const char* name : {"ssim", "ssim_cb", "ssim_cr"}) {
    EXPECT_TRUE(same_bits(series(one_by_one.get(), name), series(reference.get(), name))) << name;
    EXPECT_TRUE(same_bits(series(batch.get(), name), series(reference.get(), name))) << name;
  }
}

INSTANTIATE_TEST_SUITE_P(Backends, CApiDevice,
                         testing::Values(EXACTVQ_BACKEND_CUDA, EXACTVQ_BACKEND_OPENCL),
                         [](const testing::TestParamInfo<exactvq_backend>& p) {
                           return std::string(p.param == EXACTVQ_BACKEND_CUDA ? "cuda" : "opencl");
                         });

}  // namespace
