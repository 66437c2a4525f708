#include "metrics/libvmaf_names.h"

#include <algorithm>
#include <cstdio>
#include <cstring>

namespace exactvq {

std::string libvmaf_key_suffix(std::vector<NamedOption> options) {
  std::sort(options.begin(), options.end(), [](const NamedOption& a, const NamedOption& b) {
    return std::strcmp(a.name, b.name) < 0;
  });
  std::string suffix;
  for (const NamedOption& o : options) {
    if (o.text) {
      if (std::strcmp(o.text, o.default_text) == 0) continue;
      suffix += '_';
      suffix += o.alias ? o.alias : o.name;
      suffix += '_';
      suffix += o.text;
      continue;
    }
    if (o.value == o.default_value) continue;
    suffix += '_';
    suffix += o.alias ? o.alias : o.name;
    if (o.is_bool) continue;
    char text[64];
    std::snprintf(text, sizeof text, "%g", o.value);
    suffix += '_';
    suffix += text;
  }
  return suffix;
}

}  // namespace exactvq
