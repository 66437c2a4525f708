// vmaf_read_pictures' pairs gathered into batches for the ApiContext: each pair
// is copied into a buffer of the queue's (the caller's pictures go back at
// once), and a batch is handed over when it holds ApiContext::feed_frames()
// pairs, when a score is asked for and at the flush. With `background`, a
// thread of the queue's has the batches scored while the caller gathers the
// next ones (as libvmaf scores on its worker threads when n_threads is set), so
// a device gets whole batches and the caller's decoding overlaps the scoring.
// Where the run scores in a pipeline (the CPU with several threads) it keeps
// two batches in flight (ApiContext::submit_pictures): the run's threads start
// the next batch's frames while the last of the one before end, as in
// score_videos, so no thread waits at a batch's end while the caller has pairs
// ready. Where that thread is not one of the run's (ApiContext's caller_scores
// false: libvmaf's CPU runs) it only feeds them, so it hands each batch over as
// soon as it comes.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

#include "capi/api_context.h"
#include "core/picture.h"

namespace exactvq::libvmaf_api {

class FrameQueue {
 public:
  // `run` outlives the queue's scoring: stop() (or the destructor) before it goes.
  FrameQueue(capi::ApiContext& run, bool background);
  ~FrameQueue();
  FrameQueue(const FrameQueue&) = delete;
  FrameQueue& operator=(const FrameQueue&) = delete;

  // Checks and copies the pair (frame `frame` of the run) into the batch being
  // gathered, handing the batch over when it is full. Throws for a bad pair
  // (then not taken) and for a batch that failed before (every call after it).
  void add(const exactvq_picture& ref, const exactvq_picture& dist, size_t frame);
  // As add(), for a pair the caller lends until its batch is scored: checked
  // now, copied just before the batch is scored (on the queue's thread, where
  // it has one, so the copy leaves the caller's thread), then given back through
  // `release` (also when the queue drops it). After the first pair.
  void lend(const exactvq_picture& ref, const exactvq_picture& dist, size_t frame,
            std::function<void()> release);
  // Scores every pair added and waits for it: the run then holds their scores.
  // Rethrows a batch's failure.
  void settle();
  // Waits for the batches in flight and scores no more (before the run goes:
  // after it, the queue touches the run no more); the buffers stay until the
  // queue is destroyed.
  void stop();

 private:
  struct Lent {
    exactvq_picture ref{}, dist{};
    size_t frame = 0;
    std::function<void()> release;  // empty: copied at add()
  };
  struct Batch {
    std::vector<Picture> refs, dists;
    std::vector<Lent> lent;
    size_t count = 0;
    bool submitted = false;      // to the run (else dropped, or failed before)
    std::exception_ptr failure;  // what failed before it was submitted
  };
  Batch& free_slot();            // the batch being gathered, once its slot is free
  void give_back(Batch& batch);  // releases the pairs lent to it
  void hand_over();              // the batch being gathered, to the thread or scored now
  void copy_lent(Batch& batch);  // copies the lent pairs, giving each back
  void score(Batch& batch);      // on the caller's thread (no background)
  // The background thread's halves: starts scoring the oldest batch not yet
  // submitted, and takes the scores of the oldest in flight (or drops them).
  void submit_next();
  void collect_next();
  void work();
  void rethrow_failure();  // with mutex_ held

  capi::ApiContext& run_;
  const bool background_;
  std::vector<Batch> slots_;  // a ring: batch k in slots_[k % size]
  std::mutex mutex_;
  std::condition_variable changed_;
  // Batches handed over, submitted to the run (the background thread's alone),
  // and scored or dropped: scored_ <= submitted_ <= handed_. The atomics are
  // also read in ApiContext::wait_until's condition, under the pool's lock.
  std::atomic<uint64_t> handed_ = 0;
  uint64_t submitted_ = 0, scored_ = 0;
  std::exception_ptr failure_;
  std::atomic<bool> stopping_ = false;
  std::thread thread_;
};

}  // namespace exactvq::libvmaf_api
