// psnr's sums of squared errors from ssim's pass on an OpenCL device: where a
// run scores both on one plane, the SSIM horizontal pass computes the plane's SSE
// on the way (the samples are read once) and keeps it here for the psnr engine;
// when psnr comes first in the run, it asks the ssim engine to score that frame
// early, so the order of the features does not matter. Kept on the device
// (OpenclDevice::state), forgotten with its frames.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <deque>
#include <optional>
#include <vector>

#include "backends/opencl/opencl_device.h"

namespace exactvq::ssim::opencl {

using exactvq::opencl::DeviceFrame;
using exactvq::opencl::HeldFrame;

class FusedSse final : public exactvq::opencl::DeviceState {
 public:
  // The ssim engine on the device, as the psnr engine sees it.
  class Scorer {
   public:
    virtual ~Scorer() = default;
    // Whether the engine scores plane p.
    virtual bool covers(int plane) const = 0;
    // Whether the engine has yet to score `frame` (a numbered one): it has not
    // scored it early, nor a frame at or after its number.
    virtual bool yet_to_score(const DeviceFrame& frame) const = 0;
    // Scores `frame` now (computing the SSE of its planes where a psnr engine
    // wants them), keeping the sums until the engine is asked for that frame.
    virtual void score_early(const DeviceFrame& frame) = 0;
  };

  // SSE of plane p of a frame, once an engine has computed it.
  std::optional<uint64_t> known(const DeviceFrame& f, int p) const {
    for (const Known& k : known_)
      if (k.held.matches(f)) return k.sse[size_t(p)];
    return std::nullopt;
  }
  void keep(const DeviceFrame& f, int p, uint64_t sse) {
    if (!f.keyed) return;
    constexpr size_t kKeptFrames = 64;  // a batch's worth is enough; more are dropped
    auto it = std::find_if(known_.begin(), known_.end(),
                           [&](const Known& k) { return k.held.matches(f); });
    if (it == known_.end()) {
      if (known_.size() == kKeptFrames) known_.pop_front();
      known_.emplace_back();
      known_.back().held.set(f);
      it = known_.end() - 1;
    }
    it->sse[size_t(p)] = sse;
  }
  // Whether a psnr engine on the device scores plane p.
  bool wanted(int p) const { return users_[size_t(p)] > 0; }
  // The ssim engine scoring plane p, or null.
  Scorer* scorer_for(int p) const {
    for (Scorer* s : scorers_)
      if (s->covers(p)) return s;
    return nullptr;
  }

  // Engines register while they live (with the device's frames forgotten).
  void add_scorer(Scorer* s) { scorers_.push_back(s); }
  void remove_scorer(Scorer* s) { std::erase(scorers_, s); }
  void add_user(int planes) {
    for (int p = 0; p < planes; ++p) ++users_[size_t(p)];
  }
  void remove_user(int planes) {
    for (int p = 0; p < planes; ++p) --users_[size_t(p)];
  }

  void forget() override { known_.clear(); }

  // Counts of where the SSEs came from, for the tests of sharing.
  struct Counters {
    int64_t fused = 0;     // computed by the SSIM pass
    int64_t separate = 0;  // computed by the psnr kernel
  };
  Counters& counters() { return counters_; }
  const Counters& counters() const { return counters_; }

 private:
  struct Known {
    HeldFrame held;
    std::array<std::optional<uint64_t>, 3> sse;
  };
  std::deque<Known> known_;
  std::vector<Scorer*> scorers_;
  std::array<int, 3> users_ = {};
  Counters counters_;
};

}  // namespace exactvq::ssim::opencl
