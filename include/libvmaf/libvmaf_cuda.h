/* libvmaf 3.2.0's CUDA interface, as exactvq's libvmaf.so.3 provides it
 * (upstream's include/libvmaf/libvmaf_cuda.h; comments exactvq's). Present in
 * every build: without CUDA compiled in, the functions return -EINVAL. */
#ifndef EXACTVQ_LIBVMAF_LIBVMAF_CUDA_H
#define EXACTVQ_LIBVMAF_LIBVMAF_CUDA_H

#include "libvmaf.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct VmafCudaState VmafCudaState;

typedef struct VmafCudaConfiguration {
  void* cu_ctx; /* a CUcontext to score in; NULL: the library picks device 0 */
} VmafCudaConfiguration;

/* Makes a CUDA state for vmaf_cuda_import_state. */
int vmaf_cuda_state_init(VmafCudaState** cu_state, VmafCudaConfiguration cfg);

/* Scores the context on the state's CUDA device (unless cfg.gpumask is set). */
int vmaf_cuda_import_state(VmafContext* vmaf, VmafCudaState* cu_state);

enum VmafCudaPicturePreallocationMethod {
  VMAF_CUDA_PICTURE_PREALLOCATION_METHOD_NONE = 0,
  VMAF_CUDA_PICTURE_PREALLOCATION_METHOD_DEVICE,
  VMAF_CUDA_PICTURE_PREALLOCATION_METHOD_HOST,
  VMAF_CUDA_PICTURE_PREALLOCATION_METHOD_HOST_PINNED,
};

typedef struct VmafCudaPictureConfiguration {
  struct {
    unsigned w, h;
    unsigned bpc;
    enum VmafPixelFormat pix_fmt;
  } pic_params;
  enum VmafCudaPicturePreallocationMethod pic_prealloc_method;
} VmafCudaPictureConfiguration;

int vmaf_cuda_preallocate_pictures(VmafContext* vmaf, VmafCudaPictureConfiguration cfg);

int vmaf_cuda_fetch_preallocated_picture(VmafContext* vmaf, VmafPicture* pic);

#ifdef __cplusplus
}
#endif

#endif /* EXACTVQ_LIBVMAF_LIBVMAF_CUDA_H */
