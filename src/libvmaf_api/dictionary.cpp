// vmaf_feature_dictionary_set / _free, and dictionaries as --feature options.
#include "libvmaf_api/dictionary.h"

#include <cerrno>
#include <new>

#include <fmt/format.h>

#include "core/error.h"

namespace exactvq::libvmaf_api {

std::string feature_spec_text(const std::string& name, const VmafFeatureDictionary* options) {
  if (name.empty() || name.find_first_of("=:") != std::string::npos)
    throw UsageError(fmt::format("feature '{}': not a feature extractor's name", name));
  std::string text = name;
  if (!options) return text;
  char separator = '=';
  for (const auto& [key, value] : options->entries) {
    // exactvq's option syntax splits on ':' and the first '=' of an item.
    if (key.empty() || key.find_first_of("=:") != std::string::npos ||
        value.find(':') != std::string::npos)
      throw UsageError(fmt::format("feature {}: option '{}={}' cannot be passed on (':' or '=')",
                                   name, key, value));
    text += separator;
    text += key + "=" + value;
    separator = ':';
  }
  return text;
}

}  // namespace exactvq::libvmaf_api

extern "C" int vmaf_feature_dictionary_set(VmafFeatureDictionary** dict, const char* key,
                                           const char* val) {
  if (!dict || !key || !val) return -EINVAL;
  try {
    if (!*dict) *dict = new VmafFeatureDictionary;
    for (auto& entry : (*dict)->entries)
      if (entry.first == key) {
        entry.second = val;
        return 0;
      }
    (*dict)->entries.emplace_back(key, val);
    return 0;
  } catch (const std::bad_alloc&) {
    return -ENOMEM;
  }
}

extern "C" int vmaf_feature_dictionary_free(VmafFeatureDictionary** dict) {
  if (!dict || !*dict) return -EINVAL;
  delete *dict;
  *dict = nullptr;
  return 0;
}
