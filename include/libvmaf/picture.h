/* libvmaf 3.2.0's picture interface, as exactvq's libvmaf.so.3 provides it.
 * The declarations are the interface's (same names, types and layout as
 * upstream's include/libvmaf/picture.h); the comments are exactvq's. */
#ifndef EXACTVQ_LIBVMAF_PICTURE_H
#define EXACTVQ_LIBVMAF_PICTURE_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

enum VmafPixelFormat {
  VMAF_PIX_FMT_UNKNOWN,
  VMAF_PIX_FMT_YUV420P,
  VMAF_PIX_FMT_YUV422P,
  VMAF_PIX_FMT_YUV444P,
  VMAF_PIX_FMT_YUV400P,
};

/* The reference count a picture shares with its copies; owned by the library. */
typedef struct VmafRef VmafRef;

/* One picture in planar YUV: samples are bytes when bpc is 8, else uint16_t
 * words in host order. Strides are in bytes. `ref` and `priv` belong to the
 * library: pictures are made by vmaf_picture_alloc (or fetched from a pool) and
 * given back by vmaf_picture_unref or vmaf_read_pictures. */
typedef struct VmafPicture {
  enum VmafPixelFormat pix_fmt;
  unsigned bpc;
  unsigned w[3], h[3];
  ptrdiff_t stride[3];
  void* data[3];
  VmafRef* ref;
  void* priv;
} VmafPicture;

/* Allocates a zeroed w x h picture: rows start 32-byte aligned, chroma planes
 * are w >> 1 (4:2:0, 4:2:2) by h >> 1 (4:2:0), and 4:0:0 has no chroma planes.
 * Its reference count starts at 1. 0, or -EINVAL / -ENOMEM. */
int vmaf_picture_alloc(VmafPicture* pic, enum VmafPixelFormat pix_fmt, unsigned bpc, unsigned w,
                       unsigned h);

/* Drops one reference; the last frees (or returns to its pool) the memory. The
 * struct is zeroed. -EINVAL for NULL or a picture that holds no reference. */
int vmaf_picture_unref(VmafPicture* pic);

#ifdef __cplusplus
}
#endif

#endif /* EXACTVQ_LIBVMAF_PICTURE_H */
