// The command line and the feature options: any argv either parses or throws
// UsageError (nothing else escapes), and every --feature it accepts either makes a
// feature or is refused with UsageError.
//
// Input: the arguments, one per line (argv[0] is "exactvq").
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "cli/cli_options.h"
#include "core/error.h"
#include "metrics/feature.h"
#include "metrics/registry.h"
#include "metrics/ssim/ssim_feature.h"
#include "fuzz_check.h"

using namespace exactvq;

namespace {

std::vector<std::string> split_lines(const uint8_t* data, size_t size) {
  std::vector<std::string> args{"exactvq"};
  std::string arg;
  for (size_t i = 0; i < size; ++i) {
    if (data[i] == '\n') {
      args.push_back(arg);
      arg.clear();
    } else {
      arg.push_back(char(data[i]));
    }
  }
  if (!arg.empty()) args.push_back(arg);
  return args;
}

void check_feature(const FeatureSpec& spec) {
  FUZZ_CHECK(!spec.name.empty());
  FeatureContext ctx;
  ctx.format = VideoFormat{8, 6, ChromaFormat::k420, 10};
  try {
    const auto feature = make_feature(spec, ctx);
    FUZZ_CHECK(feature != nullptr && !feature->outputs().empty());
  } catch (const UsageError&) {}
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > 4096) return 0;
  const std::vector<std::string> args = split_lines(data, size);
  std::vector<const char*> argv;
  for (const auto& a : args) argv.push_back(a.c_str());
  argv.push_back(nullptr);
  try {
    const CliOptions c = parse_command_line(int(args.size()), argv.data());
    if (!c.show_help && !c.show_version) {
      FUZZ_CHECK(!c.run.ref_path.empty() && !c.run.dist_path.empty());
      FUZZ_CHECK(c.run.threads >= 1 && c.run.subsample >= 1);
      FUZZ_CHECK(!c.run.frame_count || *c.run.frame_count >= 1);
      FUZZ_CHECK(c.run.skip_ref >= 0 && c.run.skip_dist >= 0);
      if (c.run.raw.width) FUZZ_CHECK(*c.run.raw.width >= 1 && *c.run.raw.width <= kMaxDimension);
      if (c.run.raw.height)
        FUZZ_CHECK(*c.run.raw.height >= 1 && *c.run.raw.height <= kMaxDimension);
      if (c.run.raw.bitdepth) FUZZ_CHECK(*c.run.raw.bitdepth >= 8 && *c.run.raw.bitdepth <= 16);
      for (const auto& spec : c.run.features) check_feature(spec);
    }
  } catch (const UsageError&) {}
  // The whole input as one --feature value.
  try {
    check_feature(parse_feature_spec(std::string(reinterpret_cast<const char*>(data), size)));
  } catch (const UsageError&) {}
  return 0;
}
