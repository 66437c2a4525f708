// The `cambi` feature's options: libvmaf's banding metric (cambi.c), with its
// names, aliases, defaults and ranges.
#pragma once

#include <string>

#include "metrics/feature_spec.h"

namespace exactvq::cambi {

enum class Eotf { kBt1886, kPq };

struct CambiOptions {
  double max_val = 1000.0;            // cambi_max_val / cmxv, [0, 1000]: the scores' ceiling
  int enc_width = 0;                  // enc_width / encw, [180, 7680]; 0: the picture's
  int enc_height = 0;                 // enc_height / ench, [150, 7680]; 0: the picture's
  int enc_bitdepth = 0;               // enc_bitdepth / encbd, [6, 16]; 0: the picture's
  int src_width = 0;                  // src_width / srcw, [320, 7680]; 0: the picture's
  int src_height = 0;                 // src_height / srch, [200, 4320]; 0: the picture's
  int window_size = 65;               // window_size / ws, [15, 127], at 4K
  double topk = 0.6;                  // topk, [0.0001, 1]: wins over cambi_topk when not 0.6
  double cambi_topk = 0.6;            // cambi_topk / ctpk, [0.0001, 1]
  double tvi_threshold = 0.019;       // tvi_threshold / tvit, [0.0001, 1]
  double vis_lum_threshold = 0.0;     // cambi_vis_lum_threshold / vlt, [0, 300] (cd/m^2)
  int max_log_contrast = 2;           // max_log_contrast / mlc, [0, 5]
  bool full_ref = false;              // full_ref: also the reference's score and the difference
  std::string eotf = "bt1886";        // eotf: bt1886 or pq
  std::string cambi_eotf = "bt1886";  // cambi_eotf / ceot: wins over eotf when not bt1886
  int high_res_speedup = 0;           // cambi_high_res_speedup / hrs, [0, 2160]
  std::string heatmaps_path;  // where libvmaf's heatmap files go (heatmaps.h); empty: nowhere
};

// Throws UsageError naming the option on an unknown key, a value that is not
// a number of the option's type, out of its range, an EOTF other than bt1886
// and pq, or an empty heatmaps_path.
CambiOptions parse_cambi_options(const FeatureSpec& spec);

// The EOTF the thresholds use: cambi_eotf where it is not the default, else eotf.
Eotf effective_eotf(const CambiOptions& o);

// The share of a scale's values that its pooling averages: topk where it is
// not the default, else cambi_topk.
double effective_topk(const CambiOptions& o);

// What libvmaf appends to "cambi" under these options: "_<alias>_<value>" for
// each option whose value is not its default, sorted by the options' names
// (e.g. "_hrs_1080_cmxv_17_vlt_0.06"); integers as %d, reals as %g.
std::string key_suffix(const CambiOptions& o);

}  // namespace exactvq::cambi
