// The frame readers (Y4M, or raw YUV with fuzzed -w -h -p -b) on any file:
// each call either throws InputError or gives a frame of the stream's format whose
// samples are all within 2^bitdepth - 1; a stream read to its clean end has as many
// frames as frame_count() promised.
//
// Input: byte 0 chooses the reader and whether each frame is read or skipped,
// bytes 1..4 the raw geometry; the rest is the file. The readers are opened directly:
// open_video would hand a path like ours to FFmpeg, which is not ours to fuzz.
#include <cstddef>
#include <cstdint>
#include <memory>

#include "core/error.h"
#include "fuzz_check.h"
#include "io/video_source.h"
#include "memory_file.h"

using namespace exactvq;

namespace {

void check_picture(const Picture& pic, const VideoFormat& f) {
  FUZZ_CHECK(pic.format == f);
  for (int p = 0; p < 3; ++p) {
    const size_t want = p < f.plane_count() ? f.plane_bytes(p) : 0;
    FUZZ_CHECK(pic.planes[size_t(p)].size() == want, "plane %d", p);
  }
  if (f.bitdepth == 8) return;
  for (int p = 0; p < f.plane_count(); ++p) {
    const PlaneView v = pic.plane(p);
    for (int y = 0; y < v.height; ++y)
      for (int x = 0; x < v.width; ++x)
        FUZZ_CHECK(v.row<uint16_t>(y)[x] <= f.max_sample(), "plane %d x=%d y=%d", p, x, y);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static fuzz::MemoryFile file;
  if (size < 5) return 0;
  const uint8_t mode = data[0];
  VideoFormat raw;
  raw.width = 1 + data[1] % 40;
  raw.height = 1 + data[2] % 40;
  raw.chroma = ChromaFormat(data[3] % 3);  // 420, 422, 444: what -p accepts
  raw.bitdepth = 8 + data[4] % 9;
  const std::string path = file.set(data + 5, size - 5);
  try {
    std::unique_ptr<VideoSource> source = (mode & 1) ? open_raw_yuv(path, raw) : open_y4m(path);
    const VideoFormat f = source->format();
    validate_format(f, path);
    const auto promised = source->frame_count();
    Picture pic;
    int64_t frames = 0;
    for (int i = 0;; ++i) {
      // Bits 1..7 of byte 0: which of the first frames are skipped instead of read.
      const bool skip = i < 7 && ((mode >> (i + 1)) & 1);
      if (!(skip ? source->skip_frame() : source->read_frame(pic))) break;
      if (!skip) check_picture(pic, f);
      ++frames;
      FUZZ_CHECK(source->format() == f);
    }
    if (promised)
      FUZZ_CHECK(*promised == frames, "promised %lld, read %lld", static_cast<long long>(*promised),
                 static_cast<long long>(frames));
  } catch (const InputError&) {}
  return 0;
}
