// libvmaf's JSON report (vmaf_write_output_json), byte for byte for finite values.
#include <cmath>
#include <cstdio>
#include <ostream>
#include <string>
#include <string_view>

#include "output/report.h"
#include "output/writers.h"

namespace exactvq::output_detail {
namespace {

// A JSON string literal. Names and the version are plain identifiers, printed as
// libvmaf prints them; the escaping only matters for anything else.
std::string quote(std::string_view s) {
  std::string e = "\"";
  for (const char c : s) {
    const auto u = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      e += '\\';
      e += c;
    } else if (u < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(u));
      e += buf;
    } else {
      e += c;
    }
  }
  e += '"';
  return e;
}

// A finite value through format_number; inf, -inf and nan as null (as libvmaf does).
std::string number(double v, const NumberFormat& nf) {
  return std::isfinite(v) ? format_number(v, nf) : std::string("null");
}

}  // namespace

// Whitespace follows libvmaf: frames separated by ",\n", one metric per line with a
// trailing comma on all but the last. Unlike libvmaf, a null metric keeps its newline
// and the separator before the first frame is "\n" even when its frameNum is not 0, so
// the output is always valid JSON. fps is "%.2f", or null when not finite.
void write_json(std::ostream& out, const ScoreReport& r, const NumberFormat& nf) {
  out << "{\n";
  out << "  \"version\": " << quote(r.version) << ",\n";
  out << "  \"fps\": " << number(r.fps, NumberFormat{2, false}) << ",\n";

  out << "  \"frames\": [";
  if (!r.features.empty()) {
    for (size_t i = 0; i < r.frame_numbers.size(); ++i) {
      out << (i > 0 ? ",\n" : "\n");
      out << "    {\n";
      out << "      \"frameNum\": " << std::to_string(r.frame_numbers[i]) << ",\n";
      out << "      \"metrics\": {\n";
      for (size_t j = 0; j < r.features.size(); ++j) {
        const FeatureSeries& f = r.features[j];
        out << "        " << quote(f.name) << ": " << number(f.values[i], nf)
            << (j + 1 < r.features.size() ? "," : "") << "\n";
      }
      out << "      }\n";
      out << "    }";
    }
  }
  out << "\n  ],\n";

  out << "  \"pooled_metrics\": {";
  for (size_t j = 0; j < r.features.size(); ++j) {
    const FeatureSeries& f = r.features[j];
    const Pooled p = pool(f.values);
    out << (j > 0 ? ",\n" : "\n");
    out << "    " << quote(f.name) << ": {";
    out << "\n      \"min\": " << number(p.min, nf);
    out << ",\n      \"max\": " << number(p.max, nf);
    out << ",\n      \"mean\": " << number(p.mean, nf);
    out << ",\n      \"harmonic_mean\": " << number(p.harmonic_mean, nf);
    out << "\n    }";
  }
  out << "\n  },\n";

  out << "  \"aggregate_metrics\": {";
  for (size_t j = 0; j < r.aggregates.size(); ++j)
    out << "\n    " << quote(r.aggregates[j].name) << ": " << number(r.aggregates[j].value, nf)
        << (j + 1 < r.aggregates.size() ? "," : "");
  out << "\n  }\n";
  out << "}\n";
}

}  // namespace exactvq::output_detail
