#include "metrics/adm/adm_feature.h"

#include <fmt/format.h>

#include "backends/device.h"
#include "core/error.h"
#include "metrics/adm/cpu/adm_simd.h"
#include "metrics/adm/reference.h"

namespace exactvq {

namespace {

class AdmFeature final : public Feature {
 public:
  AdmFeature(const adm::AdmOptions& o, const FeatureContext& ctx)
      : options_(o), format_(ctx.format), pool_(ctx.pool), outputs_(adm_output_names(o)) {}

  const std::vector<std::string>& outputs() const override { return outputs_; }
  // One frame per thread: frames are independent, each scored whole by one thread.
  int batch_frames() const override { return pool_ ? pool_->size() : 1; }

  void extract_batch(std::span<const FramePair> frames, std::span<double> out) override {
    const size_t n = outputs_.size();
    const auto score = [&](int i) {
      const FramePair& f = frames[size_t(i)];
      const adm::AdmScores s =
          adm::adm_scores(f.ref->plane(0), f.dist->plane(0), format_.bitdepth, options_,
                          adm::cpu::simd_row_kernels());
      double* row = out.data() + size_t(i) * n;
      const double values[] = {s.adm2,         s.aim,          s.adm3,         s.scale[0],
                               s.scale[1],     s.scale[2],     s.scale[3],     s.adm,
                               s.num,          s.den,          s.num_scale[0], s.den_scale[0],
                               s.num_scale[1], s.den_scale[1], s.num_scale[2], s.den_scale[2],
                               s.num_scale[3], s.den_scale[3]};
      for (size_t k = 0; k < n; ++k) row[k] = values[k];
    };
    if (pool_) pool_->parallel_for(int(frames.size()), score);
    else
      for (int i = 0; i < int(frames.size()); ++i) score(i);
  }

 private:
  adm::AdmOptions options_;
  VideoFormat format_;
  ThreadPool* pool_;
  std::vector<std::string> outputs_;
};

}  // namespace

std::vector<std::string> adm_output_names(const adm::AdmOptions& options) {
  static const char* const kNames[] = {
      "integer_adm2",           "integer_aim",            "integer_adm3",
      "integer_adm_scale0",     "integer_adm_scale1",     "integer_adm_scale2",
      "integer_adm_scale3",     "integer_adm",            "integer_adm_num",
      "integer_adm_den",        "integer_adm_num_scale0", "integer_adm_den_scale0",
      "integer_adm_num_scale1", "integer_adm_den_scale1", "integer_adm_num_scale2",
      "integer_adm_den_scale2", "integer_adm_num_scale3", "integer_adm_den_scale3"};
  const size_t count = options.debug ? 18 : 7;
  const std::string suffix = adm::key_suffix(options);
  std::vector<std::string> names;
  for (size_t k = 0; k < count; ++k) names.push_back(kNames[k] + suffix);
  return names;
}

std::unique_ptr<Feature> make_adm_feature(const adm::AdmOptions& options, const FeatureContext& ctx) {
  if (ctx.device)
    throw DeviceError(
        fmt::format("feature adm runs on the CPU only: not on {}", ctx.device->description()));
  adm::check_adm_size(ctx.format.width, ctx.format.height, "feature adm");
  return std::make_unique<AdmFeature>(options, ctx);
}

}  // namespace exactvq
