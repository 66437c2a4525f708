#include "backends/cuda/batch_runner.h"

#include <algorithm>
#include <cstdlib>

#include "backends/cuda/cuda_check.h"

namespace exactvq::cuda {

PipelineTuning PipelineTuning::from_environment() {
  PipelineTuning t;
  if (const char* v = std::getenv("EXACTVQ_CUDA_MAX_BATCH"); v && *v)
    t.max_batch = std::clamp(std::atoi(v), 3, 256);
  if (const char* v = std::getenv("EXACTVQ_CUDA_SHORT_TAIL"); v && *v)
    t.short_tail = std::atoi(v) != 0;
  if (const char* v = std::getenv("EXACTVQ_CUDA_BACKGROUND_PIN"); v && *v)
    t.background_pin = std::atoi(v) != 0;
  if (const char* v = std::getenv("EXACTVQ_CUDA_BATCH_COPIES"); v && *v)
    t.batched_copies = std::atoi(v) != 0;
  if (const char* v = std::getenv("EXACTVQ_CUDA_COPY_STREAM"); v && *v)
    t.copy_stream = std::atoi(v) != 0;
  if (const char* v = std::getenv("EXACTVQ_CUDA_MIN_CHUNK"); v && *v)
    t.min_chunk = std::clamp(std::atoi(v), 1, 64);
  return t;
}

int PipelineTuning::batch_frames(int64_t frame_bytes) const {
  constexpr int64_t kBatchBytes = int64_t{512} << 20;
  return int(
      std::clamp<int64_t>(kBatchBytes / (2 * frame_bytes), FrameUploader::kLanes, max_batch));
}

int PipelineTuning::chunk_frames(int64_t luma_pixels) const {
  return int(std::clamp<int64_t>(kLaunchPixels / std::max<int64_t>(1, luma_pixels), min_chunk, 64));
}

BatchRunner::BatchRunner(const VideoFormat& format, int ordinal, std::shared_ptr<Faults> faults,
                         PipelineTuning tuning)
    : format_(format), ordinal_(ordinal), faults_(std::move(faults)), tuning_(tuning) {}

BatchRunner::~BatchRunner() {
  // Nothing may still copy from host pictures or write device buffers.
  if (uploader_) {
    cudaSetDevice(ordinal_);
    try {
      uploader_->synchronize();
    } catch (const DeviceError&) {}
  }
}

void BatchRunner::add(Work* work) {
  std::lock_guard lock(mutex_);
  works_.push_back(work);
}

void BatchRunner::remove(Work* work) {
  std::lock_guard lock(mutex_);
  std::erase(works_, work);
  std::erase(owed_, work);
}

void BatchRunner::ensure_uploader(const std::vector<Work*>& works) {
  int planes = 0, chunk = 64, batch = 1 << 20;
  for (const Work* w : works) {
    planes = std::max(planes, w->planes());
    chunk = std::min(chunk, w->chunk_frames());
    batch = std::min(batch, w->batch_frames());
  }
  chunk = std::max(1, std::min(chunk, batch));
  // A larger uploader, or one with smaller chunks, serves these works too (so a
  // feature scoring alone after a shared pass keeps the shared shape).
  if (uploader_ && planes <= planes_ && chunk_ <= chunk && batch <= batch_) return;
  if (uploader_) uploader_->synchronize();
  planes_ = std::max(planes, planes_);
  chunk_ = chunk;
  batch_ = std::max(batch, batch_);
  uploader_.reset();
  uploader_ = std::make_unique<FrameUploader>(format_, planes_, chunk_, batch_,
                                              tuning_.background_pin, ordinal_);
  uploader_->set_short_tail(tuning_.short_tail);
  uploader_->set_batched_copies(tuning_.batched_copies);
  uploader_->set_copy_stream(tuning_.copy_stream);
  if (faults_ && faults_->any())
    uploader_->set_frame_hook([this](int64_t frame) { faults_->before_frame(ordinal_, frame); });
}

void BatchRunner::compute(const std::vector<Work*>& works, std::span<const FramePair> frames,
                          bool pin) {
  ensure_uploader(works);
  int batch = 1 << 20;
  for (const Work* w : works) batch = std::min(batch, w->batch_frames());
  for (Work* w : works) w->begin(frames.size());
  for (size_t base = 0; base < frames.size(); base += size_t(batch)) {
    const size_t n = std::min(frames.size() - base, size_t(batch));
    uploader_->upload(frames.subspan(base, n), pin, [&](const FrameUploader::Chunk& chunk) {
      for (Work* w : works) {
        if (faults_)
          faults_->before_launch(ordinal_, chunk.first_index, chunk.count, "kernel launch");
        w->enqueue(chunk, base);
      }
    });
    for (Work* w : works) w->finish(base, n, *uploader_);
    uploader_->synchronize();
  }
}

void BatchRunner::run(Work* caller, std::span<const FramePair> frames, bool pin, bool shared) {
  std::lock_guard lock(mutex_);
  check(cudaSetDevice(ordinal_), "cudaSetDevice");
  FaultScope scope(faults_.get());
  if (faults_) faults_->check_alive(ordinal_);
  if (shared && std::find(owed_.begin(), owed_.end(), caller) != owed_.end() &&
      std::equal(frames.begin(), frames.end(), pending_pairs_.begin(), pending_pairs_.end(),
                 [](const FramePair& a, const FramePair& b) {
                   return a.index == b.index && a.ref == b.ref && a.dist == b.dist;
                 })) {
    std::erase(owed_, caller);
    ++reuses_;
    return;
  }
  std::vector<Work*> works{caller};
  if (shared)
    for (Work* w : works_)
      if (w != caller && w->joins_others()) works.push_back(w);
  // Whatever was waiting is replaced (or, unshared, may be overwritten).
  owed_.clear();
  pending_pairs_.clear();
  try {
    compute(works, frames, pin);
  } catch (...) {
    // No copy or kernel may outlive the failed call (the pictures may go next).
    if (uploader_) {
      try {
        uploader_->synchronize();
      } catch (const DeviceError&) {}
    }
    throw;
  }
  ++uploads_;
  if (shared) {
    pending_pairs_.assign(frames.begin(), frames.end());
    for (Work* w : works)
      if (w != caller) owed_.push_back(w);
  }
}

}  // namespace exactvq::cuda
