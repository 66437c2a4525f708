#include "app/pair_reader.h"

#include <fmt/format.h>

#include "core/error.h"

namespace exactvq {

bool PairReader::read_one(FrameBatch& batch) {
  for (;;) {
    const int64_t index = next_index_;
    if (options_.frame_count && index >= *options_.frame_count) return false;
    const bool scored = index % options_.subsample == 0;
    Picture& rp = batch.ref[batch.count];
    Picture& dp = batch.dist[batch.count];
    const bool got_ref = scored ? ref_.read_frame(rp) : ref_.skip_frame();
    const bool got_dist = scored ? dist_.read_frame(dp) : dist_.skip_frame();
    if (!got_ref || !got_dist) {
      VideoSource& ended = !got_ref ? ref_ : dist_;
      if (options_.frame_count)
        throw InputError(fmt::format("--frame_cnt {}: {} has only {} frame{}",
                                     *options_.frame_count, ended.name(), index,
                                     index == 1 ? "" : "s"));
      if (got_ref != got_dist)
        batch.warning = fmt::format("warning: {} ended before {}; scored the first {} frame{} only",
                                    ended.name(), (!got_ref ? dist_ : ref_).name(), index,
                                    index == 1 ? "" : "s");
      return false;
    }
    ++next_index_;
    if (scored) {
      batch.index[batch.count++] = index;
      return true;
    }
  }
}

void PairReader::fill(FrameBatch& batch) {
  batch.count = 0;
  batch.last = false;
  batch.warning.clear();
  batch.error = nullptr;
  try {
    while (!done_ && batch.count < batch.ref.size())
      if (!read_one(batch)) done_ = true;
  } catch (...) {
    batch.error = std::current_exception();
    done_ = true;
  }
  batch.last = done_;
}

}  // namespace exactvq
