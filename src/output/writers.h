// The four report writers behind write_report(), one per file; internal to src/output.
#pragma once

#include <iosfwd>

#include "output/report.h"

namespace exactvq::output_detail {

// Each writes `r` in libvmaf 3.x's layout (libvmaf/src/output.c). They assume every
// feature has one value per frame (write_report checks it). A frame is listed only
// when it has at least one feature, as in libvmaf.
void write_xml(std::ostream& out, const ScoreReport& r, const NumberFormat& nf);
void write_json(std::ostream& out, const ScoreReport& r, const NumberFormat& nf);
void write_csv(std::ostream& out, const ScoreReport& r, const NumberFormat& nf);
void write_sub(std::ostream& out, const ScoreReport& r, const NumberFormat& nf);

}  // namespace exactvq::output_detail
