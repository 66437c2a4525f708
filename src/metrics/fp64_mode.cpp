#include "metrics/fp64_mode.h"

#include <fmt/format.h>

#include "core/error.h"

namespace exactvq {

Fp64Mode parse_fp64_mode(const std::string& feature, const std::string& value) {
  if (value == "auto") return Fp64Mode::kAuto;
  if (value == "native") return Fp64Mode::kNative;
  if (value == "emulate") return Fp64Mode::kEmulate;
  throw UsageError(
      fmt::format("feature {}: fp64={} is not auto, native or emulate", feature, value));
}

}  // namespace exactvq
