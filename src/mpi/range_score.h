// The MPI front end's work, without MPI: how a run's frames are shared out among
// ranks, and what one rank does with its share. Kept apart from MPI so that the
// tests can check, in one process, that the shares put back together give the
// bits of score_videos().
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "app/feature_set.h"
#include "app/score_run.h"
#include "core/thread_pool.h"
#include "metrics/feature.h"
#include "io/video_source.h"

namespace exactvq::mpi {

// Frames are counted as score_videos() counts them: "run frame" 0 is the first frame
// after --frame_skip_ref / --frame_skip_dist; a run frame is scored when its number
// is a multiple of --subsample.

// The frames one rank reads: run frames [first, end), or from `first` to the end of
// the inputs when `end` is unset (only the last rank with frames, and only when
// --frame_cnt is not given, so that it meets the end of the inputs exactly as one
// process does).
struct FrameRange {
  int64_t first = 0;           // a multiple of subsample
  std::optional<int64_t> end;  // one past the last run frame read
  int64_t scored = 0;          // how many scored frames the range holds, by the plan
  bool last = false;           // the last range with frames
  bool empty() const { return scored == 0; }
};

// How a run is shared out. The scored frames (`scored` of them) are cut into
// `ranks` contiguous pieces that differ by at most one frame, in rank order.
struct SharePlan {
  int64_t run_frames = 0;          // run frames that exist (or --frame_cnt): the limit
  int64_t scored = 0;              // ceil(run_frames / subsample)
  std::vector<FrameRange> ranges;  // one per rank; empty ones have no frames
};

// `ref_frames` / `dist_frames`: the inputs' lengths (VideoSource::frame_count()).
SharePlan plan_shares(int64_t ref_frames, int64_t dist_frames, const RunOptions& o, int ranks);

// The inputs and features of one rank, opened and checked in score_videos()'s order
// and with its messages: the inputs, their formats, the device, the features.
struct RankSetup {
  std::unique_ptr<VideoSource> ref, dist;
  VideoFormat format;
  std::unique_ptr<ThreadPool> pool;
  FeatureSet features;  // its columns(): every feature's outputs, in report order
};
// Throws InputError / UsageError / DeviceError as score_videos() would.
RankSetup open_rank(const RunOptions& o);

// What one rank found. Per-frame values are kept by column (one per output name).
struct RankResult {
  int exit_code = 0;    // 0, or the command line's status for `error` (cli/exit_status.h)
  std::string error;    // the message, without the program name
  std::string warning;  // an input ended first (the last rank only)
  int64_t frames = 0;   // scored frames, numbered first, first + subsample, ...
  std::vector<std::vector<double>> columns;
  // Per feature: Feature::aggregate_state(), and whether it has aggregates that no
  // state stands for (then they cannot be combined across ranks).
  std::vector<std::vector<AggregateWord>> states;
  std::vector<uint8_t> unmergeable;
};

// Skips to the range and scores it, reading frame by frame, the reference before the
// distorted input, as score_videos() does; its first error or end of input is
// reported as score_videos() reports it. Never throws: failures go to exit_code.
RankResult score_range(RankSetup& setup, const RunOptions& o, const FrameRange& range);

// The exit status and message of an exception caught around a rank's work.
void record_exception(RankResult& r, std::exception_ptr e);

// The first failed rank's result (the one whose error comes first in frame order,
// which is the error one process meets first), or null.
const RankResult* first_failure(const std::vector<RankResult>& results);

// Puts successful rank results (in rank order) together into the report one
// process would write; `setup` is rank 0's (its features' aggregates_of). Throws
// InputError as score_videos() does when no frame was scored, and when a feature's
// aggregates cannot be combined. `warning` receives the end-of-input warning.
ScoreReport combine(const RankSetup& setup, const RunOptions& o, const SharePlan& plan,
                    const std::vector<RankResult>& results, std::string& warning);

}  // namespace exactvq::mpi
