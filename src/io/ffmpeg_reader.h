// Any video FFmpeg's libraries can demux and decode (MP4, MKV, WebM, IVF, ...), read
// frame by frame in presentation order. Built only with EXACTVQ_HAVE_FFMPEG.
#pragma once

#include <memory>
#include <string>

#include "io/input_file.h"
#include "io/video_source.h"

namespace exactvq {

// Opens the best video stream of `path` and decodes its first frame, so that the
// format is the decoder's own. Planar YUV 4:2:0, 4:2:2, 4:4:4 and gray at 8..16 bits
// (little-endian) map to VideoFormat; any other pixel format is an InputError naming
// the file and the format (no conversion). frame_count() is the container's count
// when it has one. Decoding errors name the file and the frame.
// With decode.hw kAuto or kCuda (and CUDA compiled in), a codec libavcodec
// decodes on CUDA (h264, hevc, vp9, av1 with NVDEC) is decoded by the GPU of
// decode.cuda_device into its memory (see VideoSource::set_device_pictures).
// Where it cannot (no such GPU or driver, a codec, profile, depth or size the
// hardware does not take, a decoder session that does not open), kAuto
// decodes on the CPU and tells decode.fallback why; kCuda is an InputError
// naming the file and why.
std::unique_ptr<VideoSource> open_ffmpeg(const std::string& path, const DecodeOptions& decode = {});

// The same on an input already opened (and perhaps peeked at): a regular file is
// reopened by path, so that FFmpeg can seek in it (MP4 keeps its index at the end);
// a pipe is read through `in`, peeked bytes first, as a stream that cannot seek
// (MKV, WebM, IVF, MPEG-TS, fragmented MP4).
// A pipe is decoded on the CPU (a fallback would need to read it again).
std::unique_ptr<VideoSource> open_ffmpeg(std::unique_ptr<InputFile> in,
                                         const DecodeOptions& decode = {});

}  // namespace exactvq
