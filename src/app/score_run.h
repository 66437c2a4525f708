// One scoring run: two inputs in, every requested feature on every frame pair out.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "features/feature.h"
#include "io/video_source.h"
#include "output/report.h"

namespace exactvq {

struct RunOptions {
  std::string ref_path, dist_path;
  RawOptions raw;
  std::vector<FeatureSpec> features;  // empty: ssim
  Backend backend = Backend::kCpu;
  int threads = 1;
  std::optional<int64_t> frame_count;  // score at most this many; more than exist is an error
  int64_t skip_ref = 0, skip_dist = 0;
  int subsample = 1;  // score frames whose index is a multiple of this
  // Where warnings go (one complete line each, no newline); null discards them.
  std::function<void(const std::string&)> warn;
};

// Throws InputError / UsageError; nothing is written anywhere.
ScoreReport score_videos(const RunOptions& options);

}  // namespace exactvq
