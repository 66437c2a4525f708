#include "backends/cuda/device_pictures.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <limits>

#include "backends/cuda/cuda_check.h"
#include "backends/cuda/sample_range.h"
#include "core/error.h"

namespace exactvq::cuda {

int device_holding(const void* pointer) {
  cudaPointerAttributes a{};
  if (cudaPointerGetAttributes(&a, pointer) != cudaSuccess) {
    cudaGetLastError();
    return -1;
  }
  return a.type == cudaMemoryTypeDevice || a.type == cudaMemoryTypeManaged ? a.device : -1;
}

GatheredPictures::GatheredPictures(std::span<const DevicePictureSource> sources,
                                   const VideoFormat& format, int ordinal, void* wait_for,
                                   const std::function<std::string(size_t)>& what)
    : ordinal_(ordinal), format_(format) {
  const int planes = format.plane_count();
  for (size_t i = 0; i < sources.size(); ++i)
    for (int p = 0; p < planes; ++p) {
      const void* data = sources[i].data[p];
      const ptrdiff_t row = ptrdiff_t(format.plane_width(p)) * format.bytes_per_sample();
      if (!data) throw InputError(fmt::format("{}: plane {} is null", what(i), plane_name(p)));
      const int holder = device_holding(data);
      if (holder != ordinal)
        throw InputError(
            holder < 0
                ? fmt::format("{}: plane {} is not in CUDA device memory", what(i), plane_name(p))
                : fmt::format("{}: plane {} lies on CUDA device {}, the run scores on device {}",
                              what(i), plane_name(p), holder, ordinal));
      if (sources[i].stride[p] < row)
        throw InputError(
            fmt::format("{}: plane {} has a stride of {} bytes, shorter than its rows ({} bytes)",
                        what(i), plane_name(p), sources[i].stride[p], row));
    }

  check(cudaSetDevice(ordinal), "cudaSetDevice");
  Stream stream;
  if (wait_for) {
    // The caller's producer may still be writing on its stream.
    Event ready;
    check(cudaEventRecord(ready.get(), static_cast<cudaStream_t>(wait_for)),
          "cudaEventRecord on the caller's stream");
    check(cudaStreamWaitEvent(stream.get(), ready.get(), 0), "cudaStreamWaitEvent");
  }
  picture_stride_ = (Picture::span_bytes(format, planes) + 255) / 256 * 256;
  buffer_ = DeviceBuffer(std::max<size_t>(1, picture_stride_ * sources.size()));
  for (size_t i = 0; i < sources.size(); ++i) {
    uint8_t* base = buffer_.get() + picture_stride_ * i;
    for (int p = 0; p < planes; ++p) {
      const size_t row = size_t(format.plane_width(p)) * size_t(format.bytes_per_sample());
      check(cudaMemcpy2DAsync(base + Picture::plane_offset(format, p), row, sources[i].data[p],
                              size_t(sources[i].stride[p]), row, size_t(format.plane_height(p)),
                              cudaMemcpyDeviceToDevice, stream.get()),
            "copy of a picture's plane in device memory");
    }
    pictures_.push_back(Picture::in_device_memory(format, base));
  }

  // 8 and 16 bits: every sample a type holds is in range.
  if (format.bitdepth > 8 && format.bitdepth < 16 && !sources.empty()) {
    const size_t checks = sources.size() * size_t(planes);
    DeviceBuffer first(checks * sizeof(unsigned long long));
    check(cudaMemsetAsync(first.get(), 0xff, first.bytes(), stream.get()), "cudaMemsetAsync");
    auto* out = first.get<unsigned long long>();
    for (int p = 0; p < planes; ++p)
      for (size_t start = 0; start < sources.size(); start += 65535) {
        const int n = int(std::min<size_t>(65535, sources.size() - start));
        launch_first_sample_above(
            buffer_.get() + picture_stride_ * start + Picture::plane_offset(format, p),
            picture_stride_, n, format.plane_width(p), format.plane_height(p), format.max_sample(),
            out + size_t(p) * sources.size() + start, stream.get());
      }
    check(cudaGetLastError(), "launch of the sample check");
    std::vector<unsigned long long> host(checks);
    check(cudaMemcpyAsync(host.data(), out, first.bytes(), cudaMemcpyDeviceToHost, stream.get()),
          "read-back of the sample check");
    check(cudaStreamSynchronize(stream.get()), "the gather of pictures in device memory");
    for (size_t i = 0; i < sources.size(); ++i)
      for (int p = 0; p < planes; ++p) {
        const unsigned long long at = host[size_t(p) * sources.size() + i];
        if (at == std::numeric_limits<unsigned long long>::max()) continue;
        const int w = format.plane_width(p);
        uint16_t sample = 0;
        const uint8_t* plane =
            buffer_.get() + picture_stride_ * i + Picture::plane_offset(format, p);
        check(cudaMemcpy(&sample, plane + at * 2, 2, cudaMemcpyDeviceToHost),
              "read-back of a sample");
        throw InputError(
            fmt::format("{}: plane {}, x={}, y={}: sample {} exceeds the {}-bit maximum {}",
                        what(i), plane_name(p), at % unsigned(w), at / unsigned(w), sample,
                        format.bitdepth, format.max_sample()));
      }
    return;
  }
  check(cudaStreamSynchronize(stream.get()), "the gather of pictures in device memory");
}

void GatheredPictures::copy_to_host(size_t i, Picture& out) const {
  out.allocate(format_);
  check(cudaSetDevice(ordinal_), "cudaSetDevice");
  check(cudaMemcpy(out.plane_data(0), buffer_.get() + picture_stride_ * i, out.storage().size(),
                   cudaMemcpyDeviceToHost),
        "copy of a picture in device memory to the host");
}

}  // namespace exactvq::cuda
