// --batch's summary of every pair, CSV or JSON (batch_run.h).
#include <cmath>
#include <ostream>

#include <nlohmann/json.hpp>

#include "cli/batch_run.h"
#include "cli/csv_fields.h"

namespace exactvq {

namespace {

std::string json_string(const std::string& s) {
  return nlohmann::json(s).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::string json_number(double v, const NumberFormat& nf) {
  return std::isfinite(v) ? format_number(v, nf) : "null";
}

}  // namespace

void write_batch_summary(std::ostream& out, const std::vector<PairResult>& results, bool json,
                         const NumberFormat& nf) {
  if (!json) {
    out << "line,ref,dist,output,status,frames,ssim,error\n";
    for (const PairResult& r : results) {
      std::string ssim;
      for (const auto& [name, mean] : r.pooled_means)
        if (name == "ssim") ssim = format_number(mean, nf);
      out << r.pair.line << ',' << csv_quote(r.pair.ref) << ',' << csv_quote(r.pair.dist) << ','
          << csv_quote(r.pair.output) << ',' << (r.ok ? "ok" : "failed") << ','
          << (r.ok ? std::to_string(r.frames) : "") << ',' << ssim << ',' << csv_quote(r.error)
          << '\n';
    }
    return;
  }
  size_t failed = 0;
  out << "{\n  \"pairs\": [";
  for (size_t i = 0; i < results.size(); ++i) {
    const PairResult& r = results[i];
    failed += r.ok ? 0 : 1;
    out << (i ? ",\n" : "\n") << "    {\"line\": " << r.pair.line
        << ", \"ref\": " << json_string(r.pair.ref) << ", \"dist\": " << json_string(r.pair.dist)
        << ", \"output\": " << json_string(r.pair.output) << ", \"status\": \""
        << (r.ok ? "ok" : "failed") << "\"";
    if (r.ok) {
      out << ", \"frames\": " << r.frames << ", \"pooled_mean\": {";
      for (size_t k = 0; k < r.pooled_means.size(); ++k)
        out << (k ? ", " : "") << json_string(r.pooled_means[k].first) << ": "
            << json_number(r.pooled_means[k].second, nf);
      out << "}";
    } else {
      out << ", \"error\": " << json_string(r.error);
    }
    out << "}";
  }
  out << (results.empty() ? "],\n" : "\n  ],\n") << "  \"scored\": " << results.size() - failed
      << ",\n  \"failed\": " << failed << "\n}\n";
}

}  // namespace exactvq
