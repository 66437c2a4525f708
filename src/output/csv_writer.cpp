// libvmaf's CSV report (vmaf_write_output_csv), byte for byte.
#include <ostream>
#include <string>

#include "output/report.h"
#include "output/writers.h"

namespace exactvq::output_detail {

// Header "Frame,ssim,ssim_cb,\n" and rows "0,0.944374,0.900000,\n": every field,
// the last included, is followed by a comma, as libvmaf prints it. Names are written
// as they are (ours contain no comma or quote). Non-finite values print as "inf",
// "-inf" and "nan" (format_number), which strtod reads back.
void write_csv(std::ostream& out, const ScoreReport& r, const NumberFormat& nf) {
  out << "Frame,";
  for (const FeatureSeries& f : r.features) out << f.name << ",";
  out << "\n";
  if (r.features.empty()) return;
  for (size_t i = 0; i < r.frame_numbers.size(); ++i) {
    out << std::to_string(r.frame_numbers[i]) << ",";
    for (const FeatureSeries& f : r.features) out << format_number(f.values[i], nf) << ",";
    out << "\n";
  }
}

}  // namespace exactvq::output_detail
