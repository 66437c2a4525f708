// The option sets cambi's device tests run (device_stages_test.cpp,
// device_test.cpp): the CPU's oracle cases (oracle_test.cpp), every option
// alone and together, and the high-resolution speed-up at 1080p, as the VMAF
// v1.0.16 models set it.
#pragma once

#include <string>

namespace exactvq::cambi::testing {

struct OptionCase {
  int w, h, bitdepth;
  const char* spec;
};

inline constexpr OptionCase kOptionCases[] = {
    {216, 216, 8, "cambi"},
    {320, 240, 10, "cambi=full_ref=true"},
    {576, 324, 8, "cambi=window_size=31:topk=0.2"},
    {500, 281, 10, "cambi=tvi_threshold=0.05:eotf=pq"},
    {640, 360, 8, "cambi=enc_width=480:enc_height=270"},
    {640, 360, 10, "cambi=full_ref=true:src_width=400:src_height=225:enc_width=480:enc_height=270"},
    {480, 270, 8, "cambi=full_ref=true:src_width=960:src_height=540"},
    {490, 270, 10, "cambi=full_ref=true:src_width=500:src_height=270"},
    {600, 400, 12, "cambi=max_log_contrast=4:cambi_vis_lum_threshold=10"},
    {400, 300, 16, "cambi=cambi_topk=0.9:max_log_contrast=0"},
    {300, 216, 10, "cambi=enc_bitdepth=8:cambi_max_val=0.5"},
    {720, 480, 10, "cambi=window_size=127:max_log_contrast=5"},
    {350, 250, 8, "cambi=cambi_eotf=pq:full_ref=true"},
    {1000, 216, 12, "cambi=enc_width=900:enc_height=200:topk=1"},
    {216, 40, 8, "cambi=tvi_threshold=0.3"},
    {40, 216, 10, "cambi=cambi_vis_lum_threshold=10:max_log_contrast=1"},
    {260, 240, 10, "cambi=cambi_vis_lum_threshold=300:max_log_contrast=5:eotf=pq"},
    {333, 217, 16, "cambi=full_ref=true:eotf=pq:tvi_threshold=0.001:topk=0.0001"},
    {1920, 1080, 10, "cambi=cambi_high_res_speedup=1080:full_ref=true"},
    {1920, 1080, 8,
     "cambi=cambi_high_res_speedup=1080:cambi_max_val=17:cambi_vis_lum_threshold=0.06"},
};

}  // namespace exactvq::cambi::testing
