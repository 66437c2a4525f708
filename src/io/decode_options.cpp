#include "io/decode_options.h"

namespace exactvq {

const char* hwdec_name(HwDecode h) {
  switch (h) {
    case HwDecode::kNone:
      return "none";
    case HwDecode::kAuto:
      return "auto";
    case HwDecode::kCuda:
      return "cuda";
  }
  return "none";
}

std::optional<HwDecode> parse_hwdec(const std::string& text) {
  for (HwDecode h : {HwDecode::kNone, HwDecode::kAuto, HwDecode::kCuda})
    if (text == hwdec_name(h)) return h;
  return std::nullopt;
}

}  // namespace exactvq
