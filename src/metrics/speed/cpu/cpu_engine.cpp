// The SpEED engines on the CPU: the scalar reference's Scorer with the SIMD
// twins of its covariance sums (covariance.h), its filters' vertical pass and
// the planes' conversion (plane_kernels.h; speed_chroma's filter reads the
// samples themselves where nothing is prescaled), frames (and
// speed_chroma's two planes) side by side on the setup's thread pool, each task
// with a Scorer of its own; speed_temporal keeps the last frame pair for the
// next call.
#include <mutex>
#include <optional>
#include <vector>

#include "metrics/speed/engine.h"

namespace exactvq::speed {

namespace {

// Scorers of one size, lent to tasks one at a time (a Scorer holds a few
// planes of buffers: made once, reused).
class ScorerPool {
 public:
  ScorerPool(int width, int height, const SpeedOptions& o)
      : width_(width), height_(height), options_(o) {}

  std::unique_ptr<Scorer> take() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (!free_.empty()) {
        std::unique_ptr<Scorer> s = std::move(free_.back());
        free_.pop_back();
        return s;
      }
    }
    return std::make_unique<Scorer>(width_, height_, options_, covariance_sums, filter_columns_simd,
                                    window_sums);
  }

  void give_back(std::unique_ptr<Scorer> s) {
    std::lock_guard<std::mutex> lock(mutex_);
    free_.push_back(std::move(s));
  }

 private:
  int width_, height_;
  SpeedOptions options_;
  std::mutex mutex_;
  std::vector<std::unique_ptr<Scorer>> free_;
};

int tasks_per_call(ThreadPool* pool) { return pool ? pool->size() : 1; }

}  // namespace

namespace chroma::cpu {

namespace {

class CpuEngine final : public Engine {
 public:
  explicit CpuEngine(const EngineSetup& s)
      : setup_(s), scorers_(chroma_width(s.format), chroma_height(s.format), s.options) {}

  int batch_frames() const override { return tasks_per_call(setup_.pool); }

  void score(std::span<const FramePair> frames, std::span<PairScore> out) override {
    const int bitdepth = setup_.format.bitdepth;
    parallel_for(setup_.pool, int(frames.size()) * 2, [&](int task) {
      const FramePair& f = frames[size_t(task / 2)];
      const int plane = 1 + task % 2;
      std::unique_ptr<Scorer> s = scorers_.take();
      out[size_t(task)] = s->score_planes(f.ref->plane(plane), f.dist->plane(plane), bitdepth,
                                          {load_plane_simd, filter_sample_columns_simd});
      scorers_.give_back(std::move(s));
    });
  }

 private:
  EngineSetup setup_;
  ScorerPool scorers_;
};

}  // namespace

std::unique_ptr<Engine> make_engine(Device&, const EngineSetup& setup) {
  return std::make_unique<CpuEngine>(setup);
}

}  // namespace chroma::cpu

namespace temporal::cpu {

namespace {

class CpuEngine final : public Engine {
 public:
  explicit CpuEngine(const EngineSetup& s)
      : setup_(s), scorers_(s.format.width, s.format.height, s.options) {}

  int batch_frames() const override { return tasks_per_call(setup_.pool); }

  void hold(std::span<const FramePair> before) override {
    held_.reset();
    if (!before.empty()) keep(before.back());
  }

  void score(std::span<const FramePair> frames, std::span<PairScore> out) override {
    parallel_for(setup_.pool, int(frames.size()), [&](int i) {
      out[size_t(i)] = PairScore{};
      const Picture* prev_ref = nullptr;
      const Picture* prev_dist = nullptr;
      if (i > 0) {
        prev_ref = frames[size_t(i) - 1].ref;
        prev_dist = frames[size_t(i) - 1].dist;
      } else if (held_) {
        prev_ref = &held_->first;
        prev_dist = &held_->second;
      } else {
        return;
      }
      out[size_t(i)] = score_difference(*prev_ref, *prev_dist, frames[size_t(i)]);
    });
    if (!frames.empty()) keep(frames.back());
  }

 private:
  // SpEED of (previous - current) reference luma against the distorted one's
  // (previous distorted - current reference with use_ref_diff), in binary32.
  PairScore score_difference(const Picture& prev_ref, const Picture& prev_dist,
                             const FramePair& cur) {
    const int w = setup_.format.width, h = setup_.format.height;
    const int bitdepth = setup_.format.bitdepth;
    std::unique_ptr<Scorer> s = scorers_.take();
    const size_t stride = s->stride();
    std::vector<float> current(stride * size_t(h));
    load_plane_simd(prev_ref.plane(0), w, h, bitdepth, s->ref(), stride);
    load_plane_simd(cur.ref->plane(0), w, h, bitdepth, current.data(), stride);
    subtract(s->ref(), current.data(), w, h, stride);
    load_plane_simd(prev_dist.plane(0), w, h, bitdepth, s->dis(), stride);
    if (!setup_.options.use_ref_diff)
      load_plane_simd(cur.dist->plane(0), w, h, bitdepth, current.data(), stride);
    subtract(s->dis(), current.data(), w, h, stride);
    const PairScore score = s->score();
    scorers_.give_back(std::move(s));
    return score;
  }

  static void subtract(float* a, const float* b, int w, int h, size_t stride) {
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x)
        a[size_t(y) * stride + size_t(x)] -= b[size_t(y) * stride + size_t(x)];
  }

  void keep(const FramePair& f) { held_.emplace(*f.ref, *f.dist); }

  EngineSetup setup_;
  ScorerPool scorers_;
  std::optional<std::pair<Picture, Picture>> held_;  // the last pair scored or given
};

}  // namespace

std::unique_ptr<Engine> make_engine(Device&, const EngineSetup& setup) {
  return std::make_unique<CpuEngine>(setup);
}

}  // namespace temporal::cpu

}  // namespace exactvq::speed
