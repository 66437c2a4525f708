#include "backends/cuda/decoded_frames.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <limits>
#include <mutex>
#include <vector>

#include "backends/cuda/cuda_check.h"
#include "backends/cuda/decoded_surface.h"
#include "core/error.h"
#include "core/startup_trace.h"

namespace exactvq::cuda {

namespace {

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

struct DecodedFrameImport::Resources {
  explicit Resources(int device) : ordinal(device) {}

  int ordinal;
  Stream stream;
  DeviceBuffer first_stray{3 * sizeof(unsigned long long)};
  PinnedBuffer first_stray_host{3 * sizeof(unsigned long long)};
  // Device pictures, one buffer per Picture, from slabs (DevicePicturePool:
  // a batch pump's pictures are a few dozen, each a cudaMalloc otherwise).
  struct Slot {
    std::shared_ptr<uint8_t> buffer;
    size_t bytes = 0;
  };
  std::unordered_map<const Picture*, Slot> slots;
  std::unique_ptr<DevicePicturePool> slot_pool;  // of slot_bytes
  size_t slot_bytes = 0;
  DeviceBuffer scratch;  // the picture on its way to the host

  // `pic`'s device buffer (or the scratch one), of `bytes`.
  uint8_t* target(const Picture* pic, size_t bytes) {
    if (!pic) {
      if (scratch.bytes() != bytes) scratch = DeviceBuffer(bytes);
      return scratch.get();
    }
    Slot& slot = slots[pic];
    if (slot.bytes != bytes) {
      if (slot_bytes != bytes) {
        constexpr size_t kMostSlots = 64;  // slabs' growth bound, not a limit
        slot_pool = std::make_unique<DevicePicturePool>(ordinal, bytes, kMostSlots,
                                                        "gpu picture slot slabs");
        slot_bytes = bytes;
      }
      slot.buffer = slot_pool->take();
      slot.bytes = bytes;
    }
    return slot.buffer.get();
  }
};

DecodedFrameImport::DecodedFrameImport(int ordinal) : ordinal_(ordinal) {
  check(cudaSetDevice(ordinal), "cudaSetDevice");
  r_ = std::make_unique<Resources>(ordinal);
}

DecodedFrameImport::~DecodedFrameImport() {
  if (r_) cudaStreamSynchronize(r_->stream.get());
}

void* DecodedFrameImport::stream() const { return r_->stream.get(); }

void* DecodedFrameImport::context() const {
  check(cudaSetDevice(ordinal_), "cudaSetDevice");
  check(cudaFree(nullptr), "initialization of the device's primary context");
  // The driver's cuCtxGetCurrent, through the runtime (no link to libcuda).
  void* get_current = nullptr;
  cudaDriverEntryPointQueryResult found{};
  check(cudaGetDriverEntryPointByVersion("cuCtxGetCurrent", &get_current, 12000, cudaEnableDefault,
                                         &found),
        "cudaGetDriverEntryPointByVersion(cuCtxGetCurrent)");
  if (!get_current || found != cudaDriverEntryPointSuccess)
    throw DeviceError("CUDA driver: cuCtxGetCurrent not found");
  void* context = nullptr;
  if (reinterpret_cast<int (*)(void**)>(get_current)(&context) != 0 || !context)
    throw DeviceError("CUDA driver: cuCtxGetCurrent gave no context");
  return context;
}

void DecodedFrameImport::import(const DecodedFrame& frame, const VideoFormat& format, Picture& pic,
                                bool on_device, const std::function<std::string()>& what) {
  check(cudaSetDevice(ordinal_), "cudaSetDevice");
  const size_t bytes = Picture::span_bytes(format, format.plane_count());
  uint8_t* base = r_->target(on_device ? &pic : nullptr, bytes);
  convert(frame, format, base, what);
  if (on_device) {
    pic = Picture::in_device_memory(format, base);
  } else {
    pic.allocate(format);
    check(cudaMemcpy(pic.plane_data(0), base, bytes, cudaMemcpyDeviceToHost),
          "copy of a decoded frame to the host");
  }
}

void DecodedFrameImport::convert(const DecodedFrame& frame, const VideoFormat& format,
                                 uint8_t* base, const std::function<std::string()>& what) {
  check(cudaSetDevice(ordinal_), "cudaSetDevice");
  cudaStream_t stream = r_->stream.get();
  const int shift = frame.bytes == 2 ? 16 - format.bitdepth : 0;
  auto* first_stray = r_->first_stray.get<unsigned long long>();
  if (shift > 0)
    check(cudaMemsetAsync(first_stray, 0xff, r_->first_stray.bytes(), stream), "cudaMemsetAsync");
  const bool halved = format.chroma == ChromaFormat::k420;
  for (int p = 0; p < format.plane_count(); ++p) {
    SurfacePlane s;
    const int source = frame.interleaved_chroma && p > 0 ? 1 : p;
    const int left = p > 0 && halved ? frame.crop_left / 2 : frame.crop_left;
    const int top = p > 0 && halved ? frame.crop_top / 2 : frame.crop_top;
    s.step = frame.interleaved_chroma && p > 0 ? 2 : 1;
    s.offset = frame.interleaved_chroma && p == 2 ? 1 : 0;
    s.src = frame.data[source] + ptrdiff_t(top) * frame.stride[source] +
            ptrdiff_t(left) * s.step * frame.bytes;
    s.src_stride = frame.stride[source];
    s.bytes = frame.bytes;
    s.shift = shift;
    s.width = format.plane_width(p);
    s.height = format.plane_height(p);
    launch_surface_plane(s, base + Picture::plane_offset(format, p), first_stray + p, stream);
  }
  check(cudaGetLastError(), "launch of the decoded frame's conversion");
  if (shift > 0)
    check(cudaMemcpyAsync(r_->first_stray_host.get(), first_stray, r_->first_stray.bytes(),
                          cudaMemcpyDeviceToHost, stream),
          "read-back of the decoded frame's sample check");
  check(cudaStreamSynchronize(stream), "the conversion of a decoded frame");
  if (shift > 0)
    for (int p = 0; p < format.plane_count(); ++p) {
      const unsigned long long at = r_->first_stray_host.get<unsigned long long>()[p];
      if (at == std::numeric_limits<unsigned long long>::max()) continue;
      const unsigned w = unsigned(format.plane_width(p));
      throw InputError(
          fmt::format("{}: plane {}, x={}, y={}: the hardware decoder's sample has bits set below "
                      "its {}-bit depth "
                      "(not a {}-bit sample)",
                      what(), plane_name(p), at % w, at / w, format.bitdepth, format.bitdepth));
    }
}

void DecodedFrameImport::import_converted(const uint8_t* base, const VideoFormat& format,
                                          Picture& pic, bool on_device) {
  check(cudaSetDevice(ordinal_), "cudaSetDevice");
  const size_t bytes = Picture::span_bytes(format, format.plane_count());
  cudaStream_t stream = r_->stream.get();
  if (on_device) {
    uint8_t* slot = r_->target(&pic, bytes);
    check(cudaMemcpyAsync(slot, base, bytes, cudaMemcpyDeviceToDevice, stream),
          "copy of a decoded picture in device memory");
    check(cudaStreamSynchronize(stream), "the copy of a decoded picture");
    pic = Picture::in_device_memory(format, slot);
    return;
  }
  pic.allocate(format);
  check(cudaMemcpyAsync(pic.plane_data(0), base, bytes, cudaMemcpyDeviceToHost, stream),
        "copy of a decoded frame to the host");
  check(cudaStreamSynchronize(stream), "the copy of a decoded frame to the host");
}

void DecodedFrameImport::import_host(Picture&& host, Picture& pic, bool on_device) {
  if (!on_device) {
    pic = std::move(host);
    return;
  }
  check(cudaSetDevice(ordinal_), "cudaSetDevice");
  const VideoFormat& format = host.format;
  const size_t bytes = Picture::span_bytes(format, format.plane_count());
  uint8_t* slot = r_->target(&pic, bytes);
  for (int p = 0; p < format.plane_count(); ++p)
    check(cudaMemcpyAsync(slot + Picture::plane_offset(format, p), host.plane_data(p),
                          format.plane_bytes(p), cudaMemcpyHostToDevice, r_->stream.get()),
          "upload of a picture decoded on the CPU");
  check(cudaStreamSynchronize(r_->stream.get()), "the upload of a picture decoded on the CPU");
  pic = Picture::in_device_memory(format, slot);
}

size_t DecodedFrameImport::free_memory() const {
  check(cudaSetDevice(ordinal_), "cudaSetDevice");
  size_t free = 0, total = 0;
  check(cudaMemGetInfo(&free, &total), "cudaMemGetInfo");
  return free;
}

struct DevicePicturePool::Shared {
  int ordinal;
  std::string tally;
  size_t bytes;   // a buffer's
  size_t stride;  // from one buffer of a slab to the next (aligned)
  size_t most;
  std::mutex mutex;
  std::vector<DeviceBuffer> slabs;
  std::vector<uint8_t*> free;
  size_t made = 0;  // buffers in the slabs

  // A slab of buffers, as many as already made (1 first), at most 16 and
  // 512 MiB (large pictures: fewer) and no more than `most` in all (one where
  // that is reached); its buffers on the free list.
  void add_slab() {
    constexpr size_t kLargestSlab = 16;
    constexpr size_t kLargestSlabBytes = size_t(512) << 20;
    const size_t fit = std::max<size_t>(kLargestSlabBytes / stride, 1);
    size_t n = std::clamp<size_t>(made, 1, std::min(kLargestSlab, fit));
    if (made < most)
      n = std::min(n, most - made);
    else
      n = 1;
    const auto start = std::chrono::steady_clock::now();
    check(cudaSetDevice(ordinal), "cudaSetDevice");
    slabs.emplace_back(stride * n);
    startup::tally(tally, seconds_since(start));
    uint8_t* base = slabs.back().get();
    for (size_t i = n; i-- > 0;) free.push_back(base + i * stride);
    made += n;
  }
};

DevicePicturePool::DevicePicturePool(int ordinal, size_t bytes, size_t most, std::string_view tally)
    : shared_(std::make_shared<Shared>()) {
  shared_->tally = tally;
  constexpr size_t kAlignment = 512;  // as cudaMalloc's own, and more
  shared_->ordinal = ordinal;
  shared_->bytes = bytes;
  shared_->stride = (std::max<size_t>(bytes, 1) + kAlignment - 1) / kAlignment * kAlignment;
  shared_->most = std::max<size_t>(most, 1);
}

std::shared_ptr<uint8_t> DevicePicturePool::take() {
  // A buffer lent out: back on the free list when its last owner lets go (the
  // lease keeps the slabs alive).
  struct Lease {
    std::shared_ptr<Shared> home;
    uint8_t* buffer = nullptr;
    ~Lease() {
      if (!buffer) return;
      std::lock_guard lock(home->mutex);
      home->free.push_back(buffer);
    }
  };
  auto lease = std::make_shared<Lease>();
  lease->home = shared_;
  {
    std::lock_guard lock(shared_->mutex);
    if (shared_->free.empty()) shared_->add_slab();
    lease->buffer = shared_->free.back();
    shared_->free.pop_back();
  }
  return std::shared_ptr<uint8_t>(lease, lease->buffer);
}

}  // namespace exactvq::cuda
