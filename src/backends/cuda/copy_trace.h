// Where the copy engine's time goes in a run, for benchmarks: with
// EXACTVQ_CUDA_TRACE=1 in the environment, the FrameUploader records timing
// events around each chunk's copies (on the copy stream) and each chunk's work
// (on its lane), and host clocks around its calls; when it is destroyed it
// prints to standard error, as medians over its uploads (so that warm-up and
// first-use page-locking do not weigh), the copies' rate while busy, the copy
// stream's idle time within an upload, and the gap before the next upload split
// into the GPU's work after the last copy and the host's turn-around.
// Off (the default), nothing is recorded.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <vector>

#include <cuda_runtime_api.h>

#include "backends/cuda/cuda_resources.h"

namespace exactvq::cuda {

class CopyTrace {
 public:
  static bool enabled();  // EXACTVQ_CUDA_TRACE set and not 0
  ~CopyTrace();           // prints the summary

  void upload_begin();  // host: an upload call starts
  void pinned();        // host: its pictures are registered
  // Around one chunk's copies on `copies` and its work on `lane`.
  void copies_begin(cudaStream_t copies);
  void copies_end(cudaStream_t copies, size_t bytes);
  void work_begin(cudaStream_t lane);
  void work_end(cudaStream_t lane);
  void upload_end();  // host: the upload call's last chunk is enqueued
  void sync_begin();  // host: the caller starts waiting for the GPU
  // After the streams are synchronized: folds the upload's events into records.
  void fold();

 private:
  using Clock = std::chrono::steady_clock;
  struct Chunk {
    std::unique_ptr<Event> copy_begin, copy_end, work_begin, work_end;
    size_t bytes = 0;
  };
  struct Upload {
    double bytes = 0, copy_us = 0, within_idle_us = 0, drain_us = 0, turnaround_us = 0;
    double host_pin_us = 0, host_enqueue_us = 0, host_wait_us = 0, host_between_us = 0;
  };
  std::vector<Chunk> chunks_;
  std::vector<Upload> uploads_;
  Upload current_;
  Clock::time_point upload_begin_, pinned_, upload_end_, sync_begin_, sync_end_;
  bool have_sync_end_ = false;
  std::unique_ptr<Event> last_work_end_;  // of the previous upload: the turn-around to this one
  bool folded_this_upload_ = true;
};

}  // namespace exactvq::cuda
