#include "features/ssim_feature.h"

#include <algorithm>
#include <limits>

#include <fmt/format.h>

#include "core/error.h"
#include "ssim/decibels.h"
#include "ssim/ssim_reference.h"

namespace exactvq {

SsimOptions parse_ssim_options(const FeatureSpec& spec) {
  SsimOptions o;
  for (const auto& [key, value] : spec.options) {
    if (key == "sum") {
      if (value == "exact") o.mode = SumMode::kExact;
      else if (value == "raster") o.mode = SumMode::kRaster;
      else throw UsageError(fmt::format("feature ssim: sum={} is not exact or raster", value));
    } else if (key == "enable_db") {
      o.enable_db = parse_bool_option(spec.name, key, value);
    } else if (key == "clip_db") {
      o.clip_db = parse_bool_option(spec.name, key, value);
    } else if (key == "chroma") {
      o.chroma = parse_bool_option(spec.name, key, value);
    } else {
      throw UsageError(fmt::format(
          "feature ssim: unknown option '{}' (known: sum, enable_db, clip_db, chroma)", key));
    }
  }
  return o;
}

namespace {

class SsimFeature final : public Feature {
 public:
  SsimFeature(const SsimOptions& o, const FeatureContext& ctx) : options_(o), ctx_(ctx) {
    planes_ = o.chroma ? 3 : 1;
    static const char* const kNames[] = {"ssim", "ssim_cb", "ssim_cr"};
    for (int p = 0; p < planes_; ++p) {
      names_.emplace_back(kNames[p]);
      max_db_[p] = o.clip_db ? ssim::clip_db_limit(ctx.format.max_sample(),
                                                   ctx.format.plane_width(p),
                                                   ctx.format.plane_height(p))
                             : std::numeric_limits<double>::infinity();
    }
    // Row bands for the exact sum: any split gives the same bits, so use them all.
    const int threads = ctx.pool ? ctx.pool->size() : 1;
    bands_ = o.mode == SumMode::kExact ? threads : 1;
    partial_.resize(size_t(planes_ * bands_));
  }

  const std::vector<std::string>& outputs() const override { return names_; }

  void extract(const Picture& ref, const Picture& dist, std::span<double> out) override {
    const int bitdepth = ctx_.format.bitdepth;
    if (options_.mode == SumMode::kRaster) {
      // Each plane's sum is one sequential pass; planes may run side by side.
      run(planes_, [&](int p) {
        out[size_t(p)] = ssim::score_raster(ref.plane(p), dist.plane(p), bitdepth);
      });
    } else {
      run(planes_ * bands_, [&](int task) {
        const int p = task / bands_, band = task % bands_;
        const PlaneView r = ref.plane(p), d = dist.plane(p);
        const int y0 = int(int64_t{r.height} * band / bands_);
        const int y1 = int(int64_t{r.height} * (band + 1) / bands_);
        partial_[size_t(task)] = ssim::exact_sum(r, d, bitdepth, {0, y0, r.width, y1});
      });
      for (int p = 0; p < planes_; ++p) {
        ssim::ExactSum total;
        for (int band = 0; band < bands_; ++band) total += partial_[size_t(p * bands_ + band)];
        out[size_t(p)] = total.score();
      }
    }
    if (options_.enable_db)
      for (int p = 0; p < planes_; ++p) out[size_t(p)] = ssim::to_db(out[size_t(p)], max_db_[p]);
  }

 private:
  template <typename Body>
  void run(int count, Body&& body) {
    if (ctx_.pool) ctx_.pool->parallel_for(count, body);
    else for (int i = 0; i < count; ++i) body(i);
  }

  SsimOptions options_;
  FeatureContext ctx_;
  int planes_ = 1;
  int bands_ = 1;
  std::vector<std::string> names_;
  double max_db_[3] = {};
  std::vector<ssim::ExactSum> partial_;  // exact mode: one per (plane, band), task order
};

}  // namespace

std::unique_ptr<Feature> make_ssim_feature(const SsimOptions& options, const FeatureContext& ctx) {
  if (options.chroma && ctx.format.chroma == ChromaFormat::kMono)
    throw UsageError("feature ssim: chroma=true, but the input is monochrome (no Cb, Cr planes)");
  return std::make_unique<SsimFeature>(options, ctx);
}

}  // namespace exactvq
