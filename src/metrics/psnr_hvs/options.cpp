#include "metrics/psnr_hvs/options.h"

#include <fmt/format.h>

#include "core/error.h"

namespace exactvq::psnr_hvs {

PsnrHvsOptions parse_psnr_hvs_options(const FeatureSpec& spec) {
  if (!spec.options.empty())
    throw UsageError(fmt::format("feature psnr_hvs: unknown option '{}' (it takes no options)",
                                 spec.options.front().first));
  return {};
}

const std::vector<std::string>& output_names() {
  static const std::vector<std::string> names{"psnr_hvs_y", "psnr_hvs_cb", "psnr_hvs_cr",
                                              "psnr_hvs"};
  return names;
}

}  // namespace exactvq::psnr_hvs
