// Pictures that a caller holds in CUDA device memory (a torch or CuPy array, a
// decoder's surface): gathered into one device buffer laid out as Pictures are
// (Picture::in_device_memory), so that the CUDA engines score them with a
// device-to-device copy instead of an upload, with their samples checked as a
// host import checks them.
#pragma once

#include <cstddef>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "backends/cuda/cuda_resources.h"
#include "core/picture.h"

namespace exactvq::cuda {

// One caller's picture: each plane's first sample and its row stride in bytes.
struct DevicePictureSource {
  const void* data[3] = {};
  ptrdiff_t stride[3] = {};
};

// The CUDA device whose memory holds `pointer`, or -1 for host memory and
// pointers CUDA does not know.
int device_holding(const void* pointer);

class GatheredPictures {
 public:
  // Once the work queued on `wait_for` (a cudaStream_t; null: none) is done,
  // copies each source, a picture of `format`, into one buffer on device
  // `ordinal`. Throws InputError naming what(i) and the plane for a null plane,
  // a plane outside device `ordinal`'s memory or a stride shorter than a row,
  // and what(i), the plane, x and y of the first sample above 2^bitdepth - 1.
  GatheredPictures(std::span<const DevicePictureSource> sources, const VideoFormat& format,
                   int ordinal, void* wait_for, const std::function<std::string(size_t)>& what);

  size_t size() const { return pictures_.size(); }
  const Picture& picture(size_t i) const { return pictures_[i]; }
  // Copies picture i into host memory (runs whose features read pictures on
  // the host).
  void copy_to_host(size_t i, Picture& out) const;

 private:
  int ordinal_;
  VideoFormat format_;
  size_t picture_stride_ = 0;
  DeviceBuffer buffer_;
  std::vector<Picture> pictures_;
};

}  // namespace exactvq::cuda
