// The models compiled into the library (models/, embedded by model_embed.cmake).
#include <fmt/format.h>

#include "core/error.h"
#include "metrics/vmaf/model.h"
#include "metrics/vmaf/model_builtin_data.h"

namespace exactvq::vmaf {

std::vector<std::string> builtin_model_versions() {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < kBuiltinModelTextCount; ++i)
    out.emplace_back(kBuiltinModelTexts[i].version);
  return out;
}

std::string_view builtin_model_text(std::string_view version) {
  for (std::size_t i = 0; i < kBuiltinModelTextCount; ++i)
    if (kBuiltinModelTexts[i].version == version) return kBuiltinModelTexts[i].text;
  throw SetupError(fmt::format("no built-in VMAF model \"{}\" (known: {})", version,
                               fmt::join(builtin_model_versions(), ", ")));
}

ModelCollection builtin_models(std::string_view version, const ModelLoadFlags& flags) {
  const std::string name(version);
  ModelCollection c = parse_models(builtin_model_text(version), name, flags);
  c.main.version = name;
  for (Model& m : c.members) m.version = name;
  return c;
}

Model builtin_model(std::string_view version, const ModelLoadFlags& flags) {
  const std::string name(version);
  Model m = parse_model(builtin_model_text(version), name, flags);
  m.version = name;
  return m;
}

}  // namespace exactvq::vmaf
