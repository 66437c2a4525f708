#include "metrics/vmaf/chroma_correction.h"

#include <fmt/format.h>

namespace exactvq::vmaf {

namespace {

constexpr const char* kGuiding = "adm3";
constexpr const char* kGuided = "speed_chroma";

// The inverse of the inputs' linear_rescale, as libvmaf's denormalize_feature.
double denormalised(const Model& m, std::size_t i, double v) {
  if (m.norm_type != NormType::kLinearRescale) return v;
  return (v - m.features[i].intercept) / m.features[i].slope;
}

double normalised(const Model& m, std::size_t i, double v) {
  if (m.norm_type != NormType::kLinearRescale) return v;
  return m.features[i].slope * v + m.features[i].intercept;
}

}  // namespace

std::string resolve_chroma_correction(const Model& model, double parameter, ChromaCorrection& out) {
  if (parameter == 0.0) return "0 is not supported (libvmaf then writes no score)";
  std::vector<std::size_t> guiding, guided;
  for (std::size_t i = 0; i < model.features.size(); ++i) {
    if (model.features[i].name.find(kGuiding) != std::string::npos) guiding.push_back(i);
    if (model.features[i].name.find(kGuided) != std::string::npos) guided.push_back(i);
  }
  if (guiding.size() != 1 || guided.size() != 1 || guiding[0] == guided[0])
    return fmt::format(
        "needs exactly one feature named *{}* and another named *{}* (the model has {} and {})",
        kGuiding, kGuided, guiding.size(), guided.size());
  out = {parameter, guiding[0], guided[0]};
  return "";
}

void apply_chroma_correction(const Model& model, const ChromaCorrection& c, std::span<double> x) {
  const double guiding = denormalised(model, c.guiding, x[c.guiding]);
  const double guided = denormalised(model, c.guided, x[c.guided]);
  if (guided != 0.0) return;
  const double corrected = (-c.parameter * guiding) + c.parameter;
  x[c.guided] = normalised(model, c.guided, corrected);
}

}  // namespace exactvq::vmaf
