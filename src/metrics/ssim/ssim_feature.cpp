#include "metrics/ssim/ssim_feature.h"

#include <algorithm>
#include <limits>

#include <fmt/format.h>

#include "core/error.h"
#include "metrics/ssim/decibels.h"
#include "metrics/ssim/cpu/ssim_simd.h"
#include "metrics/ssim/reference.h"

namespace exactvq {

SsimOptions parse_ssim_options(const FeatureSpec& spec) {
  SsimOptions o;
  for (const auto& [key, value] : spec.options) {
    if (key == "sum") {
      if (value == "exact") o.mode = SumMode::kExact;
      else if (value == "raster") o.mode = SumMode::kRaster;
      else throw UsageError(fmt::format("feature ssim: sum={} is not exact or raster", value));
    } else if (key == "enable_db") {
      o.enable_db = parse_bool_option(spec.name, key, value);
    } else if (key == "clip_db") {
      o.clip_db = parse_bool_option(spec.name, key, value);
    } else if (key == "chroma") {
      o.chroma = parse_bool_option(spec.name, key, value);
    } else if (key == "fp64") {
      if (value == "auto") o.fp64 = Fp64Mode::kAuto;
      else if (value == "native") o.fp64 = Fp64Mode::kNative;
      else if (value == "emulate") o.fp64 = Fp64Mode::kEmulate;
      else throw UsageError(fmt::format("feature ssim: fp64={} is not auto, native or emulate", value));
    } else {
      throw UsageError(fmt::format(
          "feature ssim: unknown option '{}' (known: sum, enable_db, clip_db, chroma, fp64)", key));
    }
  }
  return o;
}

namespace {

// Frames scored at once: in `raster` mode enough to keep every thread busy (one
// sequential pass per plane), in `exact` mode a few (row bands share out the
// rest); capped to bound the memory the batches hold (4K 4:2:0 8-bit: 25 MB a pair,
// and the reader fills a second batch meanwhile).
int frames_in_flight(SumMode mode, int threads) {
  return std::clamp(threads, 1, mode == SumMode::kRaster ? 8 : 4);
}

class SsimFeature final : public Feature {
 public:
  SsimFeature(const SsimOptions& o, const FeatureContext& ctx) : options_(o), ctx_(ctx) {
    planes_ = o.chroma ? 3 : 1;
    static const char* const kNames[] = {"ssim", "ssim_cb", "ssim_cr"};
    for (int p = 0; p < planes_; ++p) {
      names_.emplace_back(kNames[p]);
      max_db_[p] = o.clip_db ? ssim::clip_db_limit(ctx.format.max_sample(),
                                                   ctx.format.plane_width(p),
                                                   ctx.format.plane_height(p))
                             : std::numeric_limits<double>::infinity();
    }
    threads_ = ctx.pool ? ctx.pool->size() : 1;
  }

  const std::vector<std::string>& outputs() const override { return names_; }

  int batch_frames() const override { return frames_in_flight(options_.mode, threads_); }

  void extract(const Picture& ref, const Picture& dist, std::span<double> out) override {
    const FramePair pair{&ref, &dist, 0};
    extract_batch({&pair, 1}, out);
  }

  void extract_batch(std::span<const FramePair> frames, std::span<double> out) override {
    const int bitdepth = ctx_.format.bitdepth;
    const int frame_count = int(frames.size());
    if (frame_count == 0) return;
    if (options_.mode == SumMode::kRaster) {
      // Each plane's sum is one sequential pass; frames and planes run side by side.
      run(frame_count * planes_, [&](int task) {
        const int f = task / planes_, p = task % planes_;
        out[size_t(task)] = cpu::score_raster(frames[size_t(f)].ref->plane(p),
                                              frames[size_t(f)].dist->plane(p), bitdepth);
      });
    } else {
      // Row bands where frames alone leave threads idle; any split gives the same bits.
      const int bands = std::max(1, (threads_ + frame_count - 1) / frame_count);
      partial_.assign(size_t(frame_count * planes_ * bands), {});
      run(frame_count * planes_ * bands, [&](int task) {
        const int f = task / (planes_ * bands), p = task / bands % planes_, band = task % bands;
        const PlaneView r = frames[size_t(f)].ref->plane(p), d = frames[size_t(f)].dist->plane(p);
        const int y0 = int(int64_t{r.height} * band / bands);
        const int y1 = int(int64_t{r.height} * (band + 1) / bands);
        partial_[size_t(task)] = cpu::exact_sum(r, d, bitdepth, {0, y0, r.width, y1});
      });
      for (int fp = 0; fp < frame_count * planes_; ++fp) {
        ssim::ExactSum total;
        for (int band = 0; band < bands; ++band) total += partial_[size_t(fp * bands + band)];
        out[size_t(fp)] = total.score();
      }
    }
    if (options_.enable_db)
      for (int fp = 0; fp < frame_count * planes_; ++fp)
        out[size_t(fp)] = ssim::to_db(out[size_t(fp)], max_db_[fp % planes_]);
  }

 private:
  template <typename Body>
  void run(int count, Body&& body) {
    if (ctx_.pool) ctx_.pool->parallel_for(count, body);
    else for (int i = 0; i < count; ++i) body(i);
  }

  SsimOptions options_;
  FeatureContext ctx_;
  int planes_ = 1;
  int threads_ = 1;
  std::vector<std::string> names_;
  double max_db_[3] = {};
  std::vector<ssim::ExactSum> partial_;  // exact mode: one per (frame, plane, band), task order
};

}  // namespace

std::unique_ptr<Feature> make_ssim_feature(const SsimOptions& options, const FeatureContext& ctx) {
  if (options.chroma && ctx.format.chroma == ChromaFormat::kMono)
    throw UsageError("feature ssim: chroma=true, but the input is monochrome (no Cb, Cr planes)");
  return std::make_unique<SsimFeature>(options, ctx);
}

}  // namespace exactvq
