#include "io/frame_data.h"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <cstring>
#include <vector>

#include "core/error.h"
#include "io/sample_range.h"

namespace exactvq {

void little_endian_samples_to_host(uint8_t* data, size_t bytes) {
  if constexpr (std::endian::native == std::endian::little) {
    (void)data;
    (void)bytes;
  } else {
    for (size_t i = 0; i + 1 < bytes; i += 2) {
      const uint8_t lo = data[i];
      data[i] = data[i + 1];
      data[i + 1] = lo;
    }
  }
}

namespace {

InputError sample_out_of_range(const std::string& name, int64_t frame, const VideoFormat& f,
                               int plane, size_t index, uint16_t value) {
  const auto width = size_t(f.plane_width(plane));
  return InputError(fmt::format(
      "{}: frame {}, plane {}, x={}, y={}: sample {} exceeds the {}-bit maximum {}", name, frame,
      plane_name(plane), index % width, index / width, value, f.bitdepth, f.max_sample()));
}

// Samples of 9..15 bits are read this many bytes at a time and checked at once,
// while the copy that brought them still has them in the core's cache.
constexpr size_t kCheckedPieceBytes = size_t{256} << 10;

// read_frame_planes through read(dst, n) and skip(n), each returning the bytes it
// got; `pic` already holds planes of format f.
template <typename Read, typename Skip>
size_t read_planes_checked(Read&& read, Skip&& skip, const VideoFormat& f, Picture& pic, int planes,
                           const std::string& name, int64_t frame) {
  const bool checked = f.bitdepth > 8 && f.bitdepth < 16;
  const auto max = uint16_t(f.max_sample());
  thread_local std::vector<uint8_t> scratch;  // pieces of the planes checked but not kept
  struct {
    int plane = -1;
    size_t index = 0;
    uint16_t value = 0;
  } bad;  // the first sample out of range
  size_t total = 0;
  for (int p = 0; p < f.plane_count(); ++p) {
    const size_t want = f.plane_bytes(p);
    const bool kept = p < planes;
    if (!kept && !checked) {
      const size_t got = skip(want);
      total += got;
      if (got < want) return total;
      continue;
    }
    const size_t piece = checked ? kCheckedPieceBytes : want;
    if (!kept) scratch.resize(piece);
    for (size_t done = 0; done < want;) {
      const size_t n = std::min(piece, want - done);  // even at two bytes a sample
      uint8_t* dst = kept ? pic.plane_data(p) + done : scratch.data();
      const size_t got = read(dst, n);
      total += got;
      if (got < n) return total;
      if (f.bytes_per_sample() == 2) little_endian_samples_to_host(dst, n);
      if (checked && bad.plane < 0) {
        const auto* samples = reinterpret_cast<const uint16_t*>(dst);
        const size_t i = first_above(samples, n / 2, max);
        if (i < n / 2) bad = {p, done / 2 + i, samples[i]};
      }
      done += n;
    }
  }
  if (bad.plane >= 0) throw sample_out_of_range(name, frame, f, bad.plane, bad.index, bad.value);
  return total;
}

}  // namespace

size_t read_frame_planes(InputFile& in, const VideoFormat& f, Picture& pic, int planes,
                         const std::string& name, int64_t frame) {
  bool fits = pic.format == f;
  for (int p = 0; p < 3 && fits; ++p)
    fits = pic.planes[p].size() == (p < f.plane_count() ? f.plane_bytes(p) : 0);
  if (!fits) {
    // Before allocating a frame, make sure a regular file still holds one: a tiny file
    // with a huge (but valid) header is then reported as truncated without the allocation.
    const auto size = in.size();
    if (size && *size >= in.position() && *size - in.position() < f.frame_bytes())
      return static_cast<size_t>(*size - in.position());
    pic.allocate(f);
  }
  return read_planes_checked([&](uint8_t* dst, size_t n) { return in.read(dst, n); },
                             [&](size_t n) { return size_t(in.skip(n)); }, f, pic, planes, name,
                             frame);
}

size_t read_frame_planes_at(const InputFile& in, uint64_t offset, const VideoFormat& f,
                            Picture& pic, int planes, const std::string& name, int64_t frame) {
  auto read = [&](uint8_t* dst, size_t n) {
    const size_t got = in.read_at(offset, dst, n);
    offset += got;
    return got;
  };
  auto skip = [&](size_t n) {
    offset += n;
    return n;
  };
  return read_planes_checked(read, skip, f, pic, planes, name, frame);
}

PictureError truncated_frame(const std::string& name, int64_t frame, uint64_t got,
                             const VideoFormat& f) {
  return PictureError(fmt::format("{}: truncated frame {} (got {} of {} bytes)", name, frame, got,
                                  f.frame_bytes()));
}

void check_frame_samples(const Picture& pic, const std::string& name, int64_t frame, int planes) {
  const VideoFormat& f = pic.format;
  if (f.bitdepth <= 8 || f.bitdepth >= 16) return;
  const auto max = uint16_t(f.max_sample());
  for (int p = 0; p < std::min(planes, f.plane_count()); ++p) {
    const PlaneView v = pic.plane(p);
    const size_t n = size_t(v.width) * size_t(v.height);
    // Planes are stored as bytes; copy-free access through memcpy-compatible reads.
    const auto* samples = reinterpret_cast<const uint16_t*>(v.data);
    const size_t i = first_above(samples, n, max);
    if (i < n) throw sample_out_of_range(name, frame, f, p, i, samples[i]);
  }
}

}  // namespace exactvq
