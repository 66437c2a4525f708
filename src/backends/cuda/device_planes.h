// The same plane of several frames on a CUDA device, as the frame uploader
// leaves it for the engines' kernels.
#pragma once

#include <cstddef>

namespace exactvq::cuda {

// The same plane of `frames` frames, stored one after another on the device.
struct DevicePlanes {
  const void* ref = nullptr;
  const void* dist = nullptr;
  size_t frame_stride = 0;  // bytes from one frame's plane to the next
  int width = 0;            // samples; rows are stored tightly
  int height = 0;
  int bitdepth = 8;  // 8: uint8_t samples, 9..16: uint16_t
  int frames = 1;
};

}  // namespace exactvq::cuda
