#include "metrics/motion/options.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>

#include <fmt/format.h>

#include "core/error.h"
#include "metrics/libvmaf_names.h"

namespace exactvq::motion {

namespace {

double parse_number(const std::string& key, const std::string& value, double lo, double hi) {
  char* end = nullptr;
  errno = 0;
  const double v = std::strtod(value.c_str(), &end);
  if (value.empty() || *end != '\0' || errno == ERANGE || !std::isfinite(v))
    throw UsageError(fmt::format("feature motion: option {}={} is not a number", key, value));
  if (v < lo || v > hi)
    throw UsageError(
        fmt::format("feature motion: option {}={} is out of range [{}, {}]", key, value, lo, hi));
  return v;
}

}  // namespace

MotionOptions parse_motion_options(const FeatureSpec& spec) {
  MotionOptions o;
  for (const auto& [key, value] : spec.options) {
    if (key == "motion_force_zero" || key == "force_0")
      o.force_zero = parse_bool_option("motion", key, value);
    else if (key == "motion_blend_factor" || key == "mbf")
      o.blend_factor = parse_number(key, value, 0.0, 1.0);
    else if (key == "motion_blend_offset" || key == "mbo")
      o.blend_offset = parse_number(key, value, 0.0, 1000.0);
    else if (key == "motion_fps_weight" || key == "mfw")
      o.fps_weight = parse_number(key, value, 0.0, 5.0);
    else if (key == "motion_max_val" || key == "mmxv")
      o.max_value = parse_number(key, value, 0.0, 10000.0);
    else if (key == "motion_five_frame_window" || key == "mffw")
      o.five_frame_window = parse_bool_option("motion", key, value);
    else if (key == "motion_moving_average" || key == "mma")
      o.moving_average = parse_bool_option("motion", key, value);
    else if (key == "debug")
      o.debug = parse_bool_option("motion", key, value);
    else
      throw UsageError(fmt::format(
          "feature motion: unknown option '{}' (known: motion_force_zero, motion_blend_factor, "
          "motion_blend_offset, motion_fps_weight, motion_max_val, motion_five_frame_window, "
          "motion_moving_average, debug)",
          key));
  }
  return o;
}

std::string key_suffix(const MotionOptions& o) {
  return libvmaf_key_suffix({
      {"motion_force_zero", "force_0", true, double(o.force_zero), 0.0},
      {"motion_blend_factor", "mbf", false, o.blend_factor, 1.0},
      {"motion_blend_offset", "mbo", false, o.blend_offset, 40.0},
      {"motion_fps_weight", "mfw", false, o.fps_weight, 1.0},
      {"motion_max_val", "mmxv", false, o.max_value, 10000.0},
      {"motion_five_frame_window", "mffw", true, double(o.five_frame_window), 0.0},
      {"motion_moving_average", "mma", true, double(o.moving_average), 0.0},
  });
}

}  // namespace exactvq::motion
