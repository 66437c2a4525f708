#include "io/frame_data.h"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <cstring>

#include "core/error.h"

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

// OR of all samples: a sample exceeds 2^b - 1 exactly when it has a bit outside the mask,
// so one OR reduction (which the compiler vectorises) decides the common all-valid case.
uint16_t or_all(const uint16_t* s, size_t n) {
  uint16_t acc = 0;
  for (size_t i = 0; i < n; ++i) acc = uint16_t(acc | s[i]);
  return acc;
}

}  // namespace

size_t read_frame_planes(InputFile& in, const VideoFormat& f, Picture& pic, int planes) {
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
  size_t total = 0;
  for (int p = 0; p < f.plane_count(); ++p) {
    const size_t want = pic.planes[p].size();
    const bool kept = p < planes;
    const size_t got = kept ? in.read(pic.plane_data(p), want) : size_t(in.skip(want));
    total += got;
    if (got < want) return total;
    if (kept && f.bytes_per_sample() == 2) little_endian_samples_to_host(pic.plane_data(p), want);
  }
  return total;
}

InputError truncated_frame(const std::string& name, int64_t frame, uint64_t got,
                           const VideoFormat& f) {
  return InputError(
      fmt::format("{}: truncated frame {} (got {} of {} bytes)", name, frame, got, f.frame_bytes()));
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
    if ((or_all(samples, n) & uint16_t(~max)) == 0) continue;
    for (size_t i = 0; i < n; ++i) {
      if (samples[i] > max)
        throw InputError(fmt::format(
            "{}: frame {}, plane {}, x={}, y={}: sample {} exceeds the {}-bit maximum {}",
            name, frame, plane_name(p), i % size_t(v.width), i / size_t(v.width), samples[i],
            f.bitdepth, max));
    }
  }
}

}  // namespace exactvq
