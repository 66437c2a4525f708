// The feature names a VMAF model may list, the libvmaf extractor that makes
// each (adm, vif, motion: libvmaf 3.2.0's integer extractors; cambi and
// speed_chroma, which VMAF v1 adds), their options as libvmaf declares them,
// and the key a model input is read under.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace exactvq::vmaf {

enum class OptionType { kBool, kInt, kDouble, kString };

// One extractor option, as libvmaf's VmafOption table has it.
struct ExtractorOption {
  std::string_view name;
  std::string_view alias;  // empty: none
  OptionType type;
  double default_value;  // bools: 0 or 1
  double min, max;
  bool feature_param;  // VMAF_OPT_FLAG_FEATURE_PARAM: a non-default value renames the outputs
  std::string_view default_text = {};  // kString: the default value
};

struct ExtractorInfo {
  std::string_view name;                       // "adm"
  std::span<const std::string_view> provides;  // its feature names, libvmaf's order
  std::span<const ExtractorOption> options;
};

// The extractors, in libvmaf's registration order.
std::span<const ExtractorInfo> model_extractors();

// The extractor providing `feature_name` (libvmaf's
// vmaf_get_feature_extractor_by_feature_name over these), or null.
const ExtractorInfo* extractor_for_feature(std::string_view feature_name);

// libvmaf's output alias of a feature name ("VMAF_integer_feature_adm2_score"
// -> "integer_adm2"); names without one are returned as they are.
std::string_view feature_alias(std::string_view feature_name);

// libvmaf's normalisation of a numeric option value (dict.c): the text read
// as a float (strtof), printed "%g". "1.0" -> "1".
std::string normalised_number_text(std::string_view text);

// The extractor's options given by `entries` (key = option name, value =
// text), checked as libvmaf's option parser takes them; then the key
// the feature is read under: alias + "_<alias>_<%g value>" for each
// feature-param option off its default, sorted by option name ("_<alias>"
// for a bool). Returns the key, or an error message naming the option.
struct OutputKeyResult {
  std::string key;
  std::string error;  // empty on success
};
OutputKeyResult feature_output_key(const ExtractorInfo& extractor, std::string_view feature_name,
                                   std::span<const std::pair<std::string, std::string>> entries);

}  // namespace exactvq::vmaf
