// The command line of `exactvq`, libvmaf's `vmaf` flags where they exist.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "app/score_run.h"
#include "output/report.h"

namespace exactvq {

struct CliOptions {
  RunOptions run;  // with --batch: the options every pair shares (no paths)
  // --model specs as given (libvmaf's syntax), with the presets' (--aom_ctc,
  // --nflx_ctc) in order; with none and no -n, VMAF v0.6.1's. Made into
  // run.models by load_run_models().
  std::vector<std::string> model_specs;
  // --aom_ctc v6.0 and later: libvmaf then accepts inputs of different bit depths
  // (it reads the narrower one's bytes as wider samples; exactvq still refuses).
  bool common_bitdepth = false;
  std::optional<std::string> output_path;
  std::optional<std::string> plot_path;             // --plot: an SVG chart of the per-frame scores
  OutputFormat output_format = OutputFormat::kXml;  // libvmaf's default with -o; --sub: kSub
  NumberFormat number_format;
  bool quiet = false;
  bool verbose = false;
  bool show_version = false;
  bool show_help = false;
  std::string help_text;
  // Whether --xml/--json/--csv/--sub, --threads were given (batch pairs take the format
  // from the output's extension, and share the cores, when they were not).
  bool output_format_given = false;
  bool threads_given = false;

  // --batch LIST: score every pair the list names (cli/batch_run.h) instead of
  // -r/-d. `batch_args` are the command line's arguments without the --batch*
  // options and their values: the options every pair starts from.
  std::optional<std::string> batch_path;
  int batch_jobs = 0;                        // --batch-jobs N; 0: the runner's default
  std::optional<std::string> batch_summary;  // --batch-summary FILE (.csv, .json, - for stdout)
  std::vector<std::string> batch_args;
};

// Parses argv (argv[0] is the program name and is ignored); throws UsageError with
// a message naming the offending option. Reusable by other front ends: it reads
// nothing but its arguments, and writes nothing.
CliOptions parse_command_line(int argc, const char* const* argv);

// The same on a vector of arguments, without the program name.
CliOptions parse_command_line(const std::vector<std::string>& args);

// Reads the models of c.model_specs (built in, or model files) into c.run.models.
// Throws UsageError / InputError naming the spec or the file.
void load_run_models(CliOptions& c);

// Parses the value of --gpus: `all`, a count N >= 1 (the first N devices), or a
// comma-separated list of distinct device numbers ("0,2"; a single number is a
// count: name one device with --gpu N). Sets gpu_count or gpus in `device`;
// throws UsageError naming the value.
void parse_gpus(const std::string& text, DeviceOptions& device);

}  // namespace exactvq
