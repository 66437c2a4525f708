#include "metrics/registry.h"

#include <fmt/format.h>

#include "core/error.h"
#include "metrics/adm/adm_feature.h"
#include "metrics/cambi/cambi_feature.h"
#include "metrics/ciede/ciede_feature.h"
#include "metrics/float_ssim/float_ssim_feature.h"
#include "metrics/motion/motion_feature.h"
#include "metrics/psnr/psnr_feature.h"
#include "metrics/psnr_hvs/psnr_hvs_feature.h"
#include "metrics/speed/speed_feature.h"
#include "metrics/ssim/ssim_feature.h"
#include "metrics/vif/vif_feature.h"

namespace exactvq {

namespace {

struct Entry {
  const char* name;
  std::unique_ptr<Feature> (*make)(const FeatureSpec&, const FeatureContext&);
};

const Entry kFeatures[] = {
    {"ssim",
     [](const FeatureSpec& s, const FeatureContext& c) {
       return make_ssim_feature(ssim::parse_ssim_options(s), c);
     }},
    {"psnr",
     [](const FeatureSpec& s, const FeatureContext& c) {
       return make_psnr_feature(psnr::parse_psnr_options(s), c);
     }},
    {"psnr_hvs",
     [](const FeatureSpec& s, const FeatureContext& c) {
       return make_psnr_hvs_feature(psnr_hvs::parse_psnr_hvs_options(s), c);
     }},
    {"motion",
     [](const FeatureSpec& s, const FeatureContext& c) {
       return make_motion_feature(motion::parse_motion_options(s), c);
     }},
    {"vif", [](const FeatureSpec& s,
               const FeatureContext& c) { return make_vif_feature(vif::parse_vif_options(s), c); }},
    {"adm", [](const FeatureSpec& s,
               const FeatureContext& c) { return make_adm_feature(adm::parse_adm_options(s), c); }},
    {"float_ssim",
     [](const FeatureSpec& s, const FeatureContext& c) {
       return make_float_ssim_feature(float_ssim::parse_ssim_options(s), c);
     }},
    {"float_ms_ssim",
     [](const FeatureSpec& s, const FeatureContext& c) {
       return make_float_ms_ssim_feature(float_ssim::parse_ms_ssim_options(s), c);
     }},
    {"cambi",
     [](const FeatureSpec& s, const FeatureContext& c) {
       return make_cambi_feature(cambi::parse_cambi_options(s), c);
     }},
    {"speed_chroma",
     [](const FeatureSpec& s, const FeatureContext& c) {
       return make_speed_chroma_feature(speed::parse_speed_options(speed::Feature::kChroma, s), c);
     }},
    {"speed_temporal",
     [](const FeatureSpec& s, const FeatureContext& c) {
       return make_speed_temporal_feature(speed::parse_speed_options(speed::Feature::kTemporal, s),
                                          c);
     }},
    {"ciede",
     [](const FeatureSpec& s, const FeatureContext& c) {
       return make_ciede_feature(ciede::parse_ciede_options(s), c);
     }},
};

}  // namespace

std::vector<std::string> known_features() {
  std::vector<std::string> names;
  for (const auto& e : kFeatures) names.emplace_back(e.name);
  return names;
}

std::unique_ptr<Feature> make_feature(const FeatureSpec& spec, const FeatureContext& ctx) {
  for (const auto& e : kFeatures)
    if (spec.name == e.name) return e.make(spec, ctx);
  throw SetupError(fmt::format("unknown feature '{}' (known: {})", spec.name,
                               fmt::join(known_features(), ", ")));
}

}  // namespace exactvq
