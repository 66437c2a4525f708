// Test-only fault injection for the OpenCL backend.
//
// EXACTVQ_OPENCL_FAULT, read once when a device opens, makes that device fail on
// purpose, so tests (on PoCL in CI) can show what a user sees when a device
// misbehaves:
//   build, build@N  the N-th program build of the device fails (default 1: the
//                   probe built when the device opens; then each engine's program,
//                   built when the first engine that needs it is made); the
//                   compiler really runs, on a source that cannot compile
//   alloc, alloc@N  the N-th device buffer allocation fails, N >= 1
//                   (CL_MEM_OBJECT_ALLOCATION_FAILURE; default 1)
//   enqueue@N       every kernel enqueue for frame number N fails (CL_OUT_OF_RESOURCES)
//   lost@N          the device is lost just before frame N: every later write, read
//                   or enqueue fails (CL_DEVICE_NOT_AVAILABLE)
// Frame numbers are FramePair::index (the frame's number in the run); loose
// pairs, which have none, are numbered by the device in the order it sees them.
// Each failure is a DeviceError that names the call that failed and says it was
// injected. The state belongs to one opened device:
// two devices never share it.
#pragma once

#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
#include <CL/cl.h>

#include <cstdint>
#include <string>

namespace exactvq::opencl {

class Faults {
 public:
  enum class Kind { kNone, kBuild, kAlloc, kEnqueue, kLost };

  // From the value of EXACTVQ_OPENCL_FAULT (null or empty: none). Throws
  // DeviceError on a value it cannot read, so a typo cannot silently test nothing.
  static Faults parse(const char* value);
  // parse(getenv("EXACTVQ_OPENCL_FAULT")).
  static Faults from_environment();

  Kind kind() const { return kind_; }
  bool any() const { return kind_ != Kind::kNone; }
  // " (injected by EXACTVQ_OPENCL_FAULT=...)", for messages.
  std::string note() const;

  // True when this program build is the one planned to fail.
  bool fail_build();
  // The status an allocation reports instead of being made; CL_SUCCESS: make it.
  cl_int before_alloc();
  // Kernel enqueues, and every other queue call (writes, reads): the injected
  // status, or CL_SUCCESS.
  cl_int before_enqueue() const;
  cl_int before_transfer() const;
  // The device starts on frame `frame`; lost@N takes effect here.
  void begin_frame(int64_t frame);
  bool lost() const { return lost_; }
  int64_t frame() const { return frame_; }
  int64_t lost_at() const { return lost_at_; }

 private:
  Kind kind_ = Kind::kNone;
  int64_t at_ = 1;
  int64_t builds_ = 0;
  int64_t allocations_ = 0;
  int64_t frame_ = -1;
  bool lost_ = false;
  int64_t lost_at_ = 0;
  std::string spec_;
};

}  // namespace exactvq::opencl
