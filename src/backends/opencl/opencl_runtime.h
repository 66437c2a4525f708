// The OpenCL plumbing the backend needs: error checks that throw DeviceError,
// owning handles, the device list over all platforms, and program builds.
#pragma once

#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
#include <CL/cl.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/picture.h"
#include "backends/opencl/fault_injection.h"

namespace exactvq::opencl {

// "CL_OUT_OF_RESOURCES (-5)".
std::string error_name(cl_int status);

// Throws DeviceError("OpenCL <what> failed: <error>") unless status is CL_SUCCESS.
void check(cl_int status, const char* what);

inline void release(cl_context h) { clReleaseContext(h); }
inline void release(cl_command_queue h) { clReleaseCommandQueue(h); }
inline void release(cl_program h) { clReleaseProgram(h); }
inline void release(cl_kernel h) { clReleaseKernel(h); }
inline void release(cl_mem h) { clReleaseMemObject(h); }

// OpenCL objects the backend holds right now, over every opened device (adds
// `delta` first): for the tests that prove a failed run releases what it made.
long live_handle_count(long delta = 0);

// Owns one reference to an OpenCL object.
template <typename T>
class Handle {
 public:
  Handle() = default;
  explicit Handle(T h) : h_(h) {
    if (h_) live_handle_count(1);
  }
  Handle(Handle&& o) noexcept : h_(std::exchange(o.h_, nullptr)) {}
  Handle& operator=(Handle&& o) noexcept {
    if (this != &o) {
      reset();
      h_ = std::exchange(o.h_, nullptr);
    }
    return *this;
  }
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;
  ~Handle() { reset(); }

  T get() const { return h_; }
  void reset() {
    if (h_) {
      release(h_);
      live_handle_count(-1);
    }
    h_ = nullptr;
  }

 private:
  T h_ = nullptr;
};

// The build option that makes binary32 `/` and sqrt correctly rounded where the device can
// (DeviceContext::rounds_divide_sqrt_correctly).
inline constexpr const char* kCorrectlyRoundedDivideSqrt = "-cl-fp32-correctly-rounded-divide-sqrt";

struct DeviceEntry {
  cl_platform_id platform = nullptr;
  cl_device_id device = nullptr;
  std::string name;           // e.g. "cpu-haswell-AMD EPYC 7B13"
  std::string platform_name;  // e.g. "Portable Computing Language"
};

// Every device of every platform, in platform order: --opencl-device N indexes it.
// Empty when the ICD loader finds no platform.
std::vector<DeviceEntry> list_devices();

// One opened device: context and in-order queue, and the faults planned for it
// (fault_injection.h). Every queue call of the backend goes through it, so a
// planned fault or a lost device is seen wherever it happens.
class DeviceContext {
 public:
  DeviceContext(const DeviceEntry& entry, Faults faults);  // throws DeviceError
  cl_context context() const { return context_.get(); }
  cl_command_queue queue() const { return queue_.get(); }
  cl_device_id device() const { return device_; }
  Faults& faults() { return faults_; }

  // Compiles `source` for this device with the build `options` (clBuildProgram's); throws
  // DeviceError with the build log.
  Handle<cl_program> build(const char* source, const std::string& name,
                           const std::string& options = "");
  // Whether the device rounds binary32 division and square root correctly in programs built
  // with kCorrectlyRoundedDivideSqrt (CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT in its
  // CL_DEVICE_SINGLE_FP_CONFIG); without that option `/` and sqrt may be off by ulps.
  bool rounds_divide_sqrt_correctly() const;
  // A kernel of a built program; throws DeviceError.
  Handle<cl_kernel> kernel(cl_program program, const char* name) const;
  // A device buffer of `bytes` (at least 1); throws DeviceError.
  Handle<cl_mem> buffer(size_t bytes, const std::string& what);

  // Queue calls; each throws DeviceError("OpenCL <call> (<what>) failed: ...").
  // Blocking write of `bytes` from `data` (at `offset` in the buffer).
  void write(cl_mem buffer, size_t bytes, const void* data, const std::string& what,
             size_t offset = 0);
  // Copies a plane into `buffer`, tightly packed (through `staging` when its rows
  // are not); blocking, so the picture may change afterwards.
  void write_plane(cl_mem buffer, const PlaneView& plane, std::vector<uint8_t>& staging,
                   const std::string& what, size_t offset = 0);
  // Copies `bytes` from the start of `from` to `to` + `offset` on the device
  // (queued in order).
  void copy(cl_mem from, cl_mem to, size_t offset, size_t bytes, const std::string& what);
  // Blocking read of `bytes` (from `offset` in the buffer) into `data`.
  void read(cl_mem buffer, size_t bytes, void* data, const std::string& what, size_t offset = 0);
  // The same, not waited for (queued in order): `data` must stay as it is
  // (write) and is filled (read) only once finish() returns.
  void enqueue_write(cl_mem buffer, size_t bytes, const void* data, const std::string& what,
                     size_t offset = 0);
  void enqueue_read(cl_mem buffer, size_t bytes, void* data, const std::string& what,
                    size_t offset = 0);
  // Waits for everything queued.
  void finish(const std::string& what);
  // Enqueues `kernel` over `global` items in groups of `local` (null: any).
  void run(cl_kernel kernel, cl_uint dims, const size_t* global, const size_t* local,
           const std::string& what);

 private:
  // One transfer through the fault injection, blocking or queued.
  void transfer_write(cl_mem buffer, size_t bytes, const void* data, const std::string& what,
                      size_t offset, cl_bool blocking);
  void transfer_read(cl_mem buffer, size_t bytes, void* data, const std::string& what,
                     size_t offset, cl_bool blocking);
  // Throws for a status other than CL_SUCCESS, with the injection note if any.
  void check_call(cl_int status, const char* call, const std::string& what) const;
  // ": the device was lost before frame N" once it has been, else empty.
  std::string lost_cause() const;

  cl_device_id device_ = nullptr;
  Handle<cl_context> context_;
  Handle<cl_command_queue> queue_;
  Faults faults_;
};

template <typename T>
void set_arg(cl_kernel k, cl_uint index, const T& value) {
  check(clSetKernelArg(k, index, sizeof(T), &value), "clSetKernelArg");
}

inline void set_arg(cl_kernel k, cl_uint index, const Handle<cl_mem>& b) {
  const cl_mem m = b.get();
  check(clSetKernelArg(k, index, sizeof m, &m), "clSetKernelArg");
}

// Sets `k`'s arguments 0, 1, ... to `args`, in order, each as set_arg does.
template <typename... Args>
void set_args(cl_kernel k, const Args&... args) {
  cl_uint index = 0;
  (set_arg(k, index++, args), ...);
}

// The largest power of two <= min(cap, the kernel's work-group limit on the device).
size_t work_group_size(cl_kernel kernel, cl_device_id device, size_t cap);

// The rows of a work-group `width` items wide in `items` (work_group_size's);
// throws DeviceError naming `what` (the kernels) where not one row fits.
size_t group_rows(size_t items, size_t width, std::string_view what);

}  // namespace exactvq::opencl
