#include "metrics/motion/motion_feature.h"

#include <fmt/format.h>

#include "backends/device.h"
#include "core/error.h"
#include "metrics/motion/motion_scores.h"
#include "metrics/motion/engine.h"

namespace exactvq {

namespace {

class MotionFeature final : public Feature {
 public:
  MotionFeature(const motion::MotionOptions& o, const VideoFormat& format,
                std::unique_ptr<motion::Engine> engine)
      : options_(o), format_(format), engine_(std::move(engine)) {
    const std::string suffix = motion::key_suffix(o);
    outputs_.push_back("VMAF_integer_feature_motion_sad_score" + suffix);
    if (o.debug) outputs_.push_back("integer_motion" + suffix);
    run_outputs_ = {"integer_motion2" + suffix, "integer_motion3" + suffix};
  }

  const std::vector<std::string>& outputs() const override { return outputs_; }
  const std::vector<std::string>& run_outputs() const override { return run_outputs_; }
  int batch_frames() const override { return engine_->batch_frames(); }
  bool scores_device_pictures() const override { return engine_->takes_device_pictures(); }
  int planes_read() const override { return 1; }
  bool temporal() const override { return true; }
  int frames_before() const override { return motion::frame_distance(options_); }
  void start_at(std::span<const FramePair> before, int64_t first_index) override {
    if (!options_.force_zero) engine_->hold(before);
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
    sad_.assign(frames.size(), 0);
    if (!options_.force_zero) engine_->score(frames, sad_);
    const size_t n = outputs_.size();
    for (size_t i = 0; i < frames.size(); ++i) {
      const bool scored = !options_.force_zero && first + int64_t(i) >= distance;
      const double value =
          scored ? motion::sad_score(sad_[i], format_.width, format_.height, options_) : 0.0;
      for (size_t k = 0; k < n; ++k) out[i * n + k] = value;
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
  std::unique_ptr<motion::Engine> engine_;
  std::vector<std::string> outputs_, run_outputs_;
  int64_t next_index_ = 0;
  std::vector<uint64_t> sad_;
};

}  // namespace

std::unique_ptr<Feature> make_motion_feature(const motion::MotionOptions& options,
                                             const FeatureContext& ctx) {
  std::unique_ptr<motion::Engine> engine =
      motion::make_engine(device_of(ctx), motion::EngineSetup{ctx.format, options, ctx.pool});
  return std::make_unique<MotionFeature>(options, ctx.format, std::move(engine));
}

}  // namespace exactvq
