// Choosing the reader for a path: Y4M by extension or signature, raw YUV by complete
// options or by extension, and any other file through FFmpeg when it is compiled in.
#include <fmt/format.h>

#include <cctype>
#include <string>
#include <vector>

#include "core/error.h"
#include "io/readers.h"
#include "io/y4m_header.h"

#ifdef EXACTVQ_HAVE_FFMPEG
#include "io/ffmpeg_reader.h"
#endif

namespace exactvq {

namespace {

// Whether `path` ends in `ext` (lower case, with the dot), ignoring case.
bool has_extension(const std::string& path, std::string_view ext) {
  if (path.size() < ext.size()) return false;
  const std::string_view tail = std::string_view(path).substr(path.size() - ext.size());
  for (size_t i = 0; i < ext.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(tail[i])) != ext[i]) return false;
  return true;
}

bool has_y4m_extension(const std::string& path) { return has_extension(path, ".y4m"); }

// Paths whose reader is ours: standard input and raw YUV by name; everything else is
// a container for FFmpeg unless its content is Y4M.
bool is_ours_by_name(const std::string& path) {
  return path == "-" || has_extension(path, ".yuv") || has_extension(path, ".raw");
}

std::string missing_options(const RawOptions& raw) {
  std::vector<const char*> missing;
  if (!raw.width) missing.push_back("-w");
  if (!raw.height) missing.push_back("-h");
  if (!raw.chroma) missing.push_back("-p");
  if (!raw.bitdepth) missing.push_back("-b");
  std::string out;
  for (size_t i = 0; i < missing.size(); ++i) {
    if (i > 0) out += i + 1 == missing.size() ? " and " : ", ";
    out += missing[i];
  }
  return out;
}

}  // namespace

std::unique_ptr<VideoSource> open_video(const std::string& path, const RawOptions& raw,
                                        const DecodeOptions& decode) {
  if (has_y4m_extension(path)) return open_y4m(path);
  // Complete raw options mean raw YUV whatever the name, as in libvmaf.
  if (raw.complete()) {
    VideoFormat f;
    f.width = *raw.width;
    f.height = *raw.height;
    f.chroma = *raw.chroma;
    f.bitdepth = *raw.bitdepth;
    return open_raw_yuv(path, f);
  }
#ifdef EXACTVQ_HAVE_FFMPEG
  if (!is_ours_by_name(path)) {
    auto in = std::make_unique<InputFile>(path);  // a missing or unreadable path fails here
    const std::string_view start = in->peek(kY4mSignature.size());
    if (start == kY4mSignature) return make_y4m_reader(std::move(in));
    if (start.empty()) throw InputError(fmt::format("{} is empty", in->name()));
    return open_ffmpeg(std::move(in), decode);
  }
#else
  (void)decode;
#endif
  auto in = std::make_unique<InputFile>(path);
  const std::string_view start = in->peek(kY4mSignature.size());
  if (start == kY4mSignature) return make_y4m_reader(std::move(in));
  if (start.empty()) throw InputError(fmt::format("{} is empty", in->name()));
  if (raw.any())
    throw InputError(fmt::format("{}: not a Y4M file; for raw YUV also give {}", in->name(),
                                 missing_options(raw)));
  throw InputError(
      fmt::format("{}: not a Y4M file; for raw YUV give -w, -h, -p and -b", in->name()));
}

}  // namespace exactvq
