// The text of the models in models/, compiled in by model_embed.cmake.
#pragma once

#include <cstddef>
#include <string_view>

namespace exactvq::vmaf {

struct BuiltinModelText {
  std::string_view version;  // the file name without ".json"
  std::string_view text;
};

extern const BuiltinModelText kBuiltinModelTexts[];
extern const std::size_t kBuiltinModelTextCount;

}  // namespace exactvq::vmaf
