#include "io/planar_reader.h"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <thread>
#include <vector>

#include "core/thread_pool.h"
#include "io/frame_data.h"

namespace exactvq {

void PlanarReader::read_planes_only(int planes) { planes_read_ = std::clamp(planes, 1, 3); }

bool PlanarReader::read_planes(Picture& pic, bool may_end) {
  const size_t got = read_frame_planes(*in_, format_, pic, planes_read_, name(), frame_index_);
  if (got == 0 && may_end) return false;
  if (got < format_.frame_bytes()) throw truncated_frame(name(), frame_index_, got, format_);
  ++frame_index_;
  return true;
}

bool PlanarReader::skip_planes(bool may_end) {
  const uint64_t got = in_->skip(format_.frame_bytes());
  if (got == 0 && may_end) return false;
  if (got < format_.frame_bytes()) throw truncated_frame(name(), frame_index_, got, format_);
  ++frame_index_;
  return true;
}

size_t PlanarReader::read_ahead(std::span<Picture> pics, std::span<const int64_t> ahead,
                                int threads, ThreadPool* pool) {
  const auto size = in_->size();
  if (!size || in_->is_stdin() || ahead.empty() || threads < 1) return 0;
  const std::string_view marker = frame_marker();
  const VideoFormat f = format_;
  const uint64_t unit = marker.size() + f.frame_bytes();
  const uint64_t at = in_->position();
  if (*size < at) return 0;
  // Only frames wholly inside the file (as of opening); the rest are read one by one.
  const uint64_t whole = (*size - at) / unit;
  size_t count = std::min(ahead.size(), pics.size());
  while (count > 0 && uint64_t(ahead[count - 1]) >= whole) --count;
  if (count == 0) return 0;

  // Each frame independently: its marker, its planes, its samples. A frame that
  // fails is left for the frame-by-frame path, which reports it as it would.
  std::vector<uint8_t> ok(count, 0);
  auto read_one = [&](size_t k) {
    try {
      Picture& pic = pics[k];
      bool fits = pic.format == f;
      for (int p = 0; p < 3 && fits; ++p)
        fits = pic.planes[size_t(p)].size() == (p < f.plane_count() ? f.plane_bytes(p) : 0);
      if (!fits) pic.allocate(f);
      uint64_t offset = at + uint64_t(ahead[k]) * unit;
      char seen[16];
      if (!marker.empty()) {
        if (in_->read_at(offset, seen, marker.size()) != marker.size() ||
            std::memcmp(seen, marker.data(), marker.size()) != 0)
          return;
        offset += marker.size();
      }
      if (read_frame_planes_at(*in_, offset, f, pic, planes_read_, name(),
                               frame_index_ + ahead[k]) != f.frame_bytes())
        return;
      ok[k] = 1;
    } catch (...) {
      // left to the frame-by-frame path
    }
  };
  const int workers = int(std::min<size_t>(size_t(threads), count));
  if (pool) {
    pool->parallel_for(int(count), [&](int k) { read_one(size_t(k)); });
  } else if (workers <= 1) {
    for (size_t k = 0; k < count; ++k) read_one(k);
  } else {
    std::atomic<size_t> next{0};
    auto work = [&] {
      for (size_t k; (k = next.fetch_add(1)) < count;) read_one(k);
    };
    std::vector<std::thread> pool;
    for (int t = 1; t < workers; ++t) pool.emplace_back(work);
    work();
    for (auto& t : pool) t.join();
  }

  // The frames skipped in between must carry the plain marker too.
  size_t m = 0;
  int64_t skipped = 0;  // next frame number not yet checked
  for (; m < count && ok[m]; ++m) {
    bool markers_ok = true;
    for (; skipped < ahead[m] && markers_ok && !marker.empty(); ++skipped) {
      char seen[16];
      markers_ok =
          in_->read_at(at + uint64_t(skipped) * unit, seen, marker.size()) == marker.size() &&
          std::memcmp(seen, marker.data(), marker.size()) == 0;
    }
    if (!markers_ok) break;
    skipped = ahead[m] + 1;
  }
  if (m == 0) return 0;
  const uint64_t frames = uint64_t(ahead[m - 1]) + 1;
  if (in_->skip(frames * unit) != frames * unit) return 0;  // cannot happen: the bytes were there
  frame_index_ += int64_t(frames);
  return m;
}

}  // namespace exactvq
