// A CPU engine of any metric that scores each frame pair of a batch as one task
// on the setup's thread pool: score_frame(setup, pair, values) writes the pair's
// values (Setup::planes of them). A batch holds a frame for each thread.
#pragma once

#include <memory>
#include <span>
#include <utility>

#include "core/picture.h"
#include "core/thread_pool.h"

namespace exactvq::cpu {

template <typename Engine, typename Setup, typename ScoreFrame>
class FrameTaskEngine final : public Engine {
 public:
  using Value = typename Engine::Value;

  FrameTaskEngine(const Setup& setup, ScoreFrame score_frame)
      : setup_(setup), score_frame_(std::move(score_frame)) {}

  int batch_frames() const override { return setup_.pool ? setup_.pool->size() : 1; }

  void score(std::span<const FramePair> frames, std::span<Value> out) override {
    const size_t per_frame = size_t(setup_.planes);
    parallel_for(setup_.pool, int(frames.size()), [&](int i) {
      score_frame_(setup_, frames[size_t(i)], out.subspan(size_t(i) * per_frame, per_frame));
    });
  }

 private:
  Setup setup_;
  ScoreFrame score_frame_;
};

template <typename Engine, typename Setup, typename ScoreFrame>
std::unique_ptr<Engine> make_frame_task_engine(const Setup& setup, ScoreFrame score_frame) {
  return std::make_unique<FrameTaskEngine<Engine, Setup, ScoreFrame>>(setup,
                                                                      std::move(score_frame));
}

}  // namespace exactvq::cpu
