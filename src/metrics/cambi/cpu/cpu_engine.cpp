// The cambi engine on the CPU: each picture's scale values by scale_scores'
// steps (reference.h), its integer stages and contrast values by their SIMD
// twins (window_counts.h, image_stages.h, contrast_values.h) and its pooling where it is provably
// the same (pool.h), the pictures of a batch (and a frame's reference and distorted pictures) side
// by side on the setup's thread pool.
#include <algorithm>
#include <vector>

#include "core/error.h"
#include "metrics/cambi/contrast_values.h"
#include "metrics/cambi/engine.h"
#include "metrics/cambi/image_stages.h"
#include "metrics/cambi/pool.h"
#include "metrics/cambi/reference.h"

namespace exactvq::cambi::cpu {

namespace {

// scale_scores (reference.h) with the SIMD stages, its images kept by each
// thread from picture to picture (no fresh pages to fault in and zero): every
// sample of each is written before it is read.
std::array<double, kScales> simd_scale_scores(const PlaneView& luma, const CambiSetup& s,
                                              const ImagePlan& plan, const ScaleValuesSink& sink) {
  thread_local std::vector<uint16_t> image;
  thread_local std::vector<uint8_t> mask;
  thread_local std::vector<float> values;
  thread_local ContrastScratch scratch;
  const size_t samples = size_t(plan.width) * size_t(plan.height);
  image.resize(samples);
  mask.resize(samples);
  // Values of the largest scale only: with the speed-up, a quarter of the picture.
  values.resize(s.high_res_speedup ? size_t((plan.width + 1) >> 1) * size_t((plan.height + 1) >> 1)
                                   : samples);
  std::array<double, kScales> scores{};
  int w = plan.width, h = plan.height;
  // With the speed-up, scale 0 reads only the mask's even rows and columns:
  // those alone are made. A tight 10-bit picture of the plan's size that is
  // not anti-dithered is its own 10-bit image: the mask reads it in place and
  // scale 0 takes its samples (2x, 2y), with no copy of the whole.
  const bool in_place = s.high_res_speedup && plan.source_cols.empty() && s.input_bitdepth == 10 &&
                        s.enc_bitdepth >= 10 &&
                        luma.stride == ptrdiff_t(w) * ptrdiff_t(sizeof(uint16_t));
  if (in_place) {
    const uint16_t* codes = luma.row<uint16_t>(0);
    spatial_mask_simd(codes, w, h, mask.data(), true);
    const int nw = (w + 1) >> 1, nh = (h + 1) >> 1;
    for (int y = 0; y < nh; ++y)
      for (int x = 0; x < nw; ++x)
        image[size_t(y) * size_t(nw) + size_t(x)] =
            codes[size_t(2 * y) * size_t(w) + size_t(2 * x)];
  } else {
    ten_bit_image_simd(luma, s, plan, image.data());
    spatial_mask_simd(image.data(), w, h, mask.data(), s.high_res_speedup);
  }
  for (int scale = 0; scale < kScales; ++scale) {
    if (scale > 0 || s.high_res_speedup) {
      if (scale > 0 || !in_place) decimate_simd(image.data(), w, h);
      if (scale > 0) decimate_simd(mask.data(), w, h);
      w = (w + 1) >> 1;
      h = (h + 1) >> 1;
    }
    mode_filter_simd(image.data(), w, h);
    contrast_values_simd(image.data(), mask.data(), w, h, plan.window, s, values.data(), scratch);
    const std::span<float> scale_values(values.data(), size_t(w) * size_t(h));
    if (sink) sink(scale, scale_values, w, h);
    scores[size_t(scale)] = pool_topk_simd(scale_values, s.topk);
  }
  return scores;
}

class CpuEngine final : public Engine {
 public:
  explicit CpuEngine(const EngineSetup& s) : setup_(s) {}

  int batch_frames() const override { return setup_.pool ? std::max(1, setup_.pool->size()) : 1; }

  void score(std::span<const FramePair> frames, std::span<double> out) override {
    if (setup_.heatmaps)
      for (const FramePair& f : frames)
        if (f.loose())
          throw UsageError(
              "feature cambi: heatmaps_path needs each frame's place in the run (a loose pair "
              "has none)");
    const int images = setup_.cambi.full_ref ? 2 : 1;
    const size_t per_frame = size_t(setup_.planes);
    const auto body = [&](int task) {
      const size_t f = size_t(task / images);
      const bool reference = task % images == 1;
      const Picture& pic = reference ? *frames[f].ref : *frames[f].dist;
      const ImagePlan& plan = reference ? setup_.cambi.source : setup_.cambi.distorted;
      ScaleValuesSink sink;
      if (setup_.heatmaps && !reference)
        sink = [this, index = frames[f].index](int scale, std::span<const float> values, int w,
                                               int h) {
          setup_.heatmaps->write(index, scale, values, w, h);
        };
      const std::array<double, kScales> s =
          simd_scale_scores(pic.plane(0), setup_.cambi, plan, sink);
      std::copy(s.begin(), s.end(),
                out.begin() + ptrdiff_t(f * per_frame) + (reference ? kScales : 0));
    };
    parallel_for(setup_.pool, int(frames.size()) * images, body);
  }

 private:
  EngineSetup setup_;
};

}  // namespace

std::unique_ptr<Engine> make_engine(Device&, const EngineSetup& setup) {
  return std::make_unique<CpuEngine>(setup);
}

}  // namespace exactvq::cambi::cpu
