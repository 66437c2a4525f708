// Test-only fault injection for the CUDA backend.
//
// EXACTVQ_CUDA_FAULT, read once when a device opens, makes that device fail on
// purpose, so tests can prove what a user sees when a GPU misbehaves:
//   open      the device cannot be opened (as if it were unusable)
//   alloc@N   the N-th device allocation after opening fails (out of memory), N >= 1
//   launch@N  the kernel launch for the chunk holding frame number N fails
//   lost@N    the device is lost just before frame N is uploaded; every later
//             call on the device fails too
// Each failure is a DeviceError naming what failed and saying it was injected.
// The state belongs to one opened device: two devices never share it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

namespace exactvq::cuda {

class Faults {
 public:
  enum class Kind { kNone, kOpen, kAlloc, kLaunch, kLost };

  // From the value of EXACTVQ_CUDA_FAULT (null or empty: none). Throws
  // DeviceError on a value it cannot read, so a typo cannot silently test nothing.
  static Faults parse(const char* value);
  // parse(getenv("EXACTVQ_CUDA_FAULT")).
  static Faults from_environment();

  Kind kind() const { return kind_; }
  bool any() const { return kind_ != Kind::kNone; }

  // Each throws DeviceError when the planned fault is due.
  void at_open(int ordinal) const;
  void before_alloc(size_t bytes);
  void before_launch(int ordinal, int64_t first_frame, int frames, const char* what) const;
  void before_frame(int ordinal, int64_t frame);
  // Throws once the device has been lost.
  void check_alive(int ordinal) const;

 private:
  Kind kind_ = Kind::kNone;
  int64_t at_ = 0;
  int64_t allocations_ = 0;
  bool lost_ = false;
  int64_t lost_at_ = 0;
  std::string spec_;
};

// While one lives on a thread, device allocations made by that thread (through
// cuda_resources.h) ask `faults` first. Runs of one device set it around their
// work; nothing is shared between devices.
class FaultScope {
 public:
  explicit FaultScope(Faults* faults);
  ~FaultScope();
  FaultScope(const FaultScope&) = delete;
  FaultScope& operator=(const FaultScope&) = delete;

 private:
  Faults* previous_;
};

// The faults of the device working on this thread, or null.
Faults* current_faults();

}  // namespace exactvq::cuda
