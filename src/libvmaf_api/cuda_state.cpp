// libvmaf's CUDA state functions. A state names the CUDA device a context
// scores on (exactvq's CUDA backend, where compiled in): the device of the
// caller's CUcontext, or device 0. Pictures are in host memory (exactvq copies
// them to the device), or in device memory when preallocated with METHOD_DEVICE
// (then scored there without a copy to the host). Without CUDA,
// vmaf_cuda_state_init is -EINVAL.
#include <cerrno>
#include <cstdlib>
#include <memory>
#include <new>

#ifdef EXACTVQ_HAVE_CUDA
#include <cuda_runtime_api.h>
#endif

#include "libvmaf/libvmaf_cuda.h"
#include "libvmaf_api/context.h"
#include "libvmaf_api/log.h"

struct VmafCudaState {
  int device = 0;
};

using namespace exactvq::libvmaf_api;

#ifdef EXACTVQ_HAVE_CUDA
namespace {

// A driver API function, found through the runtime (exactvq does not link libcuda).
template <typename Function>
Function driver_function(const char* name) {
  void* function = nullptr;
  cudaDriverEntryPointQueryResult found{};
  if (cudaGetDriverEntryPointByVersion(name, &function, 12000, cudaEnableDefault, &found) !=
          cudaSuccess ||
      found != cudaDriverEntryPointSuccess)
    return nullptr;
  return reinterpret_cast<Function>(function);
}

// The device of a caller's CUcontext: made current for a moment, asked, restored.
int device_of_context(void* context) {
  using Push = int (*)(void*);
  using GetDevice = int (*)(int*);
  using Pop = int (*)(void**);
  const auto push = driver_function<Push>("cuCtxPushCurrent");
  const auto get_device = driver_function<GetDevice>("cuCtxGetDevice");
  const auto pop = driver_function<Pop>("cuCtxPopCurrent");
  if (!push || !get_device || !pop || push(context) != 0) return -1;
  int device = -1;
  if (get_device(&device) != 0) device = -1;
  void* popped = nullptr;
  pop(&popped);
  return device;
}

}  // namespace
#endif

extern "C" int vmaf_cuda_state_init(VmafCudaState** cu_state, VmafCudaConfiguration cfg) {
  if (!cu_state) return -EINVAL;
  *cu_state = nullptr;
#ifdef EXACTVQ_HAVE_CUDA
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
    cudaGetLastError();  // clear the runtime's sticky error
    log_line(VMAF_LOG_LEVEL_ERROR, "vmaf_cuda_state_init: no CUDA device is usable");
    return -EINVAL;
  }
  // The caller's context names the device to score on; without one, device 0.
  const int device = cfg.cu_ctx ? device_of_context(cfg.cu_ctx) : 0;
  if (device < 0) {
    log_line(VMAF_LOG_LEVEL_ERROR,
             "vmaf_cuda_state_init: the CUcontext given could not be made current");
    return -EINVAL;
  }
  // malloc'd: libvmaf's API has no function to free a state, callers free() it.
  *cu_state = static_cast<VmafCudaState*>(std::malloc(sizeof(VmafCudaState)));
  if (!*cu_state) return -ENOMEM;
  (*cu_state)->device = device;
  return 0;
#else
  (void)cfg;
  log_line(VMAF_LOG_LEVEL_ERROR, "vmaf_cuda_state_init: this library was built without CUDA");
  return -EINVAL;
#endif
}

extern "C" int vmaf_cuda_import_state(VmafContext* vmaf, VmafCudaState* cu_state) {
  if (!vmaf || !cu_state) return -EINVAL;
  if (vmaf->started) {
    log_line(VMAF_LOG_LEVEL_ERROR, "vmaf_cuda_import_state: pictures were read already");
    return -EINVAL;
  }
  vmaf->cuda_device = cu_state->device;
  return 0;
}

extern "C" int vmaf_cuda_preallocate_pictures(VmafContext* vmaf, VmafCudaPictureConfiguration cfg) {
  if (!vmaf) return -EINVAL;
  switch (cfg.pic_prealloc_method) {
    case VMAF_CUDA_PICTURE_PREALLOCATION_METHOD_NONE:
      return 0;
    case VMAF_CUDA_PICTURE_PREALLOCATION_METHOD_HOST:
    case VMAF_CUDA_PICTURE_PREALLOCATION_METHOD_HOST_PINNED: {
      // Host pictures (pageable: exactvq copies them itself) from a pool.
      VmafPictureConfiguration host{};
      host.pic_params.w = cfg.pic_params.w;
      host.pic_params.h = cfg.pic_params.h;
      host.pic_params.bpc = cfg.pic_params.bpc;
      host.pic_params.pix_fmt = cfg.pic_params.pix_fmt;
      host.pic_cnt = 4;
      return vmaf_preallocate_pictures(vmaf, host);
    }
    case VMAF_CUDA_PICTURE_PREALLOCATION_METHOD_DEVICE: {
      // Pictures in the state's device memory (libvmaf's ring buffer holds 4).
      if (vmaf->cuda_device < 0) {
        log_line(VMAF_LOG_LEVEL_ERROR,
                 "vmaf_cuda_preallocate_pictures: METHOD_DEVICE needs a CUDA state "
                 "(vmaf_cuda_import_state)");
        return -EINVAL;
      }
      if (!cfg.pic_params.w || !cfg.pic_params.h) return -EINVAL;
      try {
        auto pool = std::make_shared<exactvq::libvmaf_api::PicturePool>(
            cfg.pic_params.pix_fmt, cfg.pic_params.bpc, cfg.pic_params.w, cfg.pic_params.h, 4,
            exactvq::libvmaf_api::BlockPlace{vmaf->cuda_device});
        VmafPicture probe;  // checks the format and the device now
        if (const int err = pool->fetch(probe)) return err;
        vmaf_picture_unref(&probe);
        vmaf->pool = std::move(pool);
        return 0;
      } catch (const std::bad_alloc&) {
        return -ENOMEM;
      }
    }
  }
  log_line(VMAF_LOG_LEVEL_ERROR, "vmaf_cuda_preallocate_pictures: unknown method");
  return -EINVAL;
}

extern "C" int vmaf_cuda_fetch_preallocated_picture(VmafContext* vmaf, VmafPicture* pic) {
  if (!vmaf || !pic || !vmaf->pool) return -EINVAL;
  return vmaf_fetch_preallocated_picture(vmaf, pic);
}
