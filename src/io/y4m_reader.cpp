// YUV4MPEG2 reader: stream header, then per frame a FRAME line and the planes.
#include <fmt/format.h>

#include <string>

#include "core/error.h"
#include "io/planar_reader.h"
#include "io/readers.h"
#include "io/y4m_header.h"

namespace exactvq {

namespace {

constexpr std::string_view kFrameLine = "FRAME\n";

class Y4mReader final : public PlanarReader {
 public:
  explicit Y4mReader(std::unique_ptr<InputFile> in) : PlanarReader(std::move(in)) {
    read_stream_header();
    compute_frame_count();
  }

  // After a FRAME line the planes must follow in full.
  bool read_frame(Picture& pic) override {
    return read_frame_header() && read_planes(pic, /*may_end=*/false);
  }
  bool skip_frame() override { return read_frame_header() && skip_planes(/*may_end=*/false); }
  std::string_view frame_marker() const override { return kFrameLine; }

 private:
  void read_stream_header() {
    const std::string_view start = in_->peek(kY4mSignature.size());
    if (start.empty()) throw InputError(fmt::format("{} is empty", name()));
    if (start != kY4mSignature)
      throw InputError(fmt::format("{}: not a Y4M file (it starts with '{}', not 'YUV4MPEG2 ')",
                                   name(), printable(start)));
    std::string line;
    for (;;) {
      const int c = in_->get();
      if (c < 0)
        throw InputError(fmt::format(
            "{}: truncated Y4M header (the input ends after {} bytes, before the end of the "
            "header line)",
            name(), line.size()));
      if (c == '\n') break;
      if (line.size() == kY4mMaxLine)
        throw InputError(
            fmt::format("{}: Y4M header has no end of line within {} bytes", name(), kY4mMaxLine));
      line.push_back(char(c));
    }
    format_ = parse_y4m_header(line, name());
  }

  // When the file is regular and the first and last FRAME lines carry no parameters
  // at the places a parameterless stream would have them, the count is exact in
  // practice; anything else leaves it unknown.
  void compute_frame_count() {
    const auto size = in_->size();
    if (!size) return;
    const uint64_t at = in_->position();
    if (*size < at) return;
    const uint64_t left = *size - at;
    const uint64_t unit = kFrameLine.size() + format_.frame_bytes();
    if (left % unit != 0) return;
    const uint64_t n = left / unit;
    if (n == 0) {
      frame_count_ = 0;
      return;
    }
    char first[6], last[6];
    if (in_->read_at(at, first, 6) != 6 || in_->read_at(at + (n - 1) * unit, last, 6) != 6) return;
    if (std::string_view(first, 6) != kFrameLine || std::string_view(last, 6) != kFrameLine) return;
    frame_count_ = int64_t(n);
  }

  // False at a clean end (no byte left); throws on a missing, malformed or cut marker.
  bool read_frame_header() {
    constexpr std::string_view kMarker = "FRAME";
    const uint64_t offset = in_->position();
    std::string seen;
    for (size_t i = 0; i < kMarker.size(); ++i) {
      const int c = in_->get();
      if (c < 0) {
        if (i == 0) return false;
        throw truncated_header(i);
      }
      seen.push_back(char(c));
      if (char(c) != kMarker[i]) throw missing_marker(offset, seen);
    }
    int c = in_->get();
    if (c < 0) throw truncated_header(kMarker.size());
    if (c == '\n') return true;
    if (c != ' ') {
      seen.push_back(char(c));
      throw missing_marker(offset, seen);
    }
    // Frame parameters: ignored, but bounded so a stream without newlines cannot run us forever.
    for (size_t n = kMarker.size() + 1;; ++n) {
      c = in_->get();
      if (c < 0) throw truncated_header(n);
      if (c == '\n') return true;
      if (n >= kY4mMaxLine)
        throw PictureError(
            fmt::format("{}: frame {}: FRAME header at byte {} has no end of line within {} bytes",
                        name(), frame_index_, offset, kY4mMaxLine));
    }
  }

  PictureError missing_marker(uint64_t offset, const std::string& seen) const {
    return PictureError(fmt::format("{}: frame {}: expected a FRAME marker at byte {}, found '{}'",
                                    name(), frame_index_, offset, printable(seen)));
  }

  PictureError truncated_header(size_t got) const {
    return PictureError(fmt::format(
        "{}: truncated frame {} (the input ends inside its FRAME header after {} bytes)", name(),
        frame_index_, got));
  }
};

}  // namespace

std::unique_ptr<VideoSource> make_y4m_reader(std::unique_ptr<InputFile> in) {
  return std::make_unique<Y4mReader>(std::move(in));
}

std::unique_ptr<VideoSource> open_y4m(const std::string& path) {
  return make_y4m_reader(std::make_unique<InputFile>(path));
}

}  // namespace exactvq
