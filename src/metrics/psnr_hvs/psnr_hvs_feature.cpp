#include "metrics/psnr_hvs/psnr_hvs_feature.h"

#include <vector>

#include <fmt/format.h>

#include "backends/device.h"
#include "core/error.h"
#include "metrics/psnr_hvs/engine.h"
#include "metrics/psnr_hvs/reference.h"

namespace exactvq {

namespace psnr_hvs {

void check_input(const VideoFormat& f) {
  if (f.chroma == ChromaFormat::kMono)
    throw PictureError(
        "feature psnr_hvs needs chroma: the input is monochrome (libvmaf refuses 4:0:0 too)");
  if (f.bitdepth > kMaxBitdepth)
    throw PictureError(fmt::format(
        "feature psnr_hvs cannot score {}-bit input: it takes at most {} bits, as libvmaf's",
        f.bitdepth, kMaxBitdepth));
  for (int p = 0; p < 3; ++p)
    if (f.plane_width(p) < kBlock || f.plane_height(p) < kBlock)
      throw PictureError(fmt::format(
          "feature psnr_hvs cannot score {}x{} {} pictures: their {} plane is {}x{} samples, "
          "and the metric needs {}x{} in every plane (with no block its score is 0/0; libvmaf "
          "reports NaN or crashes)",
          f.width, f.height, chroma_name(f.chroma), plane_name(p), f.plane_width(p),
          f.plane_height(p), kBlock, kBlock));
}

void frame_values(const VideoFormat& f, const float sums[3], std::span<double> out) {
  double scores[3];
  for (int p = 0; p < 3; ++p) {
    scores[p] = plane_score(sums[p], f.plane_width(p), f.plane_height(p), f.bitdepth);
    out[size_t(p)] = decibels(scores[p]);
  }
  out[3] = decibels(combined_score(scores[0], scores[1], scores[2]));
}

}  // namespace psnr_hvs

namespace {

class PsnrHvsFeature final : public Feature {
 public:
  PsnrHvsFeature(const VideoFormat& format, std::unique_ptr<psnr_hvs::Engine> engine)
      : format_(format), engine_(std::move(engine)) {}

  const std::vector<std::string>& outputs() const override { return psnr_hvs::output_names(); }
  int batch_frames() const override { return engine_->batch_frames(); }
  bool scores_device_pictures() const override { return engine_->takes_device_pictures(); }
  int planes_read() const override { return 3; }

  void extract_batch(std::span<const FramePair> frames, std::span<double> out) override {
    const size_t values = outputs().size();
    sums_.assign(frames.size() * 3, 0.0f);
    engine_->score(frames, sums_);
    for (size_t i = 0; i < frames.size(); ++i)
      psnr_hvs::frame_values(format_, sums_.data() + i * 3, out.subspan(i * values, values));
  }

 private:
  VideoFormat format_;
  std::unique_ptr<psnr_hvs::Engine> engine_;
  std::vector<float> sums_;  // [frame][plane]
};

}  // namespace

std::unique_ptr<Feature> make_psnr_hvs_feature(const psnr_hvs::PsnrHvsOptions&,
                                               const FeatureContext& ctx) {
  psnr_hvs::check_input(ctx.format);
  std::unique_ptr<psnr_hvs::Engine> engine =
      psnr_hvs::make_engine(device_of(ctx), psnr_hvs::EngineSetup{ctx.format, 3, ctx.pool});
  return std::make_unique<PsnrHvsFeature>(ctx.format, std::move(engine));
}

}  // namespace exactvq
