// The host half of ADM: a frame's scores from the integer sums the driver (or an
// engine) gives, in libvmaf's float and binary64 steps. docs/spec/adm.md.
#pragma once

#include <array>
#include <cstdint>

#include "metrics/adm/options.h"

namespace exactvq::adm {

// Every value libvmaf's extractor appends for a frame, as the doubles it appends.
struct AdmScores {
  double adm2 = 0;       // integer_adm2: num / den
  double aim = 0;        // integer_aim: AIM numerator / den
  double adm3 = 0;       // integer_adm3: max(adm2 * w + (1 - aim) * (1 - w), min_val)
  double scale[4] = {};  // integer_adm_scale0..3: num_scale / den_scale
  // debug=true adds these.
  double adm = 0;  // integer_adm (= adm2)
  double num = 0, den = 0;
  double num_scale[4] = {}, den_scale[4] = {};
};

// The per-sample half of a frame (what an engine computes): per scale, per
// orientation (h, v, d), the integer sums the host converts, each the sum over
// the scored rows of that row's sum rounded and shifted as libvmaf shifts it.
// den: the reference's energy (libvmaf's uint64 accumulators); num: the
// masked restored part; aim_num: AIM's masked additive part (0 with
// adm_skip_aim). int64 sums are modulo 2^64, as libvmaf's wrap. A skipped
// scale 0 (adm_skip_scale0) is all zeros.
struct ScaleSums {
  uint64_t den[3] = {};
  int64_t num[3] = {};
  int64_t aim_num[3] = {};
};
using AdmSums = std::array<ScaleSums, 4>;

// The host half: the scores of a width x height frame from its sums (the
// float and binary64 steps, one_third_power, the pinned CSF factors).
AdmScores adm_scores_from_sums(const AdmSums& sums, int width, int height, const AdmOptions& o);

}  // namespace exactvq::adm
