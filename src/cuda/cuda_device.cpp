#include "cuda/cuda_device.h"

#include <cuda_runtime_api.h>

#include <fmt/format.h>

#include "core/error.h"
#include "cuda/cuda_check.h"
#include "cuda/cuda_psnr_feature.h"
#include "cuda/cuda_ssim_feature.h"
#include "features/ssim_feature.h"

namespace exactvq {

namespace cuda {

CudaDevice::CudaDevice(int ordinal, const VideoFormat&) : ordinal_(ordinal) {
  check(cudaSetDevice(ordinal), "cudaSetDevice");
  cudaDeviceProp props{};
  check(cudaGetDeviceProperties(&props, ordinal), "cudaGetDeviceProperties");
  check(cudaFree(nullptr), "context creation");  // fail here, not in the first frame
  check(cudaDeviceGetAttribute(&fp32_per_fp64_, cudaDevAttrSingleToDoublePrecisionPerfRatio, ordinal),
        "cudaDeviceGetAttribute");
  description_ = fmt::format(
      "cuda device {}: {} (sm_{}{}, {} MiB, fp64 at 1/{} of the fp32 rate: {} term unless fp64= says otherwise)",
      ordinal, props.name, props.major, props.minor, props.totalGlobalMem >> 20, fp32_per_fp64_,
      emulate_by_default() ? "emulated (softfp)" : "native binary64");
}

std::unique_ptr<Feature> CudaDevice::make_feature(const FeatureSpec& spec,
                                                  const FeatureContext& ctx) {
  if (spec.name == "ssim") {
    const SsimOptions options = parse_ssim_options(spec);
    if (options.chroma && ctx.format.chroma == ChromaFormat::kMono)
      throw UsageError("feature ssim: chroma=true, but the input is monochrome (no Cb, Cr planes)");
    const bool emulate = options.fp64 == Fp64Mode::kEmulate ||
                         (options.fp64 == Fp64Mode::kAuto && emulate_by_default());
    return make_cuda_ssim_feature(options, ctx, ordinal_, emulate);
  }
  if (spec.name == "psnr") return make_cuda_psnr_feature(parse_psnr_options(spec), ctx, ordinal_);
  return nullptr;
}

}  // namespace cuda

std::shared_ptr<DeviceBackend> open_cuda_device(const DeviceOptions& o, const VideoFormat& format) {
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
  return std::make_shared<cuda::CudaDevice>(o.gpu, format);
}

}  // namespace exactvq
