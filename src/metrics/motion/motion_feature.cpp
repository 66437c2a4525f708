#include "metrics/motion/motion_feature.h"

#include <algorithm>
#include <cstring>
#include <deque>

#include <fmt/format.h>

#include "backends/device.h"
#include "core/error.h"
#include "metrics/motion/motion_scores.h"
#include "metrics/motion/sad.h"

namespace exactvq {

namespace {

// A copy of a frame's luma plane, kept for the frames after it.
struct HeldLuma {
  std::vector<uint8_t> samples;
  PlaneView view;

  explicit HeldLuma(const PlaneView& p) : samples(size_t(p.stride) * size_t(p.height)) {
    std::memcpy(samples.data(), p.data, samples.size());
    view = p;
    view.data = samples.data();
  }
};

class MotionFeature final : public Feature {
 public:
  MotionFeature(const motion::MotionOptions& o, const FeatureContext& ctx)
      : options_(o), format_(ctx.format), pool_(ctx.pool) {
    const std::string suffix = motion::key_suffix(o);
    outputs_.push_back("VMAF_integer_feature_motion_sad_score" + suffix);
    if (o.debug) outputs_.push_back("integer_motion" + suffix);
    run_outputs_ = {"integer_motion2" + suffix, "integer_motion3" + suffix};
  }

  const std::vector<std::string>& outputs() const override { return outputs_; }
  const std::vector<std::string>& run_outputs() const override { return run_outputs_; }
  bool temporal() const override { return true; }
  int frames_before() const override { return motion::frame_distance(options_); }
  void start_at(std::span<const FramePair> before, int64_t first_index) override {
    held_.clear();
    for (const FramePair& f : before) held_.emplace_back(f.ref->plane(0));
    next_index_ = first_index;
  }

  void extract_batch(std::span<const FramePair> frames, std::span<double> out) override {
    for (const FramePair& f : frames) {
      if (f.loose() || f.index != next_index_)
        throw UsageError(fmt::format(
            "feature motion needs every frame in order: got frame {} where frame {} was due",
            f.index, next_index_));
      ++next_index_;
    }
    const int distance = motion::frame_distance(options_);
    const int64_t first = next_index_ - int64_t(frames.size());  // run position of frames[0]
    std::vector<uint64_t> sad(frames.size(), 0);
    // Frames in parallel; each reads its predecessor from the batch or from the
    // frames held from the batch before.
    const auto score = [&](int i) {
      if (options_.force_zero || first + i < distance) return;
      const PlaneView cur = frames[size_t(i)].ref->plane(0);
      const int back = i - distance;
      const PlaneView prev = back >= 0 ? frames[size_t(back)].ref->plane(0)
                                       : held_[held_.size() + size_t(back)].view;
      sad[size_t(i)] = motion::sad(prev, cur, format_.bitdepth, 0, cur.height);
    };
    if (pool_)
      pool_->parallel_for(int(frames.size()), score);
    else
      for (int i = 0; i < int(frames.size()); ++i) score(i);
    const size_t n = outputs_.size();
    for (size_t i = 0; i < frames.size(); ++i) {
      const bool scored = !options_.force_zero && first + int64_t(i) >= distance;
      const double value = scored ? motion::sad_score(sad[i], format_.width, format_.height, options_) : 0.0;
      for (size_t k = 0; k < n; ++k) out[i * n + k] = value;
    }
    // Keep the last `distance` reference pictures for the next batch.
    for (const FramePair& f : frames) {
      held_.emplace_back(f.ref->plane(0));
      if (held_.size() > size_t(distance)) held_.pop_front();
    }
  }

  void finish(std::span<const std::vector<double>* const> own,
              std::span<std::vector<double>> out) const override {
    const std::vector<double>& sad = *own[0];
    out[0].assign(sad.size(), 0.0);
    out[1].assign(sad.size(), 0.0);
    motion::run_values(sad, options_, out[0], out[1]);
  }

 private:
  motion::MotionOptions options_;
  VideoFormat format_;
  ThreadPool* pool_;
  std::vector<std::string> outputs_, run_outputs_;
  int64_t next_index_ = 0;
  std::deque<HeldLuma> held_;
};

}  // namespace

std::unique_ptr<Feature> make_motion_feature(const motion::MotionOptions& options,
                                             const FeatureContext& ctx) {
  if (ctx.device)
    throw DeviceError(fmt::format("feature motion runs on the CPU only: not on {}",
                                  ctx.device->description()));
  return std::make_unique<MotionFeature>(options, ctx);
}

}  // namespace exactvq
