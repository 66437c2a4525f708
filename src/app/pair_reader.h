// Reads the frame pairs a run scores, in batches: skipping, subsampling, the
// frame count, and what happens when one input ends first.
#pragma once

#include <cstdint>
#include <exception>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/picture.h"
#include "io/video_source.h"

namespace exactvq {

class ThreadPool;

// Up to `capacity` frame pairs. Pictures are reused from batch to batch, so their
// storage stays put (a GPU backend may pin it once).
struct FrameBatch {
  std::vector<Picture> ref, dist;
  std::vector<int64_t> index;  // frame numbers, increasing
  size_t count = 0;
  bool last = false;         // no batch follows this one
  std::string warning;       // set on the last batch when one input ended first
  std::exception_ptr error;  // a read failed; `count` pairs before it are valid

  explicit FrameBatch(size_t capacity) : ref(capacity), dist(capacity), index(capacity) {}
};

struct PairReadOptions {
  std::optional<int64_t> frame_count;
  int subsample = 1;
  bool equal_lengths = false;  // one input ending first is an error, not a warning
};

class PairReader {
 public:
  // With `parallel`, the two inputs are read by two threads at once; with
  // `threads_per_input` > 1, each input whose frames lie at fixed offsets (a
  // regular file) is read by that many threads, several frames at once.
  PairReader(VideoSource& ref, VideoSource& dist, const PairReadOptions& o, bool parallel,
             int threads_per_input = 1);
  ~PairReader();
  PairReader(const PairReader&) = delete;
  PairReader& operator=(const PairReader&) = delete;

  // Fills `batch` with the next pairs, at most `most`; errors are stored in the
  // batch, not thrown. The outcome (pairs, warning, error) is the same as reading
  // frame by frame, the reference before the distorted input.
  void fill(FrameBatch& batch, size_t most = SIZE_MAX);

 private:
  struct SideResult;
  SideResult read_side(VideoSource& src, std::vector<Picture>& pictures, size_t capacity) const;

  VideoSource& ref_;
  VideoSource& dist_;
  PairReadOptions options_;
  bool parallel_ = false;
  // The threads beside the caller's, kept for the reader's lifetime (none where it
  // reads alone): one for the second input, those reading frames ahead.
  std::unique_ptr<ThreadPool> pool_;
  int threads_per_input_ = 1;
  int64_t next_index_ = 0;  // the frame number the next fill starts at
  bool done_ = false;
};

}  // namespace exactvq
