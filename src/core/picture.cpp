#include "core/picture.h"

#include <algorithm>
#include <utility>

#include <fmt/format.h>

#include "core/error.h"

namespace exactvq {

const char* chroma_name(ChromaFormat c) {
  switch (c) {
    case ChromaFormat::k420:
      return "420";
    case ChromaFormat::k422:
      return "422";
    case ChromaFormat::k444:
      return "444";
    case ChromaFormat::kMono:
      return "mono";
  }
  return "?";
}

const char* plane_name(int plane) {
  static const char* const kNames[] = {"Y", "Cb", "Cr"};
  return plane >= 0 && plane < 3 ? kNames[plane] : "?";
}

int VideoFormat::plane_width(int plane) const {
  if (plane == 0) return width;
  return (chroma == ChromaFormat::k420 || chroma == ChromaFormat::k422) ? (width + 1) / 2 : width;
}

int VideoFormat::plane_height(int plane) const {
  if (plane == 0) return height;
  return chroma == ChromaFormat::k420 ? (height + 1) / 2 : height;
}

size_t VideoFormat::plane_bytes(int plane) const {
  return size_t(plane_width(plane)) * size_t(plane_height(plane)) * size_t(bytes_per_sample());
}

size_t VideoFormat::frame_bytes() const {
  size_t total = 0;
  for (int p = 0; p < plane_count(); ++p) total += plane_bytes(p);
  return total;
}

std::string VideoFormat::describe() const {
  return fmt::format("{}x{} {} {}-bit", width, height, chroma_name(chroma), bitdepth);
}

void validate_format(const VideoFormat& f, const std::string& what) {
  if (f.width < 1 || f.height < 1)
    throw InputError(fmt::format("{}: invalid size {}x{} (width and height must be at least 1)",
                                 what, f.width, f.height));
  if (f.width > kMaxDimension || f.height > kMaxDimension ||
      int64_t{f.width} * f.height > kMaxLumaSamples)
    throw InputError(fmt::format(
        "{}: size {}x{} is beyond the supported limit ({} per side, {} samples per plane)", what,
        f.width, f.height, kMaxDimension, kMaxLumaSamples));
  if (f.bitdepth < 8 || f.bitdepth > 16)
    throw InputError(fmt::format("{}: unsupported bit depth {} (8..16)", what, f.bitdepth));
}

size_t Picture::plane_offset(const VideoFormat& f, int p) {
  size_t offset = 0;
  for (int q = 0; q < p && q < f.plane_count(); ++q)
    offset = (offset + f.plane_bytes(q) + 63) / 64 * 64;
  return offset;
}

size_t Picture::span_bytes(const VideoFormat& f, int count) {
  count = std::min(count, f.plane_count());
  return count <= 0 ? 0 : plane_offset(f, count - 1) + f.plane_bytes(count - 1);
}

void Picture::bind() {
  for (int p = 0; p < 3; ++p)
    planes[p] =
        p < format.plane_count()
            ? std::span<uint8_t>(storage_.data() + plane_offset(format, p), format.plane_bytes(p))
            : std::span<uint8_t>();
}

void Picture::allocate(const VideoFormat& f) {
  format = f;
  on_device_ = false;
  storage_.resize(span_bytes(f, f.plane_count()));
  bind();
}

Picture Picture::in_device_memory(const VideoFormat& f, uint8_t* base) {
  Picture p;
  p.format = f;
  p.on_device_ = true;
  for (int q = 0; q < 3; ++q)
    p.planes[q] = q < f.plane_count()
                      ? std::span<uint8_t>(base + plane_offset(f, q), f.plane_bytes(q))
                      : std::span<uint8_t>();
  return p;
}

// A copy of a picture in device memory is another view of the same memory.
Picture::Picture(const Picture& other)
    : format(other.format), storage_(other.storage_), on_device_(other.on_device_) {
  if (on_device_)
    planes = other.planes;
  else
    bind();
}

Picture& Picture::operator=(const Picture& other) {
  if (this != &other) {
    format = other.format;
    storage_ = other.storage_;
    on_device_ = other.on_device_;
    if (on_device_)
      planes = other.planes;
    else
      bind();
  }
  return *this;
}

// A moved buffer stays where it was: the views move with it.
Picture::Picture(Picture&& other) noexcept
    : format(other.format),
      planes(std::exchange(other.planes, {})),
      storage_(std::move(other.storage_)),
      on_device_(std::exchange(other.on_device_, false)) {}

Picture& Picture::operator=(Picture&& other) noexcept {
  if (this != &other) {
    format = other.format;
    planes = std::exchange(other.planes, {});
    storage_ = std::move(other.storage_);
    on_device_ = std::exchange(other.on_device_, false);
  }
  return *this;
}

PlaneView Picture::plane(int p) const {
  PlaneView v;
  v.data = planes[p].data();
  v.width = format.plane_width(p);
  v.height = format.plane_height(p);
  v.bytes_per_sample = format.bytes_per_sample();
  v.stride = ptrdiff_t(v.width) * v.bytes_per_sample;
  return v;
}

}  // namespace exactvq
