#include "backends/opencl/opencl_runtime.h"

#include <algorithm>
#include <atomic>
#include <cstring>

#include <fmt/format.h>

#include "core/error.h"

namespace exactvq::opencl {

std::string error_name(cl_int status) {
  const char* name = "unknown error";
  switch (status) {
    case CL_DEVICE_NOT_FOUND:
      name = "CL_DEVICE_NOT_FOUND";
      break;
    case CL_DEVICE_NOT_AVAILABLE:
      name = "CL_DEVICE_NOT_AVAILABLE";
      break;
    case CL_COMPILER_NOT_AVAILABLE:
      name = "CL_COMPILER_NOT_AVAILABLE";
      break;
    case CL_MEM_OBJECT_ALLOCATION_FAILURE:
      name = "CL_MEM_OBJECT_ALLOCATION_FAILURE";
      break;
    case CL_OUT_OF_RESOURCES:
      name = "CL_OUT_OF_RESOURCES";
      break;
    case CL_OUT_OF_HOST_MEMORY:
      name = "CL_OUT_OF_HOST_MEMORY";
      break;
    case CL_BUILD_PROGRAM_FAILURE:
      name = "CL_BUILD_PROGRAM_FAILURE";
      break;
    case CL_INVALID_VALUE:
      name = "CL_INVALID_VALUE";
      break;
    case CL_INVALID_DEVICE:
      name = "CL_INVALID_DEVICE";
      break;
    case CL_INVALID_BUFFER_SIZE:
      name = "CL_INVALID_BUFFER_SIZE";
      break;
    case CL_INVALID_KERNEL_NAME:
      name = "CL_INVALID_KERNEL_NAME";
      break;
    case CL_INVALID_KERNEL_ARGS:
      name = "CL_INVALID_KERNEL_ARGS";
      break;
    case CL_INVALID_WORK_GROUP_SIZE:
      name = "CL_INVALID_WORK_GROUP_SIZE";
      break;
    case CL_INVALID_WORK_ITEM_SIZE:
      name = "CL_INVALID_WORK_ITEM_SIZE";
      break;
    case CL_INVALID_GLOBAL_WORK_SIZE:
      name = "CL_INVALID_GLOBAL_WORK_SIZE";
      break;
    case CL_INVALID_COMMAND_QUEUE:
      name = "CL_INVALID_COMMAND_QUEUE";
      break;
    case CL_INVALID_MEM_OBJECT:
      name = "CL_INVALID_MEM_OBJECT";
      break;
    case CL_INVALID_OPERATION:
      name = "CL_INVALID_OPERATION";
      break;
    case -1001:
      name = "CL_PLATFORM_NOT_FOUND_KHR";
      break;
    default:
      break;
  }
  return fmt::format("{} ({})", name, status);
}

void check(cl_int status, const char* what) {
  if (status != CL_SUCCESS)
    throw DeviceError(fmt::format("OpenCL {} failed: {}", what, error_name(status)));
}

namespace {

std::string device_string(cl_device_id d, cl_device_info what) {
  size_t size = 0;
  if (clGetDeviceInfo(d, what, 0, nullptr, &size) != CL_SUCCESS || size == 0) return "?";
  std::string s(size, '\0');
  if (clGetDeviceInfo(d, what, size, s.data(), nullptr) != CL_SUCCESS) return "?";
  while (!s.empty() && s.back() == '\0') s.pop_back();
  return s;
}

std::string platform_string(cl_platform_id p, cl_platform_info what) {
  size_t size = 0;
  if (clGetPlatformInfo(p, what, 0, nullptr, &size) != CL_SUCCESS || size == 0) return "?";
  std::string s(size, '\0');
  if (clGetPlatformInfo(p, what, size, s.data(), nullptr) != CL_SUCCESS) return "?";
  while (!s.empty() && s.back() == '\0') s.pop_back();
  return s;
}

}  // namespace

std::vector<DeviceEntry> list_devices() {
  std::vector<DeviceEntry> out;
  cl_uint platforms = 0;
  if (clGetPlatformIDs(0, nullptr, &platforms) != CL_SUCCESS || platforms == 0) return out;
  std::vector<cl_platform_id> ids(platforms);
  if (clGetPlatformIDs(platforms, ids.data(), nullptr) != CL_SUCCESS) return out;
  for (cl_platform_id p : ids) {
    cl_uint count = 0;
    if (clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 0, nullptr, &count) != CL_SUCCESS || count == 0)
      continue;
    std::vector<cl_device_id> devices(count);
    if (clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, count, devices.data(), nullptr) != CL_SUCCESS)
      continue;
    for (cl_device_id d : devices)
      out.push_back({p, d, device_string(d, CL_DEVICE_NAME), platform_string(p, CL_PLATFORM_NAME)});
  }
  return out;
}

long live_handle_count(long delta) {
  static std::atomic<long> count{0};
  return count.fetch_add(delta) + delta;
}

DeviceContext::DeviceContext(const DeviceEntry& entry, Faults faults)
    : device_(entry.device), faults_(std::move(faults)) {
  cl_int status = CL_SUCCESS;
  const cl_context_properties props[] = {
      CL_CONTEXT_PLATFORM, reinterpret_cast<cl_context_properties>(entry.platform), 0};
  context_ = Handle<cl_context>(clCreateContext(props, 1, &device_, nullptr, nullptr, &status));
  check(status, "clCreateContext");
  queue_ = Handle<cl_command_queue>(clCreateCommandQueue(context_.get(), device_, 0, &status));
  check(status, "clCreateCommandQueue");
}

void DeviceContext::check_call(cl_int status, const char* call, const std::string& what) const {
  if (status == CL_SUCCESS) return;
  throw DeviceError(fmt::format("OpenCL {} ({}) failed: {}{}{}", call, what, error_name(status),
                                lost_cause(), faults_.note()));
}

std::string DeviceContext::lost_cause() const {
  return faults_.lost() ? fmt::format(": the device was lost before frame {}", faults_.lost_at())
                        : std::string();
}

Handle<cl_program> DeviceContext::build(const char* source, const std::string& name,
                                        const std::string& options) {
  // An injected build failure compiles a source that cannot compile, so the
  // compiler's error and its log take the same path as a real one.
  static const char* const kBroken =
      "__kernel void exactvq_injected_fault(__global int* p) { p[0] = ; }\n";
  const bool injected = faults_.fail_build();
  if (injected) source = kBroken;
  cl_int status = CL_SUCCESS;
  Handle<cl_program> program(
      clCreateProgramWithSource(context_.get(), 1, &source, nullptr, &status));
  check(status, "clCreateProgramWithSource");
  status = clBuildProgram(program.get(), 1, &device_, options.c_str(), nullptr, nullptr);
  if (status != CL_SUCCESS) {
    size_t size = 0;
    std::string log;
    if (clGetProgramBuildInfo(program.get(), device_, CL_PROGRAM_BUILD_LOG, 0, nullptr, &size) ==
            CL_SUCCESS &&
        size > 1) {
      log.resize(size);
      clGetProgramBuildInfo(program.get(), device_, CL_PROGRAM_BUILD_LOG, size, log.data(),
                            nullptr);
      while (!log.empty() && (log.back() == '\0' || log.back() == '\n')) log.pop_back();
    }
    throw DeviceError(fmt::format("OpenCL build of {} failed: {}{}{}{}", name, error_name(status),
                                  injected ? faults_.note() : std::string(),
                                  log.empty() ? "" : "\n", log));
  }
  return program;
}

bool DeviceContext::rounds_divide_sqrt_correctly() const {
  cl_device_fp_config config = 0;
  check(clGetDeviceInfo(device_, CL_DEVICE_SINGLE_FP_CONFIG, sizeof config, &config, nullptr),
        "clGetDeviceInfo(CL_DEVICE_SINGLE_FP_CONFIG)");
  return (config & CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT) != 0;
}

Handle<cl_kernel> DeviceContext::kernel(cl_program program, const char* name) const {
  cl_int status = CL_SUCCESS;
  Handle<cl_kernel> k(clCreateKernel(program, name, &status));
  check(status, fmt::format("clCreateKernel({})", name).c_str());
  return k;
}

Handle<cl_mem> DeviceContext::buffer(size_t bytes, const std::string& what) {
  cl_int status = faults_.before_alloc();
  Handle<cl_mem> b;
  if (status == CL_SUCCESS)
    b = Handle<cl_mem>(
        clCreateBuffer(context_.get(), CL_MEM_READ_WRITE, bytes ? bytes : 1, nullptr, &status));
  if (status != CL_SUCCESS)
    throw DeviceError(fmt::format("OpenCL: cannot allocate {} ({} bytes): {}{}{}", what, bytes,
                                  error_name(status), lost_cause(), faults_.note()));
  return b;
}

void DeviceContext::write(cl_mem buffer, size_t bytes, const void* data, const std::string& what,
                          size_t offset) {
  transfer_write(buffer, bytes, data, what, offset, CL_TRUE);
}

void DeviceContext::transfer_write(cl_mem buffer, size_t bytes, const void* data,
                                   const std::string& what, size_t offset, cl_bool blocking) {
  cl_int status = faults_.before_transfer();
  if (status == CL_SUCCESS)
    status = clEnqueueWriteBuffer(queue_.get(), buffer, blocking, offset, bytes, data, 0, nullptr,
                                  nullptr);
  check_call(status, "clEnqueueWriteBuffer", what);
}

void DeviceContext::write_plane(cl_mem buffer, const PlaneView& plane,
                                std::vector<uint8_t>& staging, const std::string& what,
                                size_t offset) {
  const size_t row_bytes = size_t(plane.width) * size_t(plane.bytes_per_sample);
  const uint8_t* data = plane.data;
  if (plane.stride != ptrdiff_t(row_bytes)) {
    staging.resize(row_bytes * size_t(plane.height));
    for (int y = 0; y < plane.height; ++y)
      std::memcpy(staging.data() + size_t(y) * row_bytes, plane.data + y * plane.stride, row_bytes);
    data = staging.data();
  }
  write(buffer, row_bytes * size_t(plane.height), data, what, offset);
}

void DeviceContext::copy(cl_mem from, cl_mem to, size_t offset, size_t bytes,
                         const std::string& what) {
  cl_int status = faults_.before_transfer();
  if (status == CL_SUCCESS)
    status = clEnqueueCopyBuffer(queue_.get(), from, to, 0, offset, bytes, 0, nullptr, nullptr);
  check_call(status, "clEnqueueCopyBuffer", what);
}

void DeviceContext::read(cl_mem buffer, size_t bytes, void* data, const std::string& what,
                         size_t offset) {
  transfer_read(buffer, bytes, data, what, offset, CL_TRUE);
}

void DeviceContext::transfer_read(cl_mem buffer, size_t bytes, void* data, const std::string& what,
                                  size_t offset, cl_bool blocking) {
  cl_int status = faults_.before_transfer();
  if (status == CL_SUCCESS)
    status = clEnqueueReadBuffer(queue_.get(), buffer, blocking, offset, bytes, data, 0, nullptr,
                                 nullptr);
  check_call(status, "clEnqueueReadBuffer", what);
}

void DeviceContext::enqueue_write(cl_mem buffer, size_t bytes, const void* data,
                                  const std::string& what, size_t offset) {
  transfer_write(buffer, bytes, data, what, offset, CL_FALSE);
}

void DeviceContext::enqueue_read(cl_mem buffer, size_t bytes, void* data, const std::string& what,
                                 size_t offset) {
  transfer_read(buffer, bytes, data, what, offset, CL_FALSE);
}

void DeviceContext::finish(const std::string& what) {
  check_call(clFinish(queue_.get()), "clFinish", what);
}

void DeviceContext::run(cl_kernel kernel, cl_uint dims, const size_t* global, const size_t* local,
                        const std::string& what) {
  cl_int status = faults_.before_enqueue();
  if (status == CL_SUCCESS)
    status = clEnqueueNDRangeKernel(queue_.get(), kernel, dims, nullptr, global, local, 0, nullptr,
                                    nullptr);
  check_call(status, "clEnqueueNDRangeKernel", what);
}

size_t work_group_size(cl_kernel kernel, cl_device_id device, size_t cap) {
  size_t limit = 0;
  check(clGetKernelWorkGroupInfo(kernel, device, CL_KERNEL_WORK_GROUP_SIZE, sizeof limit, &limit,
                                 nullptr),
        "clGetKernelWorkGroupInfo");
  size_t group = 1;
  while (group * 2 <= std::min(limit, cap)) group *= 2;
  return group;
}

size_t group_rows(size_t items, size_t width, std::string_view what) {
  if (items < width)
    throw DeviceError(fmt::format("{}: work-groups of {} items needed, the device allows {}", what,
                                  width, items));
  return items / width;
}

}  // namespace exactvq::opencl
