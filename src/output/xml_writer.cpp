// libvmaf's XML report (vmaf_write_output_xml), byte for byte for ordinary names.
#include <ostream>
#include <string>
#include <string_view>

#include "output/report.h"
#include "output/writers.h"

namespace exactvq::output_detail {
namespace {

// libvmaf prints names and the version unescaped; ours are plain identifiers, which
// this leaves unchanged, but anything else still gives well-formed XML.
std::string escape_attr(std::string_view s) {
  std::string e;
  e.reserve(s.size());
  for (const char c : s) {
    switch (c) {
      case '&':
        e += "&amp;";
        break;
      case '<':
        e += "&lt;";
        break;
      case '>':
        e += "&gt;";
        break;
      case '"':
        e += "&quot;";
        break;
      case '\n':
        e += "&#10;";
        break;
      case '\r':
        e += "&#13;";
        break;
      case '\t':
        e += "&#9;";
        break;
      default:
        e += c;
    }
  }
  return e;
}

// One `name="value" ` attribute, with the trailing space libvmaf prints before "/>".
void attr(std::ostream& out, std::string_view name, double v, const NumberFormat& nf) {
  out << escape_attr(name) << "=\"" << format_number(v, nf) << "\" ";
}

}  // namespace

// Layout:
//   <VMAF version="V">
//     <params qualityWidth="W" qualityHeight="H" />
//     <fyi fps="F" />                      fps always "%.2f"
//     <frames>
//       <frame frameNum="N" ssim="..." ... />
//     </frames>
//     <pooled_metrics>
//       <metric name="ssim" min="..." max="..." mean="..." harmonic_mean="..." />
//     </pooled_metrics>
//     <aggregate_metrics apsnr_y="..." />   empty: <aggregate_metrics />
//   </VMAF>
// Non-finite values print as "inf", "-inf" and "nan" (format_number), which strtod and
// XML consumers read as text; libvmaf would print glibc's "inf"/"-nan" spellings.
void write_xml(std::ostream& out, const ScoreReport& r, const NumberFormat& nf) {
  out << "<VMAF version=\"" << escape_attr(r.version) << "\">\n";
  out << "  <params qualityWidth=\"" << std::to_string(r.width) << "\" qualityHeight=\""
      << std::to_string(r.height) << "\" />\n";
  out << "  <fyi fps=\"" << format_number(r.fps, NumberFormat{2, false}) << "\" />\n";

  out << "  <frames>\n";
  if (!r.features.empty()) {
    for (size_t i = 0; i < r.frame_numbers.size(); ++i) {
      out << "    <frame frameNum=\"" << std::to_string(r.frame_numbers[i]) << "\" ";
      for (const FeatureSeries& f : r.features) attr(out, f.name, f.values[i], nf);
      out << "/>\n";
    }
  }
  out << "  </frames>\n";

  out << "  <pooled_metrics>\n";
  for (const FeatureSeries& f : r.features) {
    const Pooled p = pool(f.values);
    out << "    <metric name=\"" << escape_attr(f.name) << "\" ";
    attr(out, "min", p.min, nf);
    attr(out, "max", p.max, nf);
    attr(out, "mean", p.mean, nf);
    attr(out, "harmonic_mean", p.harmonic_mean, nf);
    out << "/>\n";
  }
  out << "  </pooled_metrics>\n";

  out << "  <aggregate_metrics ";
  for (const AggregateMetric& a : r.aggregates) attr(out, a.name, a.value, nf);
  out << "/>\n";
  out << "</VMAF>\n";
}

}  // namespace exactvq::output_detail
