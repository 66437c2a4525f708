#include "backends/cuda/cuda_device.h"

#include <cuda_runtime_api.h>

#include <map>
#include <mutex>
#include <thread>

#include <fmt/format.h>

#include "core/error.h"
#include "backends/cuda/cuda_check.h"

namespace exactvq {

namespace cuda {

CudaDevice::CudaDevice(int ordinal, const VideoFormat&, Faults faults)
    : ordinal_(ordinal), faults_(std::make_shared<Faults>(std::move(faults))) {
  faults_->at_open(ordinal);
  check(cudaSetDevice(ordinal), "cudaSetDevice");
  cudaDeviceProp props{};
  check(cudaGetDeviceProperties(&props, ordinal), "cudaGetDeviceProperties");
  check(cudaFree(nullptr), "context creation");  // fail here, not in the first frame
  check(
      cudaDeviceGetAttribute(&fp32_per_fp64_, cudaDevAttrSingleToDoublePrecisionPerfRatio, ordinal),
      "cudaDeviceGetAttribute");
  description_ = fmt::format(
      "cuda device {}: {} (sm_{}{}, {} MiB, fp64 at 1/{} of the fp32 rate: {} term unless fp64= "
      "says otherwise)",
      ordinal, props.name, props.major, props.minor, props.totalGlobalMem >> 20, fp32_per_fp64_,
      emulate_by_default() ? "emulated (softfp)" : "native binary64");
}

std::shared_ptr<BatchRunner> CudaDevice::runner(const VideoFormat& format) {
  std::lock_guard lock(mutex_);
  std::erase_if(runners_, [](const std::weak_ptr<BatchRunner>& w) { return w.expired(); });
  for (const auto& w : runners_)
    if (auto r = w.lock(); r && r->format() == format) return r;
  auto r = std::make_shared<BatchRunner>(format, ordinal_, faults_, tuning_);
  runners_.push_back(r);
  return r;
}

CudaDevice& CudaDevice::of(Device& device) {
  if (device.kind() != DeviceKind::kCuda)
    throw DeviceError(fmt::format("{} is not a CUDA device", device.description()));
  return static_cast<CudaDevice&>(device);
}

}  // namespace cuda

namespace {

// The contexts being created ahead of open_cuda_device, by ordinal.
struct Warmups {
  std::mutex mutex;
  std::map<int, std::thread> threads;
};

Warmups& warmups() {
  static Warmups w;
  return w;
}

}  // namespace

void start_cuda_warmup(int ordinal) {
  Warmups& w = warmups();
  std::lock_guard lock(w.mutex);
  if (ordinal < 0 || w.threads.count(ordinal)) return;
  // Errors are left for open_cuda_device to meet and report in its own words.
  w.threads.emplace(ordinal, std::thread([ordinal] {
                      if (cudaSetDevice(ordinal) == cudaSuccess) cudaFree(nullptr);
                      cudaGetLastError();
                    }));
}

void finish_cuda_warmup(int ordinal) {
  std::thread thread;
  {
    Warmups& w = warmups();
    std::lock_guard lock(w.mutex);
    auto it = w.threads.find(ordinal);
    if (it == w.threads.end()) return;
    thread = std::move(it->second);
    w.threads.erase(it);
  }
  if (thread.joinable()) thread.join();
}

int count_cuda_devices() {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess) {
    cudaGetLastError();
    return 0;
  }
  return count;
}

std::shared_ptr<Device> open_cuda_device(const DeviceOptions& o, const VideoFormat& format) {
  finish_cuda_warmup(o.gpu);
  cuda::Faults faults = cuda::Faults::from_environment();  // tests only; read once per open
  int count = 0;
  const cudaError_t status = cudaGetDeviceCount(&count);
  if (status != cudaSuccess) {
    cudaGetLastError();
    throw DeviceError(fmt::format("no CUDA device ({})", cudaGetErrorString(status)));
  }
  if (count == 0) throw DeviceError("no CUDA device");
  if (o.gpu < 0 || o.gpu >= count)
    throw DeviceError(fmt::format("--gpu {}: there {} {} CUDA device{} (0..{})", o.gpu,
                                  count == 1 ? "is" : "are", count, count == 1 ? "" : "s",
                                  count - 1));
  return std::make_shared<cuda::CudaDevice>(o.gpu, format, std::move(faults));
}

}  // namespace exactvq
