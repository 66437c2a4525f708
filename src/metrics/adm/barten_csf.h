// ADM's other contrast sensitivity functions (adm_csf_mode 1..3): Barten's
// CSF as HDR-VDP-2 simplifies it, and the two tables of factors blended from
// Barten's and Watson's for the viewing geometries libvmaf's v1 models use.
// Each gives the float factor of one DWT scale (lambda 0..3) and orientation
// (h and v bands, or d); csf_factors.h turns them into the fixed-point forms.
#pragma once

#include <optional>

namespace exactvq::adm {

// Barten's CSF at scale lambda for the geometry nvd * rdh, at libvmaf's
// adaptation luminance (100 cd/m^2), times `scale` (adm_csf_scale for the h
// and v bands, adm_csf_diag_scale for d: the function has no orientation).
// libvmaf's float and binary64 steps one by one, through exactvq::libm.
float barten_csf(int lambda, double norm_view_dist, int ref_display_height, double scale);

// The blended factor of scale lambda, diagonal (d band) or not, from
// libvmaf's table for the geometry (mae: adm_csf_mode 3's refitted table,
// else mode 2's). Empty where libvmaf has no table for (rdh, nvd): it then
// uses an error code as the factor, which exactvq refuses.
std::optional<float> blended_csf(int lambda, bool diagonal, bool mae, double norm_view_dist,
                                 int ref_display_height);

}  // namespace exactvq::adm
