#include "metrics/cambi/options.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include <fmt/format.h>

#include "core/error.h"

namespace exactvq::cambi {

namespace {

constexpr double kDefaultTopk = 0.6;
constexpr const char* kDefaultEotf = "bt1886";

double parse_real(const std::string& key, const std::string& value, double lo, double hi) {
  char* end = nullptr;
  errno = 0;
  const double v = std::strtod(value.c_str(), &end);
  if (value.empty() || *end != '\0' || errno == ERANGE || !std::isfinite(v))
    throw UsageError(fmt::format("feature cambi: option {}={} is not a number", key, value));
  if (v < lo || v > hi)
    throw UsageError(
        fmt::format("feature cambi: option {}={} is out of range [{}, {}]", key, value, lo, hi));
  return v;
}

int parse_integer(const std::string& key, const std::string& value, int lo, int hi) {
  char* end = nullptr;
  errno = 0;
  const long v = std::strtol(value.c_str(), &end, 10);
  if (value.empty() || *end != '\0' || errno == ERANGE)
    throw UsageError(fmt::format("feature cambi: option {}={} is not an integer", key, value));
  if (v < lo || v > hi)
    throw UsageError(
        fmt::format("feature cambi: option {}={} is out of range [{}, {}]", key, value, lo, hi));
  return int(v);
}

std::string parse_eotf(const std::string& key, const std::string& value) {
  if (value != "bt1886" && value != "pq")
    throw UsageError(
        fmt::format("feature cambi: option {}={} is not an EOTF (bt1886 or pq)", key, value));
  return value;
}

std::string printf_g(double v) {
  char text[64];
  std::snprintf(text, sizeof text, "%g", v);
  return text;
}

}  // namespace

CambiOptions parse_cambi_options(const FeatureSpec& spec) {
  CambiOptions o;
  for (const auto& [key, value] : spec.options) {
    if (key == "cambi_max_val" || key == "cmxv")
      o.max_val = parse_real(key, value, 0.0, 1000.0);
    else if (key == "enc_width" || key == "encw")
      o.enc_width = parse_integer(key, value, 180, 7680);
    else if (key == "enc_height" || key == "ench")
      o.enc_height = parse_integer(key, value, 150, 7680);
    else if (key == "enc_bitdepth" || key == "encbd")
      o.enc_bitdepth = parse_integer(key, value, 6, 16);
    else if (key == "src_width" || key == "srcw")
      o.src_width = parse_integer(key, value, 320, 7680);
    else if (key == "src_height" || key == "srch")
      o.src_height = parse_integer(key, value, 200, 4320);
    else if (key == "window_size" || key == "ws")
      o.window_size = parse_integer(key, value, 15, 127);
    else if (key == "topk")
      o.topk = parse_real(key, value, 0.0001, 1.0);
    else if (key == "cambi_topk" || key == "ctpk")
      o.cambi_topk = parse_real(key, value, 0.0001, 1.0);
    else if (key == "tvi_threshold" || key == "tvit")
      o.tvi_threshold = parse_real(key, value, 0.0001, 1.0);
    else if (key == "cambi_vis_lum_threshold" || key == "vlt")
      o.vis_lum_threshold = parse_real(key, value, 0.0, 300.0);
    else if (key == "max_log_contrast" || key == "mlc")
      o.max_log_contrast = parse_integer(key, value, 0, 5);
    else if (key == "full_ref")
      o.full_ref = parse_bool_option("cambi", key, value);
    else if (key == "eotf")
      o.eotf = parse_eotf(key, value);
    else if (key == "cambi_eotf" || key == "ceot")
      o.cambi_eotf = parse_eotf(key, value);
    else if (key == "cambi_high_res_speedup" || key == "hrs")
      o.high_res_speedup = parse_integer(key, value, 0, 2160);
    else if (key == "heatmaps_path") {
      if (value.empty()) throw UsageError("feature cambi: option heatmaps_path is empty");
      o.heatmaps_path = value;
    } else
      throw UsageError(fmt::format(
          "feature cambi: unknown option '{}' (known: cambi_max_val, enc_width, enc_height, "
          "enc_bitdepth, src_width, src_height, window_size, topk, cambi_topk, tvi_threshold, "
          "cambi_vis_lum_threshold, max_log_contrast, full_ref, eotf, cambi_eotf, "
          "cambi_high_res_speedup, heatmaps_path)",
          key));
  }
  return o;
}

Eotf effective_eotf(const CambiOptions& o) {
  const std::string& name = o.cambi_eotf != kDefaultEotf ? o.cambi_eotf : o.eotf;
  return name == "pq" ? Eotf::kPq : Eotf::kBt1886;
}

double effective_topk(const CambiOptions& o) {
  return o.topk != kDefaultTopk ? o.topk : o.cambi_topk;
}

std::string key_suffix(const CambiOptions& o) {
  struct Part {
    const char* name;   // libvmaf's option name: the parts are sorted by it
    const char* shown;  // its alias, or the name where it has none
    bool is_default;
    std::string value;
  };
  const CambiOptions d;
  std::vector<Part> parts = {
      {"cambi_max_val", "cmxv", o.max_val == d.max_val, printf_g(o.max_val)},
      {"enc_width", "encw", o.enc_width == d.enc_width, std::to_string(o.enc_width)},
      {"enc_height", "ench", o.enc_height == d.enc_height, std::to_string(o.enc_height)},
      {"enc_bitdepth", "encbd", o.enc_bitdepth == d.enc_bitdepth, std::to_string(o.enc_bitdepth)},
      {"src_width", "srcw", o.src_width == d.src_width, std::to_string(o.src_width)},
      {"src_height", "srch", o.src_height == d.src_height, std::to_string(o.src_height)},
      {"window_size", "ws", o.window_size == d.window_size, std::to_string(o.window_size)},
      {"topk", "topk", o.topk == d.topk, printf_g(o.topk)},
      {"cambi_topk", "ctpk", o.cambi_topk == d.cambi_topk, printf_g(o.cambi_topk)},
      {"tvi_threshold", "tvit", o.tvi_threshold == d.tvi_threshold, printf_g(o.tvi_threshold)},
      {"cambi_vis_lum_threshold", "vlt", o.vis_lum_threshold == d.vis_lum_threshold,
       printf_g(o.vis_lum_threshold)},
      {"max_log_contrast", "mlc", o.max_log_contrast == d.max_log_contrast,
       std::to_string(o.max_log_contrast)},
      {"eotf", "eotf", o.eotf == d.eotf, o.eotf},
      {"cambi_eotf", "ceot", o.cambi_eotf == d.cambi_eotf, o.cambi_eotf},
      {"cambi_high_res_speedup", "hrs", o.high_res_speedup == d.high_res_speedup,
       std::to_string(o.high_res_speedup)},
  };
  std::sort(parts.begin(), parts.end(),
            [](const Part& a, const Part& b) { return std::strcmp(a.name, b.name) < 0; });
  std::string suffix;
  for (const Part& p : parts)
    if (!p.is_default) suffix += fmt::format("_{}_{}", p.shown, p.value);
  return suffix;
}

}  // namespace exactvq::cambi
