#include "metrics/vif/vif_feature.h"

#include <fmt/format.h>

#include "backends/device.h"
#include "core/error.h"
#include "metrics/vif/cpu/vif_simd.h"

namespace exactvq {

namespace vif {

std::vector<std::string> output_names(const VifOptions& o) {
  const std::string suffix = key_suffix(o);
  std::vector<std::string> names;
  for (int level = 0; level < kLevels; ++level)
    names.push_back(fmt::format("integer_vif_scale{}{}", level, suffix));
  if (!o.debug) return names;
  for (const char* name : {"integer_vif", "integer_vif_num", "integer_vif_den"})
    names.push_back(name + suffix);
  for (int level = 0; level < kLevels; ++level) {
    names.push_back(fmt::format("integer_vif_num_scale{}{}", level, suffix));
    names.push_back(fmt::format("integer_vif_den_scale{}{}", level, suffix));
  }
  return names;
}

}  // namespace vif

namespace {

class VifFeature final : public Feature {
 public:
  VifFeature(const vif::VifOptions& o, const FeatureContext& ctx)
      : options_(o), bitdepth_(ctx.format.bitdepth), pool_(ctx.pool), names_(vif::output_names(o)) {}

  const std::vector<std::string>& outputs() const override { return names_; }
  int batch_frames() const override { return pool_ ? pool_->size() : 1; }

  void extract_batch(std::span<const FramePair> frames, std::span<double> out) override {
    const size_t n = names_.size();
    const auto score = [&](int i) {
      const FramePair& f = frames[size_t(i)];
      const vif::VifScores s = vif::cpu::vif_simd(f.ref->plane(0), f.dist->plane(0), bitdepth_, options_);
      const std::span<double> row = out.subspan(size_t(i) * n, n);
      for (size_t k = 0; k < size_t(vif::kLevels); ++k) row[k] = s.scale[k];
      if (!options_.debug) return;
      row[4] = s.vif;
      row[5] = s.num;
      row[6] = s.den;
      for (size_t k = 0; k < size_t(vif::kLevels); ++k) {
        row[7 + 2 * k] = s.num_scale[k];
        row[8 + 2 * k] = s.den_scale[k];
      }
    };
    if (pool_)
      pool_->parallel_for(int(frames.size()), score);
    else
      for (int i = 0; i < int(frames.size()); ++i) score(i);
  }

 private:
  vif::VifOptions options_;
  int bitdepth_;
  ThreadPool* pool_;
  std::vector<std::string> names_;
};

}  // namespace

std::unique_ptr<Feature> make_vif_feature(const vif::VifOptions& options, const FeatureContext& ctx) {
  if (ctx.device)
    throw DeviceError(fmt::format("feature vif runs on the CPU only: not on {}", ctx.device->description()));
  vif::check_vif_size(ctx.format.width, ctx.format.height, options, "feature vif");
  return std::make_unique<VifFeature>(options, ctx);
}

}  // namespace exactvq
