#include "libvmaf_api/frame_queue.h"

#include <span>

namespace exactvq::libvmaf_api {

namespace {

// Batches in the ring with a thread: one gathered, one scored, one spare, so a
// caller that reads a little unevenly does not wait.
constexpr size_t kBackgroundSlots = 3;

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
  changed_.notify_all();
  if (thread_.joinable()) thread_.join();
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

void FrameQueue::score(Batch& batch) {
  const size_t n = batch.count;
  try {
    // The lent pairs' copies, frame by frame on the run's threads, each pair
    // given back as soon as it is copied (its pictures' release, zeroing their
    // blocks for reuse, is spread over the threads too).
    run_.parallel_for(int(n), [&](int i) {
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
  give_back(batch);
  run_.score_pictures(std::span<const Picture>(batch.refs).first(n),
                      std::span<const Picture>(batch.dists).first(n));
}

void FrameQueue::hand_over() {
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
}

void FrameQueue::work() {
  for (;;) {
    Batch* batch = nullptr;
    {
      std::unique_lock lock(mutex_);
      changed_.wait(lock, [&] { return stopping_ || scored_ < handed_; });
      if (stopping_) return;
      batch = &slots_[scored_ % slots_.size()];
      if (failure_) batch = nullptr;  // after a failure, batches are dropped
    }
    std::exception_ptr failure;
    if (batch) {
      try {
        score(*batch);
      } catch (...) {
        failure = std::current_exception();
      }
    }
    {
      std::lock_guard lock(mutex_);
      give_back(slots_[scored_ % slots_.size()]);  // a dropped batch's
      slots_[scored_ % slots_.size()].count = 0;
      if (failure && !failure_) failure_ = failure;
      ++scored_;
    }
    changed_.notify_all();
  }
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
