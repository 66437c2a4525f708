// The motion engine on the CPU: the SIMD SAD (sad.h) of each frame, frames in
// parallel on the setup's thread pool; the last reference pictures copied for
// the next call.
#include <cstring>
#include <deque>
#include <vector>

#include "metrics/motion/engine.h"
#include "metrics/motion/sad.h"

namespace exactvq::motion::cpu {

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

class CpuEngine final : public Engine {
 public:
  explicit CpuEngine(const EngineSetup& s) : setup_(s), distance_(frame_distance(s.options)) {}

  int batch_frames() const override { return setup_.pool ? setup_.pool->size() : 1; }

  void hold(std::span<const FramePair> before) override {
    held_.clear();
    for (const FramePair& f : before) keep(f.ref->plane(0));
  }

  void score(std::span<const FramePair> frames, std::span<uint64_t> out) override {
    const int held = int(held_.size());
    const auto body = [&](int i) {
      const int back = i - distance_;
      out[size_t(i)] = 0;
      if (back < -held) return;
      const PlaneView cur = frames[size_t(i)].ref->plane(0);
      const PlaneView prev =
          back >= 0 ? frames[size_t(back)].ref->plane(0) : held_[size_t(held + back)].view;
      out[size_t(i)] = sad(prev, cur, setup_.format.bitdepth, 0, cur.height);
    };
    parallel_for(setup_.pool, int(frames.size()), body);
    for (const FramePair& f : frames) keep(f.ref->plane(0));
  }

 private:
  void keep(const PlaneView& p) {
    held_.emplace_back(p);
    if (held_.size() > size_t(distance_)) held_.pop_front();
  }

  EngineSetup setup_;
  int distance_;
  std::deque<HeldLuma> held_;  // the last distance_ reference pictures, oldest first
};

}  // namespace

std::unique_ptr<Engine> make_engine(Device&, const EngineSetup& setup) {
  return std::make_unique<CpuEngine>(setup);
}

}  // namespace exactvq::motion::cpu
