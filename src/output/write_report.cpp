// write_report(): checks the report's shape, then hands it to the writer of the format.
#include <ostream>
#include <stdexcept>
#include <string>

#include "output/report.h"
#include "output/writers.h"

namespace exactvq {

// A feature with fewer or more values than frames is a programming error (the scorer
// fills every series for every scored frame): std::invalid_argument, nothing written.
void write_report(std::ostream& out, const ScoreReport& r, OutputFormat fmt,
                  const NumberFormat& nf) {
  for (const FeatureSeries& f : r.features) {
    if (f.values.size() != r.frame_numbers.size())
      throw std::invalid_argument("write_report: feature '" + f.name + "' has " +
                                  std::to_string(f.values.size()) + " values for " +
                                  std::to_string(r.frame_numbers.size()) + " frames");
  }
  switch (fmt) {
    case OutputFormat::kXml:
      output_detail::write_xml(out, r, nf);
      return;
    case OutputFormat::kJson:
      output_detail::write_json(out, r, nf);
      return;
    case OutputFormat::kCsv:
      output_detail::write_csv(out, r, nf);
      return;
    case OutputFormat::kSub:
      output_detail::write_sub(out, r, nf);
      return;
  }
  throw std::invalid_argument("write_report: unknown output format");
}

}  // namespace exactvq
