// The cambi engine on the CPU: each picture's scale values by the reference
// stages (reference.h) with the SIMD window counts (window_counts.h), the
// pictures of a batch (and a frame's reference and distorted pictures) side
// by side on the setup's thread pool.
#include <algorithm>

#include "core/error.h"
#include "metrics/cambi/engine.h"
#include "metrics/cambi/reference.h"

namespace exactvq::cambi::cpu {

namespace {

class CpuEngine final : public Engine {
 public:
  explicit CpuEngine(const EngineSetup& s) : setup_(s) {}

  int batch_frames() const override { return setup_.pool ? std::max(1, setup_.pool->size()) : 1; }

  void score(std::span<const FramePair> frames, std::span<double> out) override {
    if (setup_.heatmaps)
      for (const FramePair& f : frames)
        if (f.loose())
          throw UsageError(
              "feature cambi: heatmaps_path needs each frame's place in the run (a loose pair "
              "has none)");
    const int images = setup_.cambi.full_ref ? 2 : 1;
    const size_t per_frame = size_t(setup_.planes);
    const auto body = [&](int task) {
      const size_t f = size_t(task / images);
      const bool reference = task % images == 1;
      const Picture& pic = reference ? *frames[f].ref : *frames[f].dist;
      const ImagePlan& plan = reference ? setup_.cambi.source : setup_.cambi.distorted;
      ScaleValuesSink sink;
      if (setup_.heatmaps && !reference)
        sink = [this, index = frames[f].index](int scale, std::span<const float> values, int w,
                                               int h) {
          setup_.heatmaps->write(index, scale, values, w, h);
        };
      const std::array<double, kScales> s =
          scale_scores(pic.plane(0), setup_.cambi, plan, slide_counts, sink);
      std::copy(s.begin(), s.end(),
                out.begin() + ptrdiff_t(f * per_frame) + (reference ? kScales : 0));
    };
    parallel_for(setup_.pool, int(frames.size()) * images, body);
  }

 private:
  EngineSetup setup_;
};

}  // namespace

std::unique_ptr<Engine> make_engine(Device&, const EngineSetup& setup) {
  return std::make_unique<CpuEngine>(setup);
}

}  // namespace exactvq::cambi::cpu
