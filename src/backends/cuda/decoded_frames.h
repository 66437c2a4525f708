// Frames that libavcodec's CUDA hardware decoding (NVDEC) leaves in device
// memory, turned into exactvq's pictures without leaving the device: each
// frame is converted on the decoder's own stream into a picture in device
// memory (Picture::in_device_memory) that the CUDA engines take with a device
// to device copy, or, for a run that scores on the host, copied to the host.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>

#include "backends/cuda/cuda_resources.h"
#include "core/picture.h"

namespace exactvq::cuda {

// A decoded frame as the decoder hands it out: plane 0 luma; with
// `interleaved_chroma` (NV12, P010, P016) plane 1 holds Cb and Cr pairs, else
// planes 1 and 2 hold Cb and Cr (YUV444P, YUV444P16). Samples of 2 bytes keep
// their value in the high bits. The picture starts crop_left samples and
// crop_top rows into the planes (chroma: halved for 4:2:0).
struct DecodedFrame {
  const uint8_t* data[3] = {};
  ptrdiff_t stride[3] = {};
  bool interleaved_chroma = false;
  int bytes = 1;
  int crop_left = 0;
  int crop_top = 0;
};

class DecodedFrameImport {
 public:
  // On CUDA device `ordinal`, with a stream of its own.
  explicit DecodedFrameImport(int ordinal);
  ~DecodedFrameImport();
  DecodedFrameImport(const DecodedFrameImport&) = delete;
  DecodedFrameImport& operator=(const DecodedFrameImport&) = delete;

  int ordinal() const { return ordinal_; }
  // The stream (a cudaStream_t) the decoder is given for its copies, so that
  // the conversion is ordered after them with no wait on the host.
  void* stream() const;
  // The device's primary context (a CUcontext): the one the CUDA runtime, hence
  // the scoring, uses; the decoder runs in it.
  void* context() const;

  // Converts `frame` into `pic`, a picture of `format` (4:2:0 for interleaved
  // chroma, else 4:4:4; bytes 2 for depths above 8): with `on_device`, in a
  // device buffer this import keeps for `pic` (the same Picture object gets
  // the same buffer, read after read, so a batch's pictures stay where they
  // are), else in pic's host storage. Returns when the picture is complete.
  // Throws InputError naming what() and the plane, x and y of a sample whose
  // bits below the depth are set (not a sample of that depth), DeviceError on
  // CUDA failures.
  void import(const DecodedFrame& frame, const VideoFormat& format, Picture& pic, bool on_device,
              const std::function<std::string()>& what);

  // Converts `frame` into `base`, device memory of Picture::span_bytes for
  // `format`; checks as import() does. Returns when the picture is complete.
  void convert(const DecodedFrame& frame, const VideoFormat& format, uint8_t* base,
               const std::function<std::string()>& what);

  // A picture convert() left at `base` (on this import's device), into `pic`
  // as import() leaves it: copied into pic's device buffer, or to the host.
  void import_converted(const uint8_t* base, const VideoFormat& format, Picture& pic,
                        bool on_device);

  // A picture in host memory (decoded on the CPU) into `pic` as import()
  // leaves it: uploaded into pic's device buffer, or moved.
  void import_host(Picture&& host, Picture& pic, bool on_device);

  // Device memory free now, in bytes.
  size_t free_memory() const;

 private:
  struct Resources;
  int ordinal_;
  std::unique_ptr<Resources> r_;
};

// Device buffers of one size for converted pictures, for decoders that run
// ahead of the reads (segment-parallel decoding), kept for the run: a buffer
// goes back to the pool when its last owner lets it go, and is lent again.
// They are carved from slabs of several (1, 1, 2, 4, ... up to 16 buffers or
// 512 MiB a cudaMalloc), not allocated one by one: a cudaMalloc waits on the context
// the decoders keep busy (2-3 ms each beside 8 sessions on an H100), and every
// cudaFree synchronizes the device. The slabs are freed when the pool and the
// last picture lent are gone. Thread-safe.
class DevicePicturePool {
 public:
  // Buffers of `bytes`; slabs hold at most `most` buffers in all (the pictures
  // the decoders may hold at once) unless more are taken at once. Each slab's
  // allocation is tallied in the start-up trace as `tally`.
  DevicePicturePool(int ordinal, size_t bytes, size_t most,
                    std::string_view tally = "gpu picture slabs");
  std::shared_ptr<uint8_t> take();

 private:
  struct Shared;
  std::shared_ptr<Shared> shared_;
};

}  // namespace exactvq::cuda
