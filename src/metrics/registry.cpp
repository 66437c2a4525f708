// The table of features: name -> factory. Add a metric by adding a row.
#include <fmt/format.h>

#include "core/error.h"
#include "backends/device.h"
#include "metrics/feature.h"
#include "metrics/psnr/psnr_feature.h"
#include "metrics/ssim/ssim_feature.h"

namespace exactvq {

namespace {

struct Entry {
  const char* name;
  std::unique_ptr<Feature> (*make)(const FeatureSpec&, const FeatureContext&);
};

const Entry kFeatures[] = {
    {"ssim",
     [](const FeatureSpec& s, const FeatureContext& c) {
       return make_ssim_feature(parse_ssim_options(s), c);
     }},
    {"psnr",
     [](const FeatureSpec& s, const FeatureContext& c) {
       return make_psnr_feature(parse_psnr_options(s), c);
     }},
};

}  // namespace

void Feature::extract_batch(std::span<const FramePair> frames, std::span<double> out) {
  const size_t n = outputs().size();
  for (size_t i = 0; i < frames.size(); ++i)
    extract(*frames[i].ref, *frames[i].dist, out.subspan(i * n, n));
}

std::vector<std::string> known_features() {
  std::vector<std::string> names;
  for (const auto& e : kFeatures) names.emplace_back(e.name);
  return names;
}

std::unique_ptr<Feature> make_feature(const FeatureSpec& spec, const FeatureContext& ctx) {
  for (const auto& e : kFeatures) {
    if (spec.name != e.name) continue;
    if (!ctx.device) return e.make(spec, ctx);
    if (auto feature = ctx.device->make_feature(spec, ctx)) return feature;
    throw DeviceError(fmt::format("feature {} is not available on {}", spec.name,
                                  ctx.device->description()));
  }
  throw UsageError(fmt::format("unknown feature '{}' (known: {})", spec.name,
                               fmt::join(known_features(), ", ")));
}

}  // namespace exactvq
