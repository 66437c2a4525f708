// The plan of one ADM scale for engines that run the stages one output at a time
// (stages.h): its size, regions, shifts and CSF factors, as the driver forms them.
#pragma once

#include "metrics/adm/stages.h"

namespace exactvq::adm {

struct CsfFactors;  // csf_factors.h

// The plan of scale n (0..3) of a width x height picture, as the driver forms
// its regions and shifts, for engines that run the stages one output at a
// time (stages.h).
stages::ScalePlan scale_plan(int width, int height, int scale, const CsfFactors& f);

}  // namespace exactvq::adm
