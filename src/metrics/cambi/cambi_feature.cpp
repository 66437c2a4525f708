#include "metrics/cambi/cambi_feature.h"

#include <algorithm>

#include "backends/device.h"
#include "core/error.h"
#include "metrics/cambi/engine.h"
#include "metrics/cambi/reference.h"

namespace exactvq {

namespace cambi {

std::vector<std::string> output_names(const CambiOptions& o) {
  // Only the first key carries the suffix: libvmaf names its other two
  // outputs without looking them up among the feature's provided names.
  std::vector<std::string> names{"cambi" + key_suffix(o)};
  if (o.full_ref) {
    names.emplace_back("cambi_source");
    names.emplace_back("cambi_full_reference");
  }
  return names;
}

void frame_values(const CambiOptions& o, int dist_window, int src_window,
                  std::span<const double> scales, std::span<double> out) {
  const auto capped = [&](double v) { return v < o.max_val ? v : o.max_val; };
  std::array<double, kScales> part{};
  std::copy_n(scales.begin(), kScales, part.begin());
  const double dist = combine_scales(part, dist_window);
  out[0] = capped(dist);
  if (!o.full_ref) return;
  std::copy_n(scales.begin() + kScales, kScales, part.begin());
  const double src = combine_scales(part, src_window);
  out[1] = capped(src);
  const double more = dist - src;
  out[2] = capped(0 > more ? 0.0 : more);
}

}  // namespace cambi

namespace {

class CambiFeature final : public Feature {
 public:
  CambiFeature(const cambi::CambiOptions& o, const cambi::CambiSetup& setup,
               std::unique_ptr<cambi::Engine> engine)
      : options_(o),
        dist_window_(setup.distorted.window),
        src_window_(setup.source.window),
        per_frame_(setup.full_ref ? 2 * cambi::kScales : cambi::kScales),
        names_(cambi::output_names(o)),
        engine_(std::move(engine)) {}

  const std::vector<std::string>& outputs() const override { return names_; }
  int batch_frames() const override { return engine_->batch_frames(); }
  int planes_read() const override { return 1; }
  void start_at(std::span<const FramePair>, int64_t first_index) override {
    // Each part of a shared run would empty the files the others write.
    if (!options_.heatmaps_path.empty() && first_index > 0)
      throw UsageError(
          "feature cambi: heatmaps_path is refused in a run that starts inside the video "
          "(exactvq-mpi ranks)");
  }

  void extract_batch(std::span<const FramePair> frames, std::span<double> out) override {
    scales_.assign(frames.size() * per_frame_, 0.0);
    engine_->score(frames, scales_);
    const size_t n = names_.size();
    for (size_t i = 0; i < frames.size(); ++i)
      cambi::frame_values(options_, dist_window_, src_window_,
                          std::span<const double>(scales_).subspan(i * per_frame_, per_frame_),
                          out.subspan(i * n, n));
  }

 private:
  cambi::CambiOptions options_;
  int dist_window_, src_window_;
  size_t per_frame_;
  std::vector<std::string> names_;
  std::unique_ptr<cambi::Engine> engine_;
  std::vector<double> scales_;  // [frame][value]
};

}  // namespace

std::unique_ptr<Feature> make_cambi_feature(const cambi::CambiOptions& options,
                                            const FeatureContext& ctx) {
  const cambi::CambiSetup setup = cambi::make_cambi_setup(options, ctx.format);
  cambi::EngineSetup engine_setup{ctx.format, setup, ctx.pool,
                                  setup.full_ref ? 2 * cambi::kScales : cambi::kScales, nullptr};
  // The engine first: a device without one creates no files.
  std::unique_ptr<cambi::Engine> engine = cambi::make_engine(device_of(ctx), engine_setup);
  if (!options.heatmaps_path.empty()) {
    engine_setup.heatmaps = std::make_shared<cambi::HeatmapFiles>(options.heatmaps_path, setup);
    engine = cambi::make_engine(device_of(ctx), engine_setup);
  }
  return std::make_unique<CambiFeature>(options, setup, std::move(engine));
}

}  // namespace exactvq
