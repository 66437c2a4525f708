#include "core/fault_spec.h"

namespace exactvq {

std::optional<FaultSpec> parse_fault_spec(std::string_view text) {
  FaultSpec spec;
  const size_t at = text.find('@');
  spec.name = text.substr(0, at);
  if (at == std::string_view::npos) return spec;
  const std::string_view digits = text.substr(at + 1);
  if (digits.empty() || digits.size() > 12) return std::nullopt;
  int64_t n = 0;
  for (const char c : digits) {
    if (c < '0' || c > '9') return std::nullopt;
    n = n * 10 + (c - '0');
  }
  spec.numbered = true;
  spec.n = n;
  return spec;
}

}  // namespace exactvq
