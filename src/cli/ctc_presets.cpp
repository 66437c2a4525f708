#include "cli/ctc_presets.h"

#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/error.h"

namespace exactvq {

namespace {

std::string feature_name(const std::string& spec) { return spec.substr(0, spec.find('=')); }

// libvmaf's CHECKED_REPLACE: the first feature of the same name gives way to
// `spec`; with none, `spec` is appended.
void replace_feature(CliScoreList& list, const std::string& spec) {
  for (std::string& f : list.features) {
    if (feature_name(f) == feature_name(spec)) {
      f = spec;
      return;
    }
  }
  list.features.push_back(spec);
}

int version_index(const std::vector<std::string>& versions, const std::string& version) {
  const auto it = std::find(versions.begin(), versions.end(), version);
  return it == versions.end() ? -1 : int(it - versions.begin());
}

}  // namespace

const std::vector<std::string>& aom_ctc_versions() {
  static const std::vector<std::string> v{"v1.0", "v2.0", "v3.0", "v4.0", "v5.0", "v6.0", "v7.0"};
  return v;
}

const std::vector<std::string>& nflx_ctc_versions() {
  static const std::vector<std::string> v{"v1.0"};
  return v;
}

void apply_aom_ctc(const std::string& version, CliScoreList& list) {
  if (version == "proposed") throw UsageError("--aom_ctc proposed: deprecated in libvmaf");
  const int v = version_index(aom_ctc_versions(), version);  // 0 is v1.0
  if (v < 0)
    throw UsageError(fmt::format("--aom_ctc {}: expected one of {}", version,
                                 fmt::join(aom_ctc_versions(), ", ")));
  // v1.0 (and v2.0, the same).
  list.models.push_back("version=vmaf_v0.6.1:name=vmaf");
  list.models.push_back("version=vmaf_v0.6.1neg:name=vmaf_neg");
  list.features.push_back("psnr=reduced_hbd_peak=true:enable_apsnr=true:min_sse=0.5");
  list.features.push_back("ciede");
  list.features.push_back("float_ssim=enable_db=true:clip_db=true");
  list.features.push_back("float_ms_ssim=enable_db=true:clip_db=true");
  list.features.push_back("psnr_hvs");
  if (v >= 2) list.features.push_back("cambi");  // v3.0; v4.0 and v5.0 add nothing
  if (v >= 5) list.common_bitdepth = true;       // v6.0
  if (v >= 6) replace_feature(list, "float_ssim=scale=1:enable_db=true:clip_db=true");  // v7.0
}

void apply_nflx_ctc(const std::string& version, CliScoreList& list) {
  if (version_index(nflx_ctc_versions(), version) < 0)
    throw UsageError(fmt::format("--nflx_ctc {}: expected one of {}", version,
                                 fmt::join(nflx_ctc_versions(), ", ")));
  list.models.push_back("version=vmaf_4k_v0.6.1:name=vmaf");
  list.models.push_back("version=vmaf_4k_v0.6.1neg:name=vmaf_neg");
  list.features.push_back("psnr=enable_chroma=true:enable_apsnr=true");
  list.features.push_back("float_ssim=enable_db=true:clip_db=true");
  list.features.push_back("cambi");
}

}  // namespace exactvq
