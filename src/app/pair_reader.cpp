#include "app/pair_reader.h"

#include <algorithm>
#include <span>
#include <vector>

#include <fmt/format.h>

#include "core/error.h"
#include "core/run_trace.h"
#include "core/thread_pool.h"

namespace exactvq {

// What one input did while filling a batch: `frames` scored frames read, then
// either the batch was full (or the frame count reached), or an event at
// `event_index`: the input ended there, or its read threw `error`.
struct PairReader::SideResult {
  size_t frames = 0;
  int64_t stop_index = 0;  // the frame number it would read next
  bool has_event = false;
  int64_t event_index = 0;
  bool ended = false;
  std::exception_ptr error;
};

PairReader::PairReader(VideoSource& ref, VideoSource& dist, const PairReadOptions& o, bool parallel,
                       int threads_per_input)
    : ref_(ref),
      dist_(dist),
      options_(o),
      parallel_(parallel),
      threads_per_input_(threads_per_input) {
  const int threads = (parallel ? 2 : 1) * std::max(1, threads_per_input);
  if (threads > 1) pool_ = std::make_unique<ThreadPool>(threads);
}

PairReader::~PairReader() = default;

PairReader::SideResult PairReader::read_side(VideoSource& src, std::vector<Picture>& pictures,
                                             size_t capacity) const {
  SideResult r;
  int64_t index = next_index_;
  if (threads_per_input_ > 1) {
    // The scored frames of this batch at once, where the input allows; what it
    // leaves (all of it, or from the first unusual frame on) is read below,
    // frame by frame, with the same outcome.
    std::vector<int64_t> ahead;
    for (int64_t i = index; ahead.size() < capacity; ++i) {
      if (options_.frame_count && i >= *options_.frame_count) break;
      if (i % options_.subsample == 0) ahead.push_back(i - index);
    }
    const size_t m = src.read_ahead(std::span(pictures).first(ahead.size()), ahead,
                                    threads_per_input_, pool_.get());
    if (m > 0) {
      r.frames = m;
      index += ahead[m - 1] + 1;
    }
  }
  for (; r.frames < capacity; ++index) {
    if (options_.frame_count && index >= *options_.frame_count) break;
    const bool scored = index % options_.subsample == 0;
    try {
      const bool got = scored ? src.read_frame(pictures[r.frames]) : src.skip_frame();
      if (!got) {
        r.has_event = true;
        r.event_index = index;
        r.ended = true;
        break;
      }
    } catch (...) {
      r.has_event = true;
      r.event_index = index;
      r.error = std::current_exception();
      break;
    }
    if (scored) ++r.frames;
  }
  r.stop_index = index;
  return r;
}

void PairReader::fill(FrameBatch& batch, size_t most) {
  batch.count = 0;
  batch.last = false;
  batch.warning.clear();
  batch.error = nullptr;
  if (done_) {
    batch.last = true;
    return;
  }
  const run_trace::Span span("read", next_index_);
  const size_t capacity = std::min(batch.ref.size(), most);
  // The two inputs are read side by side; each walks the same frame numbers.
  SideResult ref, dist;
  if (parallel_) {
    pool_->parallel_for(2, [&](int side) {
      if (side == 0)
        ref = read_side(ref_, batch.ref, capacity);
      else
        dist = read_side(dist_, batch.dist, capacity);
    });
  } else {
    ref = read_side(ref_, batch.ref, capacity);
    dist = read_side(dist_, batch.dist, capacity);
  }

  // Scored frame numbers are the multiples of `subsample` from next_index_ on.
  const int64_t step = options_.subsample;
  const int64_t first_scored = (next_index_ + step - 1) / step * step;
  auto number = [&](size_t count) {
    batch.count = count;
    for (size_t i = 0; i < count; ++i) batch.index[i] = first_scored + int64_t(i) * step;
  };
  if (!ref.has_event && !dist.has_event) {
    // Both stopped at the same place: a full batch or the frame count reached
    // (the unscored frames between the last scored one and the count are never read).
    number(ref.frames);
    next_index_ = ref.stop_index;
    done_ = options_.frame_count && next_index_ >= *options_.frame_count;
    batch.last = done_;
    return;
  }

  // The first event decides, as if the inputs were read frame by frame, the
  // reference first: a read error beats an end at the same frame.
  const int64_t at = std::min(ref.has_event ? ref.event_index : INT64_MAX,
                              dist.has_event ? dist.event_index : INT64_MAX);
  const bool ref_here = ref.has_event && ref.event_index == at;
  const bool dist_here = dist.has_event && dist.event_index == at;
  number(size_t(std::max<int64_t>(0, (at - first_scored + step - 1) / step)));
  next_index_ = at;
  done_ = true;
  batch.last = true;
  try {
    if (ref_here && ref.error) std::rethrow_exception(ref.error);
    if (dist_here && dist.error) std::rethrow_exception(dist.error);
    VideoSource& ended = ref_here ? ref_ : dist_;
    VideoSource& other = ref_here ? dist_ : ref_;
    if (options_.frame_count)
      throw InputError(fmt::format("--frame_cnt {}: {} has only {} frame{}", *options_.frame_count,
                                   ended.name(), at, at == 1 ? "" : "s"));
    if (ref_here != dist_here && !options_.equal_lengths)
      batch.warning = fmt::format("warning: {} ended before {}; scored the first {} frame{} only",
                                  ended.name(), other.name(), at, at == 1 ? "" : "s");
    // With no frame in common the run is empty, and refused as such (as libvmaf does).
    else if (ref_here != dist_here && at > 0)
      throw InputError(fmt::format(
          "{} ended before {}, after {} frame{}: the inputs' lengths differ (--frame_cnt {} "
          "scores the frames they share)",
          ended.name(), other.name(), at, at == 1 ? "" : "s", at));
  } catch (...) {
    batch.error = std::current_exception();
  }
}

}  // namespace exactvq
