// What every metric's CUDA engine shares: its part of the device's runner
// (batch_runner.h), which uploads the run's frames once for all its engines,
// in chunks that fill the GPU and batches of the tuning's host memory; a
// batch's results on the device, a row of Words a frame, read back into
// page-locked memory once a batch; and the run's Values, which score() hands
// out. A metric's engine fills in its kernels (BatchRunner::Work::enqueue) and
// how its Words become its Values (to_values).
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "backends/cuda/batch_runner.h"
#include "backends/cuda/cuda_check.h"
#include "backends/cuda/cuda_device.h"
#include "backends/cuda/cuda_resources.h"

namespace exactvq::cuda {

template <typename Engine, typename Word>
class RunnerEngine : public Engine, protected BatchRunner::Work {
 public:
  using Value = typename Engine::Value;

  ~RunnerEngine() override {
    if (joined_) runner_->remove(this);
  }

  // An engine that has not joined the runner scores a frame at a time, itself.
  int batch_frames() const override { return joined_ ? batch_ : 1; }
  bool takes_device_pictures() const override { return true; }

  // Numbered pairs are page-locked and shared with the run's other engines on
  // this device; a loose pair is copied from pageable memory, for this engine alone.
  void score(std::span<const FramePair> frames, std::span<Value> out) override {
    if (frames.empty()) return;
    runner_->run(this, frames, !frames[0].loose(), !frames[0].loose());
    std::copy_n(values_.begin(), std::min(out.size(), values_.size()), out.begin());
  }

 protected:
  // On `device`'s runner of frames of `format`, reading their planes 0 ..
  // planes-1; score() hands out `values_per_frame` Values a frame. `results`
  // names the read-back in errors.
  RunnerEngine(CudaDevice& device, const VideoFormat& format, int planes, size_t values_per_frame,
               const std::string& results)
      : runner_(device.runner(format)),
        planes_(planes),
        values_per_frame_(values_per_frame),
        read_back_("read-back of " + results) {
    batch_ = runner_->tuning().batch_frames(int64_t(format.frame_bytes()));
    chunk_ = runner_->tuning().chunk_frames(int64_t{format.width} * format.height);
  }

  // Registers with the runner, whose passes run the engine from then on: last
  // in the engine's constructor. A batch's results are `words_per_frame` Words
  // a frame.
  void join(size_t words_per_frame) {
    words_per_frame_ = words_per_frame;
    runner_->add(this);
    joined_ = true;
  }

  BatchRunner& runner() const { return *runner_; }

  // Caps the frames a batch holds (at least FrameUploader::kLanes): for
  // engines whose results are large beside the frames (a value a pixel).
  // Before join().
  void limit_batch(int frames) {
    batch_ = std::max(FrameUploader::kLanes, std::min(batch_, frames));
  }

  // The batch's results on the device, batch_frames() * words_per_frame Words.
  Word* device_words() const { return device_words_.get<Word>(); }
  // A chunk's frames' rows of the results, zeroed on its stream first (for
  // kernels that add into them).
  Word* cleared_rows(const FrameUploader::Chunk& chunk) const {
    Word* rows = device_words() + size_t(chunk.start) * words_per_frame_;
    check(cudaMemsetAsync(rows, 0, size_t(chunk.count) * words_per_frame_ * sizeof(Word),
                          chunk.stream),
          "cudaMemsetAsync");
    return rows;
  }

  // The result buffers, then the engine's own (allocate), once each: at the
  // first run, not in the constructor (features are made before the run knows
  // it has frames).
  void ensure_buffers() {
    if (!device_words_.get()) {
      const size_t bytes = size_t(batch_) * words_per_frame_ * sizeof(Word);
      host_words_ = PinnedBuffer(bytes);
      device_words_ = DeviceBuffer(bytes);  // last: the flag
    }
    if (allocated_) return;
    allocate();
    allocated_ = true;
  }

  // What the engine fills in besides its kernels:
  // its own device buffers (see ensure_buffers);
  virtual void allocate() {}
  // the Values of a batch's first `count` frames from their Words as read back;
  virtual void to_values(const Word* words, size_t count, Value* out) = 0;
  // the Words a batch of `count` frames reads back (a layout other than a row
  // a frame reads them all).
  virtual size_t words_read_back(size_t count) const { return count * words_per_frame_; }

  // BatchRunner::Work
  int planes() const override { return planes_; }
  int chunk_frames() const override { return chunk_; }
  void begin(size_t frames) override {
    ensure_buffers();
    values_.assign(frames * values_per_frame_, Value{});
  }
  // One read-back for the batch, after every lane's work.
  void finish(size_t base, size_t count, FrameUploader& uploader) override {
    check(cudaMemcpyAsync(host_words_.get(), device_words_.get(),
                          words_read_back(count) * sizeof(Word), cudaMemcpyDeviceToHost,
                          uploader.join_lanes()),
          read_back_.c_str());
    uploader.synchronize();
    to_values(host_words_.get<Word>(), count, values_.data() + base * values_per_frame_);
  }

 private:
  std::shared_ptr<BatchRunner> runner_;
  int planes_;
  size_t values_per_frame_;
  std::string read_back_;
  int batch_ = 1;
  int chunk_ = 1;
  size_t words_per_frame_ = 0;
  bool joined_ = false;
  bool allocated_ = false;
  std::vector<Value> values_;  // the run's, values_per_frame_ a frame
  DeviceBuffer device_words_;  // a batch's, words_per_frame_ a frame
  PinnedBuffer host_words_;
};

}  // namespace exactvq::cuda
