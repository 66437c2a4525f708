// The command line of `exactvq`, libvmaf's `vmaf` flags where they exist.
#pragma once

#include <optional>
#include <string>

#include "app/score_run.h"
#include "output/report.h"

namespace exactvq {

struct CliOptions {
  RunOptions run;
  std::optional<std::string> output_path;
  std::optional<std::string> plot_path;  // --plot: an SVG chart of the per-frame scores
  OutputFormat output_format = OutputFormat::kXml;  // libvmaf's default with -o
  NumberFormat number_format;
  bool quiet = false;
  bool verbose = false;
  bool show_version = false;
  bool show_help = false;
  std::string help_text;
};

// Parses argv; throws UsageError with a message naming the offending option.
CliOptions parse_command_line(int argc, const char* const* argv);

}  // namespace exactvq
