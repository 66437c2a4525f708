// The motion engine on the CPU: the SIMD SAD (sad.h) of each frame, frames in
// parallel on the setup's thread pool; the last reference pictures of a call
// copied for the next one.
#include <cstring>
#include <algorithm>
#include <vector>

#include "metrics/motion/engine.h"
#include "metrics/motion/sad.h"

namespace exactvq::motion::cpu {

namespace {

// The last few reference luma planes, copied into buffers allocated once and
// reused as a ring (no allocation or page faults from batch to batch).
class HeldLumas {
 public:
  explicit HeldLumas(int most) : buffers_(size_t(most)), views_(size_t(most)) {}

  size_t size() const { return count_; }
  void clear() { count_ = 0; }
  // The i-th held plane, oldest first.
  const PlaneView& operator[](size_t i) const { return views_[(first_ + i) % views_.size()]; }

  // Copies `p` in, dropping the oldest plane when full.
  void push(const PlaneView& p) {
    if (views_.empty()) return;
    const size_t slot = (first_ + count_) % views_.size();
    if (count_ == views_.size())
      first_ = (first_ + 1) % views_.size();
    else
      ++count_;
    std::vector<uint8_t>& buffer = buffers_[slot];
    buffer.resize(size_t(p.stride) * size_t(p.height));
    std::memcpy(buffer.data(), p.data, buffer.size());
    views_[slot] = p;
    views_[slot].data = buffer.data();
  }

 private:
  std::vector<std::vector<uint8_t>> buffers_;
  std::vector<PlaneView> views_;
  size_t first_ = 0, count_ = 0;
};

class CpuEngine final : public Engine {
 public:
  explicit CpuEngine(const EngineSetup& s)
      : setup_(s), distance_(frame_distance(s.options)), held_(distance_) {}

  int batch_frames() const override { return setup_.pool ? setup_.pool->size() : 1; }

  void hold(std::span<const FramePair> before) override {
    held_.clear();
    keep(before);
  }

  void score(std::span<const FramePair> frames, std::span<uint64_t> out) override {
    const int held = int(held_.size());
    const auto body = [&](int i) {
      const int back = i - distance_;
      out[size_t(i)] = 0;
      if (back < -held) return;
      const PlaneView cur = frames[size_t(i)].ref->plane(0);
      const PlaneView prev =
          back >= 0 ? frames[size_t(back)].ref->plane(0) : held_[size_t(held + back)];
      out[size_t(i)] = sad(prev, cur, setup_.format.bitdepth, 0, cur.height);
    };
    parallel_for(setup_.pool, int(frames.size()), body);
    keep(frames);
  }

 private:
  // Only the last distance_ frames can be read by later calls.
  void keep(std::span<const FramePair> frames) {
    const size_t from = frames.size() - std::min(frames.size(), size_t(distance_));
    for (const FramePair& f : frames.subspan(from)) held_.push(f.ref->plane(0));
  }

  EngineSetup setup_;
  int distance_;
  HeldLumas held_;  // the last distance_ reference pictures, oldest first
};

}  // namespace

std::unique_ptr<Engine> make_engine(Device&, const EngineSetup& setup) {
  return std::make_unique<CpuEngine>(setup);
}

}  // namespace exactvq::motion::cpu
