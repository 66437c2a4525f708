// The OpenCL plumbing the backend needs: error checks that throw DeviceError,
// owning handles, the device list over all platforms, and program builds.
#pragma once

#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
#include <CL/cl.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "core/picture.h"

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

// Owns one reference to an OpenCL object.
template <typename T>
class Handle {
 public:
  Handle() = default;
  explicit Handle(T h) : h_(h) {}
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
    if (h_) release(h_);
    h_ = nullptr;
  }

 private:
  T h_ = nullptr;
};

struct DeviceEntry {
  cl_platform_id platform = nullptr;
  cl_device_id device = nullptr;
  std::string name;           // e.g. "cpu-haswell-AMD EPYC 7B13"
  std::string platform_name;  // e.g. "Portable Computing Language"
};

// Every device of every platform, in platform order: --opencl-device N indexes it.
// Empty when the ICD loader finds no platform.
std::vector<DeviceEntry> list_devices();

// One opened device: context and in-order queue.
class DeviceContext {
 public:
  explicit DeviceContext(const DeviceEntry& entry);  // throws DeviceError
  cl_context context() const { return context_.get(); }
  cl_command_queue queue() const { return queue_.get(); }
  cl_device_id device() const { return device_; }

  // Compiles `source` for this device; throws DeviceError with the build log.
  Handle<cl_program> build(const char* source, const std::string& name) const;
  // A kernel of a built program; throws DeviceError.
  Handle<cl_kernel> kernel(cl_program program, const char* name) const;
  // A device buffer of `bytes` (at least 1); throws DeviceError.
  Handle<cl_mem> buffer(size_t bytes, const char* what) const;

 private:
  cl_device_id device_ = nullptr;
  Handle<cl_context> context_;
  Handle<cl_command_queue> queue_;
};

// Copies a plane into `buffer`, tightly packed (through `staging` when its rows
// are not); blocking, so the picture may change afterwards. Throws DeviceError.
void write_plane(cl_command_queue queue, cl_mem buffer, const PlaneView& plane,
                 std::vector<uint8_t>& staging);

template <typename T>
void set_arg(cl_kernel k, cl_uint index, const T& value) {
  check(clSetKernelArg(k, index, sizeof(T), &value), "clSetKernelArg");
}

inline void set_arg(cl_kernel k, cl_uint index, const Handle<cl_mem>& b) {
  const cl_mem m = b.get();
  check(clSetKernelArg(k, index, sizeof m, &m), "clSetKernelArg");
}

// The largest power of two <= min(cap, the kernel's work-group limit on the device).
size_t work_group_size(cl_kernel kernel, cl_device_id device, size_t cap);

}  // namespace exactvq::opencl
