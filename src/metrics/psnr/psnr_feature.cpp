#include "metrics/psnr/psnr_feature.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>

#include <fmt/format.h>

#include "core/error.h"
#include "metrics/psnr/sse.h"

namespace exactvq {

namespace {

// A finite number >= 0 (libvmaf's min_sse range is [0, DBL_MAX]).
double parse_min_sse(const std::string& value) {
  errno = 0;
  char* end = nullptr;
  const double v = value.empty() ? NAN : std::strtod(value.c_str(), &end);
  if (value.empty() || *end != '\0' || errno == ERANGE || !std::isfinite(v) || v < 0)
    throw UsageError(fmt::format(
        "feature psnr: min_sse={} is not a finite number >= 0", value));
  return v;
}

}  // namespace

PsnrOptions parse_psnr_options(const FeatureSpec& spec) {
  PsnrOptions o;
  for (const auto& [key, value] : spec.options) {
    if (key == "enable_chroma") o.enable_chroma = parse_bool_option(spec.name, key, value);
    else if (key == "enable_mse") o.enable_mse = parse_bool_option(spec.name, key, value);
    else if (key == "enable_apsnr") o.enable_apsnr = parse_bool_option(spec.name, key, value);
    else if (key == "reduced_hbd_peak")
      o.reduced_hbd_peak = parse_bool_option(spec.name, key, value);
    else if (key == "min_sse") o.min_sse = parse_min_sse(value);
    else
      throw UsageError(fmt::format(
          "feature psnr: unknown option '{}' (known: enable_chroma, enable_mse, enable_apsnr, "
          "reduced_hbd_peak, min_sse)",
          key));
  }
  return o;
}

PsnrScorer::PsnrScorer(const PsnrOptions& o, const VideoFormat& format)
    : enable_mse_(o.enable_mse), enable_apsnr_(o.enable_apsnr) {
  planes_ = o.enable_chroma && format.chroma != ChromaFormat::kMono ? 3 : 1;
  peak_ = psnr::peak_value(format.bitdepth, o.reduced_hbd_peak);
  static const char* const kPsnr[] = {"psnr_y", "psnr_cb", "psnr_cr"};
  static const char* const kMse[] = {"mse_y", "mse_cb", "mse_cr"};
  for (int p = 0; p < planes_; ++p) {
    // libvmaf divides min_sse by floor(W/2) x floor(H/2) chroma samples; the plane
    // read here (ceil, FFmpeg's layout) is the same for even sizes.
    samples_[p] = uint64_t(format.plane_width(p)) * uint64_t(format.plane_height(p));
    psnr_max_[p] = psnr::psnr_max(peak_, format.bitdepth, o.min_sse, samples_[p]);
    names_.emplace_back(kPsnr[p]);
    if (enable_mse_) names_.emplace_back(kMse[p]);
  }
}

void PsnrScorer::score_frame(const uint64_t* sse, std::span<double> out) {
  size_t k = 0;
  for (int p = 0; p < planes_; ++p) {
    const double mse = psnr::mse(sse[p], samples_[p]);
    out[k++] = psnr::psnr_from_mse(mse, peak_, psnr_max_[p]);
    if (enable_mse_) out[k++] = mse;
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
    const psnr::ApsnrSum sum{state[size_t(2 * p)], state[size_t(2 * p + 1)]};
    if (sum.samples > 0) values.emplace_back(kApsnr[p], psnr::aggregate_psnr(sum, peak_));
  }
  return values;
}

namespace {

class PsnrFeature final : public PsnrScoringFeature {
 public:
  PsnrFeature(const PsnrOptions& o, const FeatureContext& ctx) : PsnrScoringFeature(o, ctx.format), ctx_(ctx) {
    // Row bands: the SSE is an integer sum, so any split gives the same bits.
    // Bands of fewer than kMinBandRows rows cost more to hand out than to sum.
    constexpr int kMinBandRows = 16;
    const int threads = ctx.pool ? ctx.pool->size() : 1;
    bands_ = std::max(1, std::min(threads, ctx.format.height / kMinBandRows));
    partial_.resize(size_t(scorer_.planes() * bands_));
  }

  void extract(const Picture& ref, const Picture& dist, std::span<double> out) override {
    const int tasks = scorer_.planes() * bands_;
    const auto body = [&](int task) {
      const int p = task / bands_, band = task % bands_;
      const PlaneView r = ref.plane(p), d = dist.plane(p);
      const int y0 = int(int64_t{r.height} * band / bands_);
      const int y1 = int(int64_t{r.height} * (band + 1) / bands_);
      partial_[size_t(task)] = psnr::sse(r, d, y0, y1);
    };
    if (ctx_.pool && tasks > 1) ctx_.pool->parallel_for(tasks, body);
    else for (int t = 0; t < tasks; ++t) body(t);
    uint64_t sse[3] = {};
    for (int t = 0; t < tasks; ++t) sse[t / bands_] += partial_[size_t(t)];
    scorer_.score_frame(sse, out);
  }

 private:
  FeatureContext ctx_;
  int bands_ = 1;
  std::vector<uint64_t> partial_;  // one per (plane, band), task order
};

}  // namespace

std::unique_ptr<Feature> make_psnr_feature(const PsnrOptions& options, const FeatureContext& ctx) {
  return std::make_unique<PsnrFeature>(options, ctx);
}

}  // namespace exactvq
