// Reading frame samples into a Picture and checking them, shared by the readers.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "core/error.h"
#include "core/picture.h"
#include "io/input_file.h"

namespace exactvq {

// Reads the planes of one frame of format `f` into `pic` (allocated only when its
// format or buffers differ) and converts samples above 8 bits from little-endian to
// host order; planes from `planes` on are not kept: skipped in the input at 8 and
// 16 bits (every value is in range), read and checked but not stored at 9..15
// bits. At 9..15 bits each sample read is checked as it arrives (a piece at a time,
// while in cache): for a frame read whole, throws InputError as check_frame_samples
// does at the first sample out of range. Returns the bytes read or skipped:
// f.frame_bytes(), or fewer at end of input (then nothing is thrown for samples).
size_t read_frame_planes(InputFile& in, const VideoFormat& f, Picture& pic, int planes,
                         const std::string& name, int64_t frame);

// The same from a file at `offset` (InputFile::read_at, safe on several threads at
// once): the frame's planes without its marker.
size_t read_frame_planes_at(const InputFile& in, uint64_t offset, const VideoFormat& f,
                            Picture& pic, int planes, const std::string& name, int64_t frame);

// Samples above 8 bits as stored (little-endian) to host order, in place.
void little_endian_samples_to_host(uint8_t* data, size_t bytes);

// For bit depths 9..15: throws InputError "NAME: frame F, plane Cb, x=X, y=Y:
// sample V exceeds the B-bit maximum M" at the first (plane, raster order) sample
// above 2^bitdepth - 1. A no-op at 8 and 16 bits, where every value is in range.
// Only planes 0 .. planes-1.
void check_frame_samples(const Picture& pic, const std::string& name, int64_t frame,
                         int planes = 3);

// "NAME: truncated frame F (got X of Y bytes)", for a frame whose data ends early.
PictureError truncated_frame(const std::string& name, int64_t frame, uint64_t got,
                             const VideoFormat& f);

}  // namespace exactvq
