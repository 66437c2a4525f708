// Opening a video with FFmpeg's libraries: decoded on the GPU first where asked,
// else (or where the GPU cannot) on the CPU.
#include "io/ffmpeg_reader.h"

#include <fmt/format.h>

#include <utility>

#include "core/error.h"
#include "io/ffmpeg_reader_class.h"

namespace exactvq {

namespace {

// Opens `path` (or `pipe`) as `decode` says: on the GPU first where asked, a
// regular file only (a pipe cannot be read again for the fallback); where the
// GPU cannot decode it, on the CPU (kAuto, telling decode.fallback why) or an
// InputError naming the file and why (kCuda).
std::unique_ptr<VideoSource> open_with_decoding(const std::string& path,
                                                std::unique_ptr<InputFile> pipe,
                                                const DecodeOptions& decode) {
  if (decode.hw == HwDecode::kNone)
    return std::make_unique<FfmpegReader>(path, std::move(pipe), -1, decode.sessions);
  std::string why;
  if (pipe) {
    why = "a pipe is decoded on the CPU";
  } else {
    try {
      return std::make_unique<FfmpegReader>(path, nullptr, decode.cuda_device, decode.sessions);
    } catch (const HwUnavailable& e) {
      why = e.what();
    }
  }
  const std::string name = pipe ? pipe->name() : path;
  if (decode.hw == HwDecode::kCuda)
    throw InputError(fmt::format("{}: --hwdec cuda: {}", name, why));
  if (decode.fallback) decode.fallback(name, why);
  return std::make_unique<FfmpegReader>(path, std::move(pipe), -1, decode.sessions);
}

}  // namespace

std::unique_ptr<VideoSource> open_ffmpeg(const std::string& path, const DecodeOptions& decode) {
  return open_with_decoding(path, nullptr, decode);
}

std::unique_ptr<VideoSource> open_ffmpeg(std::unique_ptr<InputFile> in,
                                         const DecodeOptions& decode) {
  if (in->size()) {
    const std::string path = in->path();
    in.reset();
    return open_ffmpeg(path, decode);
  }
  const std::string path = in->path();
  return open_with_decoding(path, std::move(in), decode);
}

}  // namespace exactvq
