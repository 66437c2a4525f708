#include "metrics/vmaf/model_features.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <system_error>

#include <fmt/format.h>

namespace exactvq::vmaf {

namespace {

// integer_adm.c, integer_vif.c, integer_motion.c: provided_features and options.
constexpr std::array<std::string_view, 18> kAdmFeatures = {"VMAF_integer_feature_adm2_score",
                                                           "VMAF_integer_feature_aim_score",
                                                           "VMAF_integer_feature_adm3_score",
                                                           "integer_adm_scale0",
                                                           "integer_adm_scale1",
                                                           "integer_adm_scale2",
                                                           "integer_adm_scale3",
                                                           "integer_adm",
                                                           "integer_adm_num",
                                                           "integer_adm_den",
                                                           "integer_adm_num_scale0",
                                                           "integer_adm_den_scale0",
                                                           "integer_adm_num_scale1",
                                                           "integer_adm_den_scale1",
                                                           "integer_adm_num_scale2",
                                                           "integer_adm_den_scale2",
                                                           "integer_adm_num_scale3",
                                                           "integer_adm_den_scale3"};

constexpr std::array<ExtractorOption, 12> kAdmOptions = {{
    {"debug", "", OptionType::kBool, 0, 0, 1, false},
    {"adm_csf_scale", "scf", OptionType::kDouble, 1.0, 0.0, 50.0, true},
    {"adm_csf_diag_scale", "scfd", OptionType::kDouble, 1.0, 0.0, 50.0, true},
    {"adm_dlm_weight", "dlmw", OptionType::kDouble, 0.5, 0.0, 1.0, true},
    {"adm_enhn_gain_limit", "egl", OptionType::kDouble, 100.0, 1.0, 100.0, true},
    {"adm_norm_view_dist", "nvd", OptionType::kDouble, 3.0, 0.75, 24.0, true},
    {"adm_ref_display_height", "rdh", OptionType::kInt, 1080, 1, 4320, true},
    {"adm_csf_mode", "csf", OptionType::kInt, 0, 0, 3, true},
    {"adm_noise_weight", "nw", OptionType::kDouble, 0.03125, 0.0, 1500.0, true},
    {"adm_skip_aim", "", OptionType::kBool, 0, 0, 1, false},
    {"adm_skip_scale0", "ssz", OptionType::kBool, 0, 0, 1, true},
    {"adm_min_val", "min", OptionType::kDouble, 0.0, 0.0, 1.0, true},
}};

constexpr std::array<std::string_view, 15> kVifFeatures = {"VMAF_integer_feature_vif_scale0_score",
                                                           "VMAF_integer_feature_vif_scale1_score",
                                                           "VMAF_integer_feature_vif_scale2_score",
                                                           "VMAF_integer_feature_vif_scale3_score",
                                                           "integer_vif",
                                                           "integer_vif_num",
                                                           "integer_vif_den",
                                                           "integer_vif_num_scale0",
                                                           "integer_vif_den_scale0",
                                                           "integer_vif_num_scale1",
                                                           "integer_vif_den_scale1",
                                                           "integer_vif_num_scale2",
                                                           "integer_vif_den_scale2",
                                                           "integer_vif_num_scale3",
                                                           "integer_vif_den_scale3"};

constexpr std::array<ExtractorOption, 3> kVifOptions = {{
    {"debug", "", OptionType::kBool, 0, 0, 1, false},
    {"vif_enhn_gain_limit", "egl", OptionType::kDouble, 100.0, 1.0, 100.0, true},
    {"vif_skip_scale0", "ssclz", OptionType::kBool, 0, 0, 1, true},
}};

constexpr std::array<std::string_view, 4> kMotionFeatures = {
    "VMAF_integer_feature_motion_sad_score", "VMAF_integer_feature_motion_score",
    "VMAF_integer_feature_motion2_score", "VMAF_integer_feature_motion3_score"};

constexpr std::array<ExtractorOption, 8> kMotionOptions = {{
    {"motion_force_zero", "force_0", OptionType::kBool, 0, 0, 1, true},
    {"motion_blend_factor", "mbf", OptionType::kDouble, 1.0, 0.0, 1.0, true},
    {"motion_blend_offset", "mbo", OptionType::kDouble, 40.0, 0.0, 1000.0, true},
    {"motion_fps_weight", "mfw", OptionType::kDouble, 1.0, 0.0, 5.0, true},
    {"motion_max_val", "mmxv", OptionType::kDouble, 10000.0, 0.0, 10000.0, true},
    {"motion_five_frame_window", "mffw", OptionType::kBool, 0, 0, 1, true},
    {"motion_moving_average", "mma", OptionType::kBool, 0, 0, 1, true},
    {"debug", "", OptionType::kBool, 0, 0, 1, false},
}};

// cambi.c: the banding detector VMAF v1 reads.
constexpr std::array<std::string_view, 1> kCambiFeatures = {"Cambi_feature_cambi_score"};

constexpr std::array<ExtractorOption, 17> kCambiOptions = {{
    {"cambi_max_val", "cmxv", OptionType::kDouble, 1000.0, 0.0, 1000.0, true, {}},
    {"enc_width", "encw", OptionType::kInt, 0, 180, 7680, true, {}},
    {"enc_height", "ench", OptionType::kInt, 0, 150, 7680, true, {}},
    {"enc_bitdepth", "encbd", OptionType::kInt, 0, 6, 16, true, {}},
    {"src_width", "srcw", OptionType::kInt, 0, 320, 7680, true, {}},
    {"src_height", "srch", OptionType::kInt, 0, 200, 4320, true, {}},
    {"window_size", "ws", OptionType::kInt, 65, 15, 127, true, {}},
    {"topk", "", OptionType::kDouble, 0.6, 0.0001, 1.0, true, {}},
    {"cambi_topk", "ctpk", OptionType::kDouble, 0.6, 0.0001, 1.0, true, {}},
    {"tvi_threshold", "tvit", OptionType::kDouble, 0.019, 0.0001, 1.0, true, {}},
    {"cambi_vis_lum_threshold", "vlt", OptionType::kDouble, 0.0, 0.0, 300.0, true, {}},
    {"max_log_contrast", "mlc", OptionType::kInt, 2, 0, 5, true, {}},
    {"heatmaps_path", "", OptionType::kString, 0, 0, 0, false, {}},
    {"full_ref", "", OptionType::kBool, 0, 0, 1, false, {}},
    {"eotf", "", OptionType::kString, 0, 0, 0, true, "bt1886"},
    {"cambi_eotf", "ceot", OptionType::kString, 0, 0, 0, true, "bt1886"},
    {"cambi_high_res_speedup", "hrs", OptionType::kInt, 0, 0, 2160, true, {}},
}};

// speed.c's chroma extractor (speed_chroma).
constexpr std::array<std::string_view, 3> kSpeedChromaFeatures = {
    "Speed_chroma_feature_speed_chroma_u_score", "Speed_chroma_feature_speed_chroma_v_score",
    "Speed_chroma_feature_speed_chroma_uv_score"};

constexpr std::array<ExtractorOption, 7> kSpeedChromaOptions = {{
    {"speed_kernelscale", "ks", OptionType::kDouble, 1.0, 0.1, 4.0, true, {}},
    {"speed_prescale", "ps", OptionType::kDouble, 1.0, 0.1, 4.0, true, {}},
    {"speed_prescale_method", "psm", OptionType::kString, 0, 0, 0, true, "nearest"},
    {"speed_sigma_nn", "snn", OptionType::kDouble, 0.29, 0.1, 2.0, true, {}},
    {"speed_nn_floor", "nnf", OptionType::kDouble, 0.0, 0.0, 1.0, true, {}},
    {"speed_max_val", "mxv", OptionType::kDouble, 1000.0, 0.0, 1000.0, true, {}},
    {"speed_weight_var_mode", "wvm", OptionType::kInt, 0, 0, 6, true, {}},
}};

// libvmaf's registration order puts adm before vif before motion; no name is
// provided twice, so the order decides nothing here. The run makes each
// extractor through the feature registry under the same name (cambi and
// speed_chroma: once they are registered; until then a model naming them is
// refused, score_models.cpp).
const std::array<ExtractorInfo, 5> kExtractors = {{
    {"adm", kAdmFeatures, kAdmOptions},
    {"vif", kVifFeatures, kVifOptions},
    {"motion", kMotionFeatures, kMotionOptions},
    {"cambi", kCambiFeatures, kCambiOptions},
    {"speed_chroma", kSpeedChromaFeatures, kSpeedChromaOptions},
}};

// feature/alias.c, the entries of libvmaf 3.2.0 (its JSON output shows the
// aim, adm3 and motion3 ones).
constexpr std::array<std::pair<std::string_view, std::string_view>, 25> kAliases = {{
    {"VMAF_feature_adm2_score", "adm2"},
    {"VMAF_feature_adm_scale0_score", "adm_scale0"},
    {"VMAF_feature_adm_scale1_score", "adm_scale1"},
    {"VMAF_feature_adm_scale2_score", "adm_scale2"},
    {"VMAF_feature_adm_scale3_score", "adm_scale3"},
    {"VMAF_feature_motion_score", "motion"},
    {"VMAF_feature_motion2_score", "motion2"},
    {"VMAF_feature_vif_scale0_score", "vif_scale0"},
    {"VMAF_feature_vif_scale1_score", "vif_scale1"},
    {"VMAF_feature_vif_scale2_score", "vif_scale2"},
    {"VMAF_feature_vif_scale3_score", "vif_scale3"},
    {"VMAF_integer_feature_adm2_score", "integer_adm2"},
    {"VMAF_integer_feature_aim_score", "integer_aim"},
    {"VMAF_integer_feature_adm3_score", "integer_adm3"},
    {"VMAF_integer_feature_motion_score", "integer_motion"},
    {"VMAF_integer_feature_motion2_score", "integer_motion2"},
    {"VMAF_integer_feature_motion3_score", "integer_motion3"},
    {"VMAF_integer_feature_vif_scale0_score", "integer_vif_scale0"},
    {"VMAF_integer_feature_vif_scale1_score", "integer_vif_scale1"},
    {"VMAF_integer_feature_vif_scale2_score", "integer_vif_scale2"},
    {"VMAF_integer_feature_vif_scale3_score", "integer_vif_scale3"},
    {"Cambi_feature_cambi_score", "cambi"},
    {"Speed_chroma_feature_speed_chroma_u_score", "speed_chroma_u"},
    {"Speed_chroma_feature_speed_chroma_v_score", "speed_chroma_v"},
    {"Speed_chroma_feature_speed_chroma_uv_score", "speed_chroma_uv"},
}};

// printf's "%g" (std::to_chars with precision 6 is defined as it).
std::string format_g(double v) {
  char buf[64];
  const auto r = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::general, 6);
  return std::string(buf, r.ptr);
}

bool parse_double_text(std::string_view t, double& out) {
  if (t.empty()) return false;
  const auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), out);
  return ec == std::errc() && end == t.data() + t.size() && std::isfinite(out);
}

bool parse_int_text(std::string_view t, long long& out) {
  if (t.empty()) return false;
  const auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), out);
  return ec == std::errc() && end == t.data() + t.size();
}

// The option's value from the entries. libvmaf 3.2.0 looks a model's option up
// by its name only (an alias key there changes nothing); null: not given.
const std::string* find_entry(const ExtractorOption& o,
                              std::span<const std::pair<std::string, std::string>> entries) {
  for (const auto& [k, v] : entries)
    if (k == o.name) return &v;
  return nullptr;
}

std::string known_options(const ExtractorInfo& e) {
  std::string out;
  for (const ExtractorOption& o : e.options) {
    if (!out.empty()) out += ", ";
    out += o.name;
  }
  return out;
}

}  // namespace

std::span<const ExtractorInfo> model_extractors() { return kExtractors; }

const ExtractorInfo* extractor_for_feature(std::string_view feature_name) {
  for (const ExtractorInfo& e : kExtractors)
    for (std::string_view f : e.provides)
      if (f == feature_name) return &e;
  return nullptr;
}

std::string_view feature_alias(std::string_view feature_name) {
  for (const auto& [name, alias] : kAliases)
    if (name == feature_name) return alias;
  return feature_name;
}

std::string normalised_number_text(std::string_view text) {
  float f = 0.0f;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), f);
  if (ec == std::errc::result_out_of_range) {
    // strtof: an overflow is +-HUGE_VALF, an underflow its rounded tiny value.
    double d = 0.0;
    std::from_chars(text.data(), text.data() + text.size(), d);
    f = std::fabs(d) > 1.0 ? (d < 0 ? -INFINITY : INFINITY) : static_cast<float>(d);
  } else if (ec != std::errc() || end == text.data()) {
    return std::string(text);  // not a number: kept as written
  }
  return format_g(static_cast<double>(f));
}

OutputKeyResult feature_output_key(const ExtractorInfo& extractor, std::string_view feature_name,
                                   std::span<const std::pair<std::string, std::string>> entries) {
  OutputKeyResult result;
  for (const auto& entry : entries) {
    const std::string& k = entry.first;
    const auto by_name = std::find_if(extractor.options.begin(), extractor.options.end(),
                                      [&](const ExtractorOption& o) { return k == o.name; });
    if (by_name != extractor.options.end()) continue;
    const auto by_alias =
        std::find_if(extractor.options.begin(), extractor.options.end(),
                     [&](const ExtractorOption& o) { return !o.alias.empty() && k == o.alias; });
    if (by_alias != extractor.options.end())
      result.error = fmt::format(
          "option '{}' of feature extractor {} is an alias, which libvmaf 3.2.0 ignores in a "
          "model: write '{}'",
          k, extractor.name, by_alias->name);
    else
      result.error = fmt::format("unknown option '{}' of feature extractor {} (known: {})", k,
                                 extractor.name, known_options(extractor));
    return result;
  }
  struct Renaming {
    std::string_view name;
    std::string part;
  };
  std::vector<Renaming> renamings;
  for (const ExtractorOption& o : extractor.options) {
    const std::string* text = find_entry(o, entries);
    if (text == nullptr) continue;
    const std::string where =
        fmt::format("option {}={} of feature extractor {}", o.name, *text, extractor.name);
    const std::string_view shown = o.alias.empty() ? o.name : o.alias;
    std::string part;
    bool is_default = false;
    switch (o.type) {
      case OptionType::kBool: {
        if (*text != "true" && *text != "false") {
          result.error = where + ": expected true or false";
          return result;
        }
        const bool v = *text == "true";
        is_default = v == (o.default_value != 0.0);
        part = fmt::format("_{}", shown);
        break;
      }
      case OptionType::kInt: {
        long long v = 0;
        if (!parse_int_text(*text, v) || static_cast<double>(v) < o.min ||
            static_cast<double>(v) > o.max) {
          result.error = fmt::format("{}: expected an integer in {}..{}", where, o.min, o.max);
          return result;
        }
        is_default = static_cast<double>(v) == o.default_value;
        part = fmt::format("_{}_{}", shown, v);
        break;
      }
      case OptionType::kString: {
        is_default = !o.default_text.empty() && *text == o.default_text;
        part = fmt::format("_{}_{}", shown, *text);
        break;
      }
      case OptionType::kDouble: {
        double v = 0;
        if (!parse_double_text(*text, v) || v < o.min || v > o.max) {
          result.error = fmt::format("{}: expected a number in [{}, {}]", where, o.min, o.max);
          return result;
        }
        is_default = v == o.default_value;
        part = fmt::format("_{}_{}", shown, format_g(v));
        break;
      }
    }
    if (o.feature_param && !is_default) renamings.push_back({o.name, std::move(part)});
  }
  std::sort(renamings.begin(), renamings.end(),
            [](const Renaming& a, const Renaming& b) { return a.name < b.name; });
  result.key = std::string(feature_alias(feature_name));
  for (const Renaming& r : renamings) result.key += r.part;
  return result;
}

}  // namespace exactvq::vmaf
