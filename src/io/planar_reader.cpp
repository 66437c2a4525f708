#include "io/planar_reader.h"

#include "io/frame_data.h"

namespace exactvq {

bool PlanarReader::read_planes(Picture& pic, bool may_end) {
  const size_t got = read_frame_planes(*in_, format_, pic);
  if (got == 0 && may_end) return false;
  if (got < format_.frame_bytes()) throw truncated_frame(name(), frame_index_, got, format_);
  check_frame_samples(pic, name(), frame_index_);
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

}  // namespace exactvq
