// One upload per frame pair for every engine of a run on one CUDA device. Each
// engine registers its work with the device's runner; the first engine asked to
// score a batch uploads it once, chunk by chunk, and enqueues every registered
// engine's kernels on each chunk; the other engines then find the results already
// computed for the same pairs (same numbers and same pictures) instead of
// uploading again.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <span>
#include <vector>

#include "backends/cuda/fault_injection.h"
#include "backends/cuda/frame_uploader.h"
#include "metrics/feature.h"

namespace exactvq::cuda {

// Pipeline shape knobs, for benchmarks: the defaults unless the environment
// sets EXACTVQ_CUDA_MAX_BATCH (frames in flight per batch, 3..256) or
// EXACTVQ_CUDA_SHORT_TAIL=0 (full chunks up to the end of a batch) or
// EXACTVQ_CUDA_BACKGROUND_PIN=0 (page-lock pictures before their first copy) or
// EXACTVQ_CUDA_BATCH_COPIES=0 (one cudaMemcpyAsync per plane, not one
// cudaMemcpyBatchAsync per chunk) or EXACTVQ_CUDA_COPY_STREAM=0 (each chunk
// copied on its lane) or EXACTVQ_CUDA_MIN_CHUNK (frames a chunk holds at
// least, 1..64).
// Read once when a device opens.
struct PipelineTuning {
  // 64, not 32: each batch ends with the GPU idle while the host waits for its
  // results and hands over the next (~90 us at 1080p, see copy_trace.h).
  int max_batch = 64;
  bool short_tail = true;      // the last chunk's frames one per chunk: less idle GPU at batch ends
  bool background_pin = true;  // pictures page-locked by a thread, first copies pageable
  bool batched_copies = true;  // see FrameUploader::set_batched_copies
  bool copy_stream = true;     // see FrameUploader::set_copy_stream
  // A chunk's frames: enough pixels to fill the GPU in one launch, and at
  // least min_chunk frames, so that 4K chunks are copied two frames (four
  // planes) a batch call, nearer the pinned ceiling than one frame a call.
  static constexpr int64_t kLaunchPixels = int64_t{8} << 20;
  int min_chunk = 2;
  int chunk_frames(int64_t luma_pixels) const;  // frames per chunk for frames of `luma_pixels`
  // Frames a batch holds for frames of `frame_bytes`: what 512 MiB of host
  // memory takes (the reader holds two batches; large batches keep the copy
  // engine busy across the gap between batches), within [lanes, max_batch].
  int batch_frames(int64_t frame_bytes) const;
  static PipelineTuning from_environment();
};

class BatchRunner {
 public:
  // One feature's part of a shared batch.
  class Work {
   public:
    virtual ~Work() = default;
    virtual int planes() const = 0;        // reads planes 0 .. planes()-1
    virtual int chunk_frames() const = 0;  // at most this many frames per chunk
    virtual int batch_frames() const = 0;  // at most this many frames in flight
    // A run over `frames` pairs starts: size the results.
    virtual void begin(size_t frames) = 0;
    // Enqueue work on a chunk whose planes' copies are enqueued on chunk.stream;
    // the chunk's frames are number base + chunk.start ... of the run.
    virtual void enqueue(const FrameUploader::Chunk& chunk, size_t base) = 0;
    // After every chunk of frames [base, base + count) is enqueued: wait for
    // this work's results and keep them (the caller of run() reads them after).
    virtual void finish(size_t base, size_t count, FrameUploader& uploader) = 0;
    // Whether this work may run in a pass another work asked for. A work with
    // state from frame to frame (motion) must see each frame once, in order,
    // so it computes only in its own passes (which the others join).
    virtual bool joins_others() const { return true; }
  };

  // `faults` (may be null) is the opening device's; a runner serves one format.
  BatchRunner(const VideoFormat& format, int ordinal, std::shared_ptr<Faults> faults,
              PipelineTuning tuning = {});
  ~BatchRunner();
  BatchRunner(const BatchRunner&) = delete;
  BatchRunner& operator=(const BatchRunner&) = delete;

  const VideoFormat& format() const { return format_; }
  int ordinal() const { return ordinal_; }
  Faults* faults() const { return faults_.get(); }
  const PipelineTuning& tuning() const { return tuning_; }

  void add(Work* work);
  void remove(Work* work);

  // Scores `frames` for `caller`, whose finish() keeps the results. With
  // `shared`, every registered work is computed in the same pass and the others
  // find their results waiting when they ask for the same pairs; without it (a
  // loose, pageable pair) only the caller runs. `pin` page-locks the pictures
  // (see FrameUploader::upload).
  void run(Work* caller, std::span<const FramePair> frames, bool pin, bool shared);

  // Counters for tests and benchmarks: passes that uploaded, and requests
  // answered from results already computed.
  int64_t uploads() const { return uploads_; }
  int64_t reuses() const { return reuses_; }

 private:
  void ensure_uploader(const std::vector<Work*>& works);
  void compute(const std::vector<Work*>& works, std::span<const FramePair> frames, bool pin);

  VideoFormat format_;
  int ordinal_;
  std::shared_ptr<Faults> faults_;
  PipelineTuning tuning_;
  std::mutex mutex_;
  std::vector<Work*> works_;
  std::unique_ptr<FrameUploader> uploader_;
  int planes_ = 0, chunk_ = 0, batch_ = 0;  // the uploader's shape
  // The last shared pass: its pairs and the works whose results are still unclaimed.
  std::vector<FramePair> pending_pairs_;
  std::vector<Work*> owed_;
  int64_t uploads_ = 0, reuses_ = 0;
};

}  // namespace exactvq::cuda
