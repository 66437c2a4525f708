// Small encoded videos made at test time with FFmpeg's libraries, and the frames
// they start from.
#pragma once

#include <string>
#include <vector>

#include "core/picture.h"

namespace exactvq::test {

// A deterministic frame: a gradient that moves with `index`, plus a bounded
// pseudo-random texture when `variant` is non-zero (different per variant).
Picture make_picture(const VideoFormat& f, int index, int variant = 0);
std::vector<Picture> make_pictures(const VideoFormat& f, int count, int variant = 0);

// FFmpeg's name of the planar pixel format for `f` ("yuv420p", "yuv444p10le", "gray12le").
std::string pixel_format_name(const VideoFormat& f);

struct EncodeSpec {
  std::string container;     // muxer: "matroska", "mp4", "webm", "ivf", ...
  std::string codec;         // encoder: "ffv1", "mpeg4", "libx264", ...
  std::string pixel_format;  // empty: pixel_format_name(frames' format)
  std::string options;       // encoder options, "key=value:key=value"
};

// Whether this FFmpeg build has the muxer and the encoder.
bool can_encode(const EncodeSpec& spec);

// Encodes `frames` (all of one format) at 25 fps into `path`. Returns an empty string
// on success, else what failed.
std::string encode_video(const std::string& path, const std::vector<Picture>& frames,
                         const EncodeSpec& spec);

// A Y4M file of `frames`, written by hand (the reference the encodes are compared with).
std::string y4m_file_bytes(const std::vector<Picture>& frames);

}  // namespace exactvq::test
