// Video format and frame storage shared by readers and scorers.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/zeroed_bytes.h"

namespace exactvq {

enum class ChromaFormat { k420, k422, k444, kMono };

// "420", "422", "444" or "mono".
const char* chroma_name(ChromaFormat c);

// Largest plane dimension and sample count we accept; refused before any allocation.
inline constexpr int kMaxDimension = 1 << 16;
inline constexpr int64_t kMaxLumaSamples = int64_t{1} << 28;  // 16384 x 16384

struct VideoFormat {
  int width = 0;
  int height = 0;
  ChromaFormat chroma = ChromaFormat::k420;
  int bitdepth = 8;  // 8..16

  int plane_count() const { return chroma == ChromaFormat::kMono ? 1 : 3; }
  // Chroma of odd sizes is ceil(W/2) x ceil(H/2), as FFmpeg stores it.
  int plane_width(int plane) const;
  int plane_height(int plane) const;
  int bytes_per_sample() const { return bitdepth > 8 ? 2 : 1; }
  size_t plane_bytes(int plane) const;
  size_t frame_bytes() const;
  uint32_t max_sample() const { return (uint32_t{1} << bitdepth) - 1; }
  bool operator==(const VideoFormat&) const = default;
  std::string describe() const;  // e.g. "576x324 420 10-bit"
};

// Throws InputError naming `what` unless the format is one we can hold:
// 1..kMaxDimension per side, at most kMaxLumaSamples, bit depth 8..16.
void validate_format(const VideoFormat& f, const std::string& what);

// A read-only window on one plane. Samples are uint8_t when bytes_per_sample
// is 1, else host-endian uint16_t; stride is in bytes.
struct PlaneView {
  const uint8_t* data = nullptr;
  ptrdiff_t stride = 0;
  int width = 0;
  int height = 0;
  int bytes_per_sample = 1;

  template <typename Sample>
  const Sample* row(int y) const {
    return reinterpret_cast<const Sample*>(data + y * stride);
  }
};

// One frame: its planes stored tightly (stride = width * bytes per sample), in
// one buffer, Y then Cb then Cr, each starting at plane_offset() (a multiple
// of 64 bytes): a GPU upload takes a frame's scored planes in one copy.
struct Picture {
  VideoFormat format;
  std::array<std::span<uint8_t>, 3> planes;  // views into the picture's own buffer

  Picture() = default;
  Picture(const Picture& other);
  Picture& operator=(const Picture& other);
  Picture(Picture&& other) noexcept;
  Picture& operator=(Picture&& other) noexcept;

  // Sizes the buffer for `f`; the buffer stays where it is when its size does
  // not change (page-locked pictures stay page-locked), its contents are kept.
  // Bytes it adds are zero (ZeroedBytes: not written, so a plane no one fills
  // is never touched).
  void allocate(const VideoFormat& f);
  PlaneView plane(int p) const;
  uint8_t* plane_data(int p) { return planes[p].data(); }
  // The whole buffer (every plane and the padding between them); empty for a
  // picture in device memory.
  std::span<const uint8_t> storage() const { return storage_; }

  // A picture whose planes lie in a CUDA device's memory at `base`, laid out
  // as a picture's own buffer is (plane_offset), owned by the caller. Only a
  // CUDA engine's upload reads such a picture (Feature::scores_device_pictures):
  // its copies go device to device.
  static Picture in_device_memory(const VideoFormat& f, uint8_t* base);
  bool on_device() const { return on_device_; }

  // Where plane p starts in a picture of format f, and the bytes from plane
  // 0's start to plane `count - 1`'s end.
  static size_t plane_offset(const VideoFormat& f, int p);
  static size_t span_bytes(const VideoFormat& f, int count);

 private:
  void bind();  // points planes at storage_ for format
  ZeroedBytes storage_;
  bool on_device_ = false;  // planes view device memory; storage_ is empty
};

const char* plane_name(int plane);  // "Y", "Cb", "Cr"

// One frame pair of a batch. `index` is the frame's number in the run, unique
// and increasing, so a device can tell whether it already holds the pair (and
// may page-lock the pictures, which stay in place from batch to batch); a
// loose pair (kLoose: one picture pair scored on its own) is neither shared
// nor page-locked.
struct FramePair {
  static constexpr int64_t kLoose = -1;
  const Picture* ref = nullptr;
  const Picture* dist = nullptr;
  int64_t index = kLoose;
  bool loose() const { return index < 0; }
};

}  // namespace exactvq
