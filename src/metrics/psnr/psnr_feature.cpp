#include "metrics/psnr/psnr_feature.h"

#include <limits>

#include <fmt/format.h>

#include "backends/device.h"
#include "core/error.h"
#include "metrics/psnr/engine.h"

namespace exactvq {

namespace psnr {

PsnrScorer::PsnrScorer(const PsnrOptions& o, const VideoFormat& format)
    : enable_mse_(o.enable_mse), enable_apsnr_(o.enable_apsnr) {
  planes_ = scored_planes(o, format);
  peak_ = peak_value(format.bitdepth, o.reduced_hbd_peak);
  static const char* const kPsnr[] = {"psnr_y", "psnr_cb", "psnr_cr"};
  static const char* const kMse[] = {"mse_y", "mse_cb", "mse_cr"};
  for (int p = 0; p < planes_; ++p) {
    // libvmaf divides min_sse by floor(W/2) x floor(H/2) chroma samples; the plane
    // read here (ceil, FFmpeg's layout) is the same for even sizes.
    samples_[p] = uint64_t(format.plane_width(p)) * uint64_t(format.plane_height(p));
    psnr_max_[p] = psnr_max(peak_, format.bitdepth, o.min_sse, samples_[p]);
    names_.emplace_back(kPsnr[p]);
    if (enable_mse_) names_.emplace_back(kMse[p]);
  }
}

void PsnrScorer::score_frame(const uint64_t* sse, std::span<double> out) {
  size_t k = 0;
  for (int p = 0; p < planes_; ++p) {
    const double m = mse(sse[p], samples_[p]);
    out[k++] = psnr_from_mse(m, peak_, psnr_max_[p]);
    if (enable_mse_) out[k++] = m;
    if (enable_apsnr_) apsnr_[p].add(sse[p], samples_[p]);
  }
}

std::vector<std::pair<std::string, double>> PsnrScorer::aggregates() const {
  return aggregates_of(state());
}

std::vector<AggregateWord> PsnrScorer::state() const {
  std::vector<AggregateWord> words;
  if (!enable_apsnr_) return words;
  for (int p = 0; p < planes_; ++p) {
    words.push_back(apsnr_[p].sse);
    words.push_back(apsnr_[p].samples);
  }
  return words;
}

std::vector<std::pair<std::string, double>> PsnrScorer::aggregates_of(
    std::span<const AggregateWord> state) const {
  std::vector<std::pair<std::string, double>> values;
  if (!enable_apsnr_ || state.size() != size_t(2 * planes_)) return values;
  static const char* const kApsnr[] = {"apsnr_y", "apsnr_cb", "apsnr_cr"};
  for (int p = 0; p < planes_; ++p) {
    const ApsnrSum sum{state[size_t(2 * p)], state[size_t(2 * p + 1)]};
    if (sum.samples > 0) values.emplace_back(kApsnr[p], aggregate_psnr(sum, peak_));
  }
  // libvmaf names all three planes: one it did not score (enable_chroma=false) has no
  // samples and no error, and its min(NaN, ceil(10 log10(0))) is -infinity.
  for (int p = planes_; p < 3; ++p)
    values.emplace_back(kApsnr[p], -std::numeric_limits<double>::infinity());
  return values;
}

}  // namespace psnr

namespace {

class PsnrFeature final : public Feature {
 public:
  PsnrFeature(const psnr::PsnrOptions& o, const VideoFormat& format,
              std::unique_ptr<psnr::Engine> engine)
      : scorer_(o, format), engine_(std::move(engine)) {}

  const std::vector<std::string>& outputs() const override { return scorer_.outputs(); }
  int batch_frames() const override { return engine_->batch_frames(); }
  bool scores_device_pictures() const override { return engine_->takes_device_pictures(); }
  int planes_read() const override { return scorer_.planes(); }

  // The scorer adds a frame to apsnr only once its every plane is known, so a
  // failing batch adds none of its frames.
  void extract_batch(std::span<const FramePair> frames, std::span<double> out) override {
    const size_t planes = size_t(scorer_.planes()), values = scorer_.outputs().size();
    sse_.assign(frames.size() * planes, 0);
    engine_->score(frames, sse_);
    for (size_t i = 0; i < frames.size(); ++i)
      scorer_.score_frame(sse_.data() + i * planes, out.subspan(i * values, values));
  }

  std::vector<std::pair<std::string, double>> aggregates() const override {
    return scorer_.aggregates();
  }
  std::vector<AggregateWord> aggregate_state() const override { return scorer_.state(); }
  std::vector<std::pair<std::string, double>> aggregates_of(
      std::span<const AggregateWord> state) const override {
    return scorer_.aggregates_of(state);
  }

 private:
  psnr::PsnrScorer scorer_;
  std::unique_ptr<psnr::Engine> engine_;
  std::vector<uint64_t> sse_;  // [frame][plane]
};

}  // namespace

std::unique_ptr<Feature> make_psnr_feature(const psnr::PsnrOptions& options,
                                           const FeatureContext& ctx) {
  std::unique_ptr<psnr::Engine> engine = psnr::make_engine(
      device_of(ctx),
      psnr::EngineSetup{ctx.format, psnr::scored_planes(options, ctx.format), ctx.pool});
  return std::make_unique<PsnrFeature>(options, ctx.format, std::move(engine));
}

}  // namespace exactvq
