// libvmaf's SUB report (vmaf_write_output_sub): MicroDVD subtitles, one line a frame.
#include <cmath>
#include <ostream>
#include <string>

#include <fmt/format.h>

#include "output/report.h"
#include "output/writers.h"

namespace exactvq::output_detail {

namespace {

// How many times libvmaf multiplies the fractional part of |v| by ten before it
// reaches 1 (0 for a whole number): above six, it prints 16 decimals, not 6.
int fraction_leading_zeros(double v) {
  v = std::fabs(v);
  if (!(v < 2147483648.0)) return 0;  // beyond libvmaf's int cast: printed as "%.6f"
  double fraction = v - double(int(v));
  int count = 0;
  while (fraction < 1.0 && fraction != 0) {
    fraction *= 10;
    ++count;
  }
  return count;
}

std::string sub_number(double v, const NumberFormat& nf) {
  // Only libvmaf's own format (6 decimals) widens tiny values; --precision wins.
  if (!nf.shortest && nf.decimals == 6 && std::isfinite(v) && fraction_leading_zeros(v) > 6)
    return format_number(v, NumberFormat{16, false});
  return format_number(v, nf);
}

}  // namespace

// "{i}{i+1}frame: i|name: value|...|": every frame that has a score.
void write_sub(std::ostream& out, const ScoreReport& r, const NumberFormat& nf) {
  if (r.features.empty()) return;
  for (size_t f = 0; f < r.frame_numbers.size(); ++f) {
    const uint32_t i = r.frame_numbers[f];
    out << fmt::format("{{{}}}{{{}}}frame: {}|", i, uint64_t(i) + 1, i);
    for (const FeatureSeries& s : r.features)
      out << s.name << ": " << sub_number(s.values[f], nf) << "|";
    out << "\n";
  }
}

}  // namespace exactvq::output_detail
