// libvmaf's CUDA state functions. A state names the CUDA device a context
// scores on (exactvq's CUDA backend, where compiled in); pictures stay in host
// memory (exactvq copies them to the device). Without CUDA every call is -EINVAL.
#include <cerrno>
#include <cstdlib>

#include "libvmaf/libvmaf_cuda.h"
#include "libvmaf_api/context.h"
#include "libvmaf_api/log.h"

struct VmafCudaState {
  int device = 0;
};

using namespace exactvq::libvmaf_api;

extern "C" int vmaf_cuda_state_init(VmafCudaState** cu_state, VmafCudaConfiguration cfg) {
  if (!cu_state) return -EINVAL;
  *cu_state = nullptr;
#ifdef EXACTVQ_HAVE_CUDA
  if (cfg.cu_ctx) {
    // Finding a CUcontext's device needs the driver API, which exactvq does not load.
    log_line(VMAF_LOG_LEVEL_ERROR,
             "vmaf_cuda_state_init: a caller's CUcontext is not supported yet (pass NULL: "
             "device 0)");
    return -EINVAL;
  }
  // malloc'd: libvmaf's API has no function to free a state, callers free() it.
  *cu_state = static_cast<VmafCudaState*>(std::malloc(sizeof(VmafCudaState)));
  if (!*cu_state) return -ENOMEM;
  (*cu_state)->device = 0;
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
    case VMAF_CUDA_PICTURE_PREALLOCATION_METHOD_DEVICE:
      log_line(VMAF_LOG_LEVEL_ERROR,
               "vmaf_cuda_preallocate_pictures: pictures in device memory are not supported "
               "yet (use METHOD_HOST)");
      return -EINVAL;
  }
  log_line(VMAF_LOG_LEVEL_ERROR, "vmaf_cuda_preallocate_pictures: unknown method");
  return -EINVAL;
}

extern "C" int vmaf_cuda_fetch_preallocated_picture(VmafContext* vmaf, VmafPicture* pic) {
  if (!vmaf || !pic || !vmaf->pool) return -EINVAL;
  return vmaf_fetch_preallocated_picture(vmaf, pic);
}
