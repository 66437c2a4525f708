#include "metrics/float_ssim/float_ssim_feature.h"

#include <fmt/format.h>

#include "backends/device.h"
#include "core/error.h"
#include "metrics/float_ssim/cpu/float_ssim_simd.h"
#include "metrics/float_ssim/reference.h"

namespace exactvq {

namespace float_ssim {

std::vector<std::string> output_names(const SsimOptions& o) {
  std::vector<std::string> names{"float_ssim"};
  if (o.enable_lcs)
    for (const char* part : {"l", "c", "s"}) names.push_back(fmt::format("float_ssim_{}", part));
  return names;
}

std::vector<std::string> output_names(const MsSsimOptions& o) {
  std::vector<std::string> names{"float_ms_ssim"};
  if (o.enable_lcs)
    for (const char* part : {"l", "c", "s"})
      for (int scale = 0; scale < kScales; ++scale)
        names.push_back(fmt::format("float_ms_ssim_{}_scale{}", part, scale));
  return names;
}

}  // namespace float_ssim

namespace {

// Frames of a batch side by side on the run's pool; `score(pair, row)` fills one frame's row.
template <typename Score>
void score_frames(ThreadPool* pool, std::span<const FramePair> frames, std::span<double> out, size_t n,
                  const Score& score) {
  const auto one = [&](int i) { score(frames[size_t(i)], out.subspan(size_t(i) * n, n)); };
  parallel_for(pool, int(frames.size()), one);
}

class FloatSsimFeature final : public Feature {
 public:
  FloatSsimFeature(const float_ssim::SsimOptions& o, const FeatureContext& ctx)
      : options_(o), bitdepth_(ctx.format.bitdepth), pool_(ctx.pool), names_(float_ssim::output_names(o)) {}

  const std::vector<std::string>& outputs() const override { return names_; }
  int batch_frames() const override { return pool_ ? pool_->size() : 1; }

  void extract_batch(std::span<const FramePair> frames, std::span<double> out) override {
    score_frames(pool_, frames, out, names_.size(), [&](const FramePair& f, std::span<double> row) {
      const float_ssim::SsimScores s =
          float_ssim::cpu::float_ssim_simd(f.ref->plane(0), f.dist->plane(0), bitdepth_, options_);
      row[0] = s.ssim;
      if (!options_.enable_lcs) return;
      row[1] = s.l;
      row[2] = s.c;
      row[3] = s.s;
    });
  }

 private:
  float_ssim::SsimOptions options_;
  int bitdepth_;
  ThreadPool* pool_;
  std::vector<std::string> names_;
};

class FloatMsSsimFeature final : public Feature {
 public:
  FloatMsSsimFeature(const float_ssim::MsSsimOptions& o, const FeatureContext& ctx)
      : options_(o), bitdepth_(ctx.format.bitdepth), pool_(ctx.pool), names_(float_ssim::output_names(o)) {}

  const std::vector<std::string>& outputs() const override { return names_; }
  int batch_frames() const override { return pool_ ? pool_->size() : 1; }

  void extract_batch(std::span<const FramePair> frames, std::span<double> out) override {
    score_frames(pool_, frames, out, names_.size(), [&](const FramePair& f, std::span<double> row) {
      const float_ssim::MsSsimScores s =
          float_ssim::cpu::float_ms_ssim_simd(f.ref->plane(0), f.dist->plane(0), bitdepth_, options_);
      row[0] = s.ms_ssim;
      if (!options_.enable_lcs) return;
      for (size_t k = 0; k < size_t(float_ssim::kScales); ++k) {
        row[1 + k] = s.l[k];
        row[1 + float_ssim::kScales + k] = s.c[k];
        row[1 + 2 * float_ssim::kScales + k] = s.s[k];
      }
    });
  }

 private:
  float_ssim::MsSsimOptions options_;
  int bitdepth_;
  ThreadPool* pool_;
  std::vector<std::string> names_;
};

}  // namespace

std::unique_ptr<Feature> make_float_ssim_feature(const float_ssim::SsimOptions& options, const FeatureContext& ctx) {
  if (ctx.device)
    throw DeviceError(fmt::format("feature float_ssim runs on the CPU only: not on {}", ctx.device->description()));
  float_ssim::check_ssim_input(ctx.format.width, ctx.format.height, ctx.format.bitdepth, options,
                               "feature float_ssim");
  return std::make_unique<FloatSsimFeature>(options, ctx);
}

std::unique_ptr<Feature> make_float_ms_ssim_feature(const float_ssim::MsSsimOptions& options,
                                                    const FeatureContext& ctx) {
  if (ctx.device)
    throw DeviceError(
        fmt::format("feature float_ms_ssim runs on the CPU only: not on {}", ctx.device->description()));
  float_ssim::check_ms_ssim_input(ctx.format.width, ctx.format.height, ctx.format.bitdepth,
                                  "feature float_ms_ssim");
  return std::make_unique<FloatMsSsimFeature>(options, ctx);
}

}  // namespace exactvq
