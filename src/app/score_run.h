// One scoring run: two inputs in, every requested feature on every frame pair out.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "backends/device.h"
#include "metrics/feature.h"
#include "metrics/score_model.h"
#include "io/video_source.h"
#include "output/report.h"

namespace exactvq {

struct RunOptions {
  std::string ref_path, dist_path;
  RawOptions raw;
  std::vector<FeatureSpec> features;  // neither features nor models: ssim
  // Models scored on the features they name (VMAF); with `predict` false, only
  // their features are scored (libvmaf's --no_prediction).
  std::vector<std::shared_ptr<const ScoreModel>> models;
  bool predict = true;
  DeviceOptions device;  // where to compute; its notice is set from `warn` when null
  // --hwdec: where encoded inputs are decoded; unset: kAuto when the run scores
  // on CUDA (--backend cuda), else kNone. With device.verbose, a fallback to
  // the CPU is told to device.notice.
  std::optional<HwDecode> hwdec;
  int threads = 1;
  // Threads reading each input (several frames of a regular file at once); 0:
  // chosen here (several when a device scores, where reading is the limit).
  int reader_threads = 0;
  std::optional<int64_t> frame_count;  // score at most this many; more than exist is an error
  int64_t skip_ref = 0, skip_dist = 0;
  int subsample = 1;  // score frames whose index is a multiple of this
  // Inputs of different lengths: an error (the command line's: no partial report that looks
  // whole) rather than the common frames scored and a warning.
  bool equal_lengths = false;
  // Where warnings go (one complete line each, no newline); null discards them.
  std::function<void(const std::string&)> warn;
  // Called after each batch of frames is scored: frames scored so far, and the
  // number the run will score when the inputs' lengths are known. May be null.
  std::function<void(int64_t done, std::optional<int64_t> total)> progress;
  // Called with the complete report before the run lets go of its inputs,
  // pictures and engines (decoder sessions still decoding ahead, GPU memory,
  // NVDEC decoders: tenths of a second): a caller that ends the process once
  // the report is out need not wait for that. May be null; an exception it
  // throws leaves score_videos.
  std::function<void(const ScoreReport&)> scored;
};

// Throws InputError / UsageError; nothing is written anywhere.
ScoreReport score_videos(const RunOptions& options);

// score_videos()'s checks, shared with front ends that open the inputs themselves
// (exactvq-mpi): InputError naming every difference of the two formats; and the
// user's --frame_skip_* (`option`), naming it when the input is shorter.
void check_compatible(const VideoSource& ref, const VideoSource& dist);
void skip_frames(VideoSource& src, int64_t count, const char* option);

}  // namespace exactvq
