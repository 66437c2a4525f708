#include "cli/run_outputs.h"

#include <cstdio>
#include <sstream>
#include <string>

#include <fmt/format.h>

#include "core/error.h"
#include "output/svg_plot.h"

namespace exactvq {

namespace {

void print_summary(const ScoreReport& r, const NumberFormat& nf) {
  for (const auto& f : r.features)
    fmt::print("{}: {}\n", f.name, format_number(pool(f.values).mean, nf));
  for (const auto& a : r.aggregates) fmt::print("{}: {}\n", a.name, format_number(a.value, nf));
}

std::string shown_name(const std::string& path) { return path == "-" ? "standard input" : path; }

bool ends_with_json(const std::string& path) {
  return path.size() >= 5 && path.compare(path.size() - 5, 5, ".json") == 0;
}

}  // namespace

void write_run_outputs(const CliOptions& c, const ScoreReport& report) {
  if (c.output_path) {
    write_file_atomically(*c.output_path, [&](std::ostream& out) {
      write_report(out, report, c.output_format, c.number_format);
    });
  } else if (!c.quiet && c.plot_path != "-") {
    print_summary(report, c.number_format);
  }
  if (c.plot_path) {
    const std::string title =
        fmt::format("{} against {}", shown_name(c.run.dist_path), shown_name(c.run.ref_path));
    write_file_atomically(*c.plot_path,
                          [&](std::ostream& out) { write_svg_plot(out, report, title); });
  }
  std::fflush(stdout);
  if (std::ferror(stdout)) throw OutputError("cannot write to standard output");
}

void write_batch_outputs(const CliOptions& c, const std::vector<PairResult>& results) {
  if (c.batch_summary && *c.batch_summary != "-") {
    const bool json = ends_with_json(*c.batch_summary);
    write_file_atomically(*c.batch_summary, [&](std::ostream& out) {
      write_batch_summary(out, results, json, c.number_format);
    });
  } else if (c.batch_summary || !c.quiet) {
    std::ostringstream text;
    write_batch_summary(text, results, false, c.number_format);
    fmt::print("{}", text.str());
  }
}

}  // namespace exactvq
