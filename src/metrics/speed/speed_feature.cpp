#include "metrics/speed/speed_feature.h"

#include <fmt/format.h>

#include "backends/device.h"
#include "core/error.h"
#include "metrics/speed/engine.h"

namespace exactvq {

namespace {

// libvmaf's MIN(score, max_val): the binary32 score against the binary64
// bound, a NaN score giving the bound.
double clipped(float score, double max_val) {
  return double(score) < max_val ? double(score) : max_val;
}

class SpeedChromaFeature final : public Feature {
 public:
  SpeedChromaFeature(const speed::SpeedOptions& o, std::unique_ptr<speed::chroma::Engine> engine)
      : options_(o), engine_(std::move(engine)) {
    const std::string suffix = speed::key_suffix(o);
    outputs_ = {"speed_chroma_u" + suffix, "speed_chroma_v" + suffix, "speed_chroma_uv" + suffix};
  }

  const std::vector<std::string>& outputs() const override { return outputs_; }
  int batch_frames() const override { return engine_->batch_frames(); }

  void extract_batch(std::span<const FramePair> frames, std::span<double> out) override {
    scores_.resize(frames.size() * 2);
    engine_->score(frames, scores_);
    for (size_t i = 0; i < frames.size(); ++i) {
      const speed::PairScore u = scores_[2 * i], v = scores_[2 * i + 1];
      // A plane whose covariance was singular takes the other's score.
      float uv;
      if (u.singular && !v.singular)
        uv = v.score;
      else if (v.singular && !u.singular)
        uv = u.score;
      else
        uv = float(double(u.score + v.score) / 2.0);  // a binary32 sum, halved in binary64
      out[i * 3 + 0] = clipped(u.score, options_.max_val);
      out[i * 3 + 1] = clipped(v.score, options_.max_val);
      out[i * 3 + 2] = clipped(uv, options_.max_val);
    }
  }

 private:
  speed::SpeedOptions options_;
  std::unique_ptr<speed::chroma::Engine> engine_;
  std::vector<std::string> outputs_;
  std::vector<speed::PairScore> scores_;
};

class SpeedTemporalFeature final : public Feature {
 public:
  SpeedTemporalFeature(const speed::SpeedOptions& o, const VideoFormat& format,
                       std::unique_ptr<speed::temporal::Engine> engine)
      : options_(o), format_(format), engine_(std::move(engine)) {
    outputs_ = {"speed_temporal" + speed::key_suffix(o)};
  }

  const std::vector<std::string>& outputs() const override { return outputs_; }
  int batch_frames() const override { return engine_->batch_frames(); }
  int planes_read() const override { return 1; }
  bool temporal() const override { return true; }
  int frames_before() const override { return 1; }
  void start_at(std::span<const FramePair> before, int64_t first_index) override {
    engine_->hold(before);
    next_index_ = first_index;
  }

  void reported_every(int n) override {
    throw UsageError(fmt::format(
        "feature speed_temporal cannot be scored with --subsample {}: libvmaf compares each "
        "scored frame with the one scored before it (and with an even step reads a buffer it "
        "never wrote); score every frame",
        n));
  }

  void extract_batch(std::span<const FramePair> frames, std::span<double> out) override {
    for (const FramePair& f : frames) {
      if (f.loose() || f.index != next_index_)
        throw UsageError(fmt::format(
            "feature speed_temporal needs every frame in order: got frame {} where frame {} was "
            "due",
            f.index, next_index_));
      ++next_index_;
    }
    const int64_t first = next_index_ - int64_t(frames.size());  // run position of frames[0]
    // The first frame of a run is 0 with no score computed; every later one
    // needs pictures SpEED can score.
    if (first + int64_t(frames.size()) > 1) {
      speed::check_bit_depth(options_, format_.bitdepth);
      speed::check_scoreable(options_, format_.width, format_.height);
    }
    scores_.resize(frames.size());
    engine_->score(frames, scores_);
    for (size_t i = 0; i < frames.size(); ++i)
      out[i] = first + int64_t(i) == 0 ? 0.0 : double(scores_[i].score);
  }

 private:
  speed::SpeedOptions options_;
  VideoFormat format_;
  std::unique_ptr<speed::temporal::Engine> engine_;
  std::vector<std::string> outputs_;
  int64_t next_index_ = 0;
  std::vector<speed::PairScore> scores_;
};

}  // namespace

std::unique_ptr<Feature> make_speed_chroma_feature(const speed::SpeedOptions& options,
                                                   const FeatureContext& ctx) {
  const VideoFormat& f = ctx.format;
  if (f.chroma == ChromaFormat::kMono)
    throw PictureError("feature speed_chroma scores the chroma planes; the input has none (4:0:0)");
  speed::check_bit_depth(options, f.bitdepth);
  speed::check_scoreable(options, speed::chroma_width(f), speed::chroma_height(f));
  auto engine = speed::chroma::make_engine(
      device_of(ctx), speed::chroma::EngineSetup{ctx.format, options, ctx.pool});
  return std::make_unique<SpeedChromaFeature>(options, std::move(engine));
}

std::unique_ptr<Feature> make_speed_temporal_feature(const speed::SpeedOptions& options,
                                                     const FeatureContext& ctx) {
  auto engine = speed::temporal::make_engine(
      device_of(ctx), speed::temporal::EngineSetup{ctx.format, options, ctx.pool});
  return std::make_unique<SpeedTemporalFeature>(options, ctx.format, std::move(engine));
}

}  // namespace exactvq
