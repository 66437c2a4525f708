#include "libvmaf_api/frame_queue.h"

#include <span>

namespace exactvq::libvmaf_api {

namespace {

// Batches in the ring with a thread: one gathered, up to two in flight, one
// spare, so a caller that reads a little unevenly does not wait.
constexpr size_t kBackgroundSlots = 4;
// Batches in flight where the run's threads score in a pipeline: the next
// batch's frames start while this one's last frames end.
constexpr uint64_t kPipelinedBatches = 2;

}  // namespace

FrameQueue::FrameQueue(capi::ApiContext& run, bool background)
    : run_(run), background_(background), slots_(background ? kBackgroundSlots : 1) {
  if (background_) thread_ = std::thread([this] { work(); });
}

FrameQueue::~FrameQueue() {
  stop();
  for (Batch& batch : slots_) give_back(batch);
}

void FrameQueue::give_back(Batch& batch) {
  for (Lent& l : batch.lent)
    if (l.release) {
      l.release();
      l.release = nullptr;
    }
}

void FrameQueue::stop() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  // Once joined (the destructor after stop()), the run may be gone.
  if (!thread_.joinable()) return;
  changed_.notify_all();
  run_.wake();  // the thread may be waiting on the run's threads
  thread_.join();
}

void FrameQueue::rethrow_failure() {
  if (failure_) std::rethrow_exception(failure_);
}

FrameQueue::Batch& FrameQueue::free_slot() {
  Batch* batch = nullptr;
  {
    std::unique_lock lock(mutex_);
    rethrow_failure();
    // The slot of batch handed_ is free once batch handed_ - size was scored.
    changed_.wait(lock, [&] { return failure_ || scored_ + slots_.size() > handed_; });
    rethrow_failure();
    batch = &slots_[handed_ % slots_.size()];
  }
  if (batch->refs.size() <= batch->count) {
    batch->refs.emplace_back();
    batch->dists.emplace_back();
    batch->lent.emplace_back();
  }
  return *batch;
}

void FrameQueue::add(const exactvq_picture& ref, const exactvq_picture& dist, size_t frame) {
  Batch& batch = free_slot();
  run_.import_frame(ref, dist, frame, batch.refs[batch.count], batch.dists[batch.count]);
  batch.lent[batch.count].release = nullptr;
  ++batch.count;
  if (batch.count >= run_.feed_frames()) hand_over();
}

void FrameQueue::lend(const exactvq_picture& ref, const exactvq_picture& dist, size_t frame,
                      std::function<void()> release) {
  Batch& batch = free_slot();
  run_.check_frame(ref, dist, frame);
  batch.lent[batch.count] = {ref, dist, frame, std::move(release)};
  ++batch.count;
  if (batch.count < run_.feed_frames()) return;
  // The pair is taken now: a failure of its batch (given back) is the next call's.
  try {
    hand_over();
  } catch (...) {}
}

void FrameQueue::copy_lent(Batch& batch) {
  try {
    // The lent pairs' copies, frame by frame on the run's threads, each pair
    // given back as soon as it is copied (its pictures' release, zeroing their
    // blocks for reuse, is spread over the threads too).
    run_.parallel_for(int(batch.count), [&](int i) {
      Lent& l = batch.lent[size_t(i)];
      if (!l.release) return;
      run_.copy_frame(l.ref, l.dist, l.frame, batch.refs[size_t(i)], batch.dists[size_t(i)]);
      std::function<void()> release = std::move(l.release);
      l.release = nullptr;
      release();
    });
  } catch (...) {
    give_back(batch);
    throw;
  }
}

void FrameQueue::score(Batch& batch) {
  copy_lent(batch);
  const size_t n = batch.count;
  run_.score_pictures(std::span<const Picture>(batch.refs).first(n),
                      std::span<const Picture>(batch.dists).first(n));
}

void FrameQueue::hand_over() {
  {
    // Until its batch before is scored, the slot holds that batch, and no pair
    // was gathered (add() and lend() wait for the slot).
    std::lock_guard lock(mutex_);
    if (scored_ + slots_.size() <= handed_) return;
  }
  Batch& batch = slots_[handed_ % slots_.size()];
  if (batch.count == 0) return;
  if (!background_) {
    try {
      score(batch);
    } catch (...) {
      std::lock_guard lock(mutex_);
      failure_ = std::current_exception();
    }
    batch.count = 0;
    std::lock_guard lock(mutex_);
    ++handed_;
    ++scored_;
    rethrow_failure();
    return;
  }
  {
    std::lock_guard lock(mutex_);
    ++handed_;
  }
  changed_.notify_all();
  run_.wake();  // the thread may be waiting on the run's threads
}

void FrameQueue::submit_next() {
  Batch& batch = slots_[submitted_ % slots_.size()];
  bool dropped = false;
  {
    std::lock_guard lock(mutex_);
    dropped = failure_ != nullptr;  // after a failure, batches are dropped
  }
  if (!dropped) {
    try {
      copy_lent(batch);
      const size_t n = batch.count;
      run_.submit_pictures(std::span<const Picture>(batch.refs).first(n),
                           std::span<const Picture>(batch.dists).first(n));
      batch.submitted = true;
    } catch (...) {
      batch.failure = std::current_exception();  // the run's when its turn comes
    }
  }
  give_back(batch);  // a dropped batch's
  std::lock_guard lock(mutex_);
  ++submitted_;
}

void FrameQueue::collect_next() {
  Batch& batch = slots_[scored_ % slots_.size()];
  std::exception_ptr failure = batch.failure;
  if (batch.submitted) {
    bool keep = false;
    {
      std::lock_guard lock(mutex_);
      keep = !failure_ && !stopping_;
    }
    try {
      run_.collect_pictures(keep);
    } catch (...) {
      failure = std::current_exception();
    }
  }
  {
    std::lock_guard lock(mutex_);
    batch.count = 0;
    batch.submitted = false;
    batch.failure = nullptr;
    if (failure && !failure_) failure_ = failure;
    ++scored_;
  }
  changed_.notify_all();
}

void FrameQueue::work() {
  for (;;) {
    {
      std::unique_lock lock(mutex_);
      changed_.wait(lock,
                    [&] { return stopping_ || submitted_ > scored_ || handed_ > submitted_; });
      if (stopping_) break;
    }
    // The oldest batch out of the run's hands (dropped, or failed before it got
    // there) is done with at once.
    if (submitted_ > scored_ && !slots_[scored_ % slots_.size()].submitted) {
      collect_next();
      continue;
    }
    const uint64_t depth = run_.pipelined() ? kPipelinedBatches : 1;
    const bool room = submitted_ - scored_ < depth;
    if (room && handed_ > submitted_) {
      submit_next();
      continue;
    }
    // The oldest batch is in flight: until it is scored, or until a batch
    // handed over can join it (running the run's ready tasks meanwhile where
    // this thread is one of the run's).
    run_.wait_until(
        [&] { return stopping_ || run_.oldest_scored() || (room && handed_ > submitted_); });
    if (stopping_) break;
    if (run_.oldest_scored()) collect_next();
  }
  // The batches in flight end before the run goes (their scores dropped).
  while (scored_ < submitted_) collect_next();
}

void FrameQueue::settle() {
  {
    std::lock_guard lock(mutex_);
    rethrow_failure();
  }
  hand_over();
  std::unique_lock lock(mutex_);
  changed_.wait(lock, [&] { return scored_ == handed_; });
  rethrow_failure();
}

}  // namespace exactvq::libvmaf_api
