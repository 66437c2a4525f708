// A caller's exactvq_picture (planes anywhere, any stride) checked and copied into
// a Picture, the tightly stored frame the features score.
#pragma once

#include <cstdint>
#include <string>

#include "core/picture.h"
#include "exactvq/exactvq.h"

namespace exactvq::capi {

// The ChromaFormat of an exactvq_chroma value; throws ArgumentError naming `what`
// for any other value.
ChromaFormat chroma_format(int value, const std::string& what);

// The format the picture declares; throws ArgumentError for an unknown chroma value,
// InputError for a size or bit depth out of range. `what` names it in messages
// ("frame 3, reference picture").
VideoFormat picture_format(const exactvq_picture& picture, const std::string& what);

// Copies the planes of `picture`, whose format is `format`, into `out`; throws
// ArgumentError for a null plane or a stride shorter than a row, InputError for a
// sample above 2^bitdepth - 1 (naming plane, x and y; not looked for when
// `check_samples` is false: check_picture_samples did).
void import_picture(const exactvq_picture& picture, const VideoFormat& format,
                    const std::string& what, Picture& out, bool check_samples = true);

// import_picture's checks without the copy, reading the picture's planes where
// they are.
void check_picture_samples(const exactvq_picture& picture, const VideoFormat& format,
                           const std::string& what);

}  // namespace exactvq::capi
