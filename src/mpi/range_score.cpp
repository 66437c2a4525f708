#include "mpi/range_score.h"

#include <algorithm>
#include <exception>
#include <limits>
#include <new>

#include <fmt/format.h>

#include "cli/exit_status.h"
#include "core/error.h"
#include "backends/device.h"

namespace exactvq::mpi {

namespace {

const char* plural(int64_t n) { return n == 1 ? "" : "s"; }

// From run frame 0 to the first frame of this rank's range. The frames are counted by
// the input's size, so an end here means that the input changed (or differs between
// hosts); a rank before this one meets the same end (or error) first and reports it.
void skip_to_range(VideoSource& src, int64_t first) {
  for (int64_t i = 0; i < first; ++i)
    if (!src.skip_frame())
      throw InputError(fmt::format(
          "{} ended at frame {} while skipping to frame {}; it had more frames when the run "
          "began (it changed, or it differs between hosts)",
          src.name(), i, first));
}

// One input's step at one run frame: read (scored) or skipped, or an end, or an error.
struct Step {
  bool ended = false;
  std::exception_ptr error;
  bool ok() const { return !ended && !error; }
};

Step step(VideoSource& src, bool scored, Picture& pic) {
  Step s;
  try {
    s.ended = !(scored ? src.read_frame(pic) : src.skip_frame());
  } catch (...) {
    s.error = std::current_exception();
  }
  return s;
}

}  // namespace

SharePlan plan_shares(int64_t ref_frames, int64_t dist_frames, const RunOptions& o, int ranks) {
  SharePlan plan;
  const int64_t sub = std::max(1, o.subsample);
  if (o.frame_count) {
    plan.run_frames = *o.frame_count;
  } else {
    plan.run_frames =
        std::max<int64_t>(0, std::min(ref_frames - o.skip_ref, dist_frames - o.skip_dist));
  }
  // ceil(run_frames / sub), without overflow when --frame_cnt is huge.
  plan.scored = plan.run_frames / sub + (plan.run_frames % sub != 0 ? 1 : 0);
  // frame number k * sub, saturated: only the last piece's end can exceed INT64_MAX.
  const auto frame_of = [sub](int64_t k) {
    return k > std::numeric_limits<int64_t>::max() / sub ? std::numeric_limits<int64_t>::max()
                                                         : k * sub;
  };
  ranks = std::max(1, ranks);
  int last = -1;  // the last rank with frames
  for (int r = 0; r < ranks; ++r) {
    // Pieces of floor or ceil(scored / ranks) frames, the larger ones last.
    const auto piece_start = [&](int64_t k) {  // scored * k / ranks without overflow
      return plan.scored / ranks * k + plan.scored % ranks * k / ranks;
    };
    const int64_t s0 = piece_start(r), s1 = piece_start(r + 1);
    FrameRange range;
    range.first = frame_of(s0);
    range.end = frame_of(s1);
    range.scored = s1 - s0;
    if (range.scored > 0) last = r;
    plan.ranges.push_back(range);
  }
  if (last >= 0) {
    // The last piece reads on as one process does: to --frame_cnt, or to the end.
    plan.ranges[size_t(last)].end = o.frame_count;
    plan.ranges[size_t(last)].last = true;
  }
  return plan;
}

RankSetup open_rank(const RunOptions& o) {
  if (o.subsample < 1) throw UsageError("--subsample must be at least 1");
  if (o.ref_path == "-" && o.dist_path == "-")
    throw UsageError("the reference and the distorted input cannot both be standard input");
  RankSetup s;
  s.ref = open_video(o.ref_path, o.raw);
  s.dist = open_video(o.dist_path, o.raw);
  check_compatible(*s.ref, *s.dist);
  s.format = s.ref->format();

  DeviceOptions device = o.device;
  if (!device.notice) device.notice = o.warn;
  s.pool = std::make_unique<ThreadPool>(o.threads);
  const FeatureContext ctx{s.format, s.pool.get(), open_device(device, s.format)};
  s.features = FeatureSet(o.features, ctx, o.models, o.predict);
  if (s.features.temporal() && o.subsample > 1)
    throw UsageError(
        fmt::format("--subsample {} cannot be used with a temporal feature (motion, "
                    "speed_temporal: each compares a frame with the one before): score every frame",
                    o.subsample));
  return s;
}

void record_exception(RankResult& r, std::exception_ptr e) {
  try {
    std::rethrow_exception(e);
  } catch (const std::bad_alloc&) {
    r.error = "out of memory (frames of this size need more than is available)";
  } catch (const std::exception& x) {
    r.error = x.what();
  } catch (...) {
    r.error = "unknown error";
  }
  r.exit_code = exit_status_of(e, FailedWhile::kRunning);
}

RankResult score_range(RankSetup& s, const RunOptions& o, const FrameRange& range) {
  RankResult r;
  r.columns.resize(s.features.columns().size());
  try {
    VideoSource& ref = *s.ref;
    VideoSource& dist = *s.dist;
    skip_frames(ref, o.skip_ref, "--frame_skip_ref");
    skip_frames(dist, o.skip_dist, "--frame_skip_dist");
    // Temporal features read frames before the range (motion the reference
    // pictures, speed_temporal both): the rank reads those pairs too, so its
    // values are one pass's.
    const int64_t before = std::min<int64_t>(s.features.frames_before(), range.first);
    skip_to_range(ref, range.first - before);
    skip_to_range(dist, range.first - before);
    std::vector<Picture> context_ref(size_t(before), Picture{}),
        context_dist(size_t(before), Picture{});
    std::vector<FramePair> context_pairs;
    for (int64_t k = 0; k < before; ++k) {
      for (auto [src, pic] :
           {std::pair{&ref, &context_ref[size_t(k)]}, std::pair{&dist, &context_dist[size_t(k)]}})
        if (!src->read_frame(*pic))
          throw InputError(
              fmt::format("{} ended at frame {} while reading up to frame {}; it had "
                          "more frames when the run began",
                          src->name(), range.first - before + k, range.first));
      context_pairs.push_back(
          {&context_ref[size_t(k)], &context_dist[size_t(k)], range.first - before + k});
    }
    if (range.first > 0) s.features.start_at(context_pairs, range.first);

    const auto batch = size_t(s.features.batch_frames());
    std::vector<Picture> refs(batch), dists(batch);
    std::vector<FramePair> pairs(batch);
    size_t held = 0;
    auto score_held = [&] {
      if (held == 0) return;
      s.features.score(std::span<const FramePair>(pairs.data(), held), r.columns);
      r.frames += int64_t(held);
      held = 0;
    };

    const int64_t sub = o.subsample;
    for (int64_t i = range.first;; ++i) {
      if (range.end && i >= *range.end) break;
      const bool scored = i % sub == 0;
      // Both inputs step at every frame, the reference first: the first frame where
      // either ends or fails decides, and at that frame an error beats an end and the
      // reference's error beats the distorted input's, as in score_videos().
      const Step a = step(ref, scored, refs[held]);
      const Step b = step(dist, scored, dists[held]);
      if (a.ok() && b.ok()) {
        if (scored) {
          pairs[held] = {&refs[held], &dists[held], i};
          if (++held == batch) score_held();
        }
        continue;
      }
      score_held();
      if (a.error) std::rethrow_exception(a.error);
      if (b.error) std::rethrow_exception(b.error);
      VideoSource& ended = a.ended ? ref : dist;
      VideoSource& other = a.ended ? dist : ref;
      if (o.frame_count)
        throw InputError(fmt::format("--frame_cnt {}: {} has only {} frame{}", *o.frame_count,
                                     ended.name(), i, plural(i)));
      if (range.end)
        throw InputError(fmt::format(
            "{} ended at frame {}, before frame {}; it had more frames when the run began (it "
            "changed, or it differs between hosts)",
            ended.name(), i, *range.end));
      if (a.ended != b.ended && !o.equal_lengths)
        r.warning = fmt::format("warning: {} ended before {}; scored the first {} frame{} only",
                                ended.name(), other.name(), i, plural(i));
      else if (a.ended != b.ended && i > 0)  // with none in common: no frames to score
        throw InputError(fmt::format(
            "{} ended before {}, after {} frame{}: the inputs' lengths differ (--frame_cnt {} "
            "scores the frames they share)",
            ended.name(), other.name(), i, plural(i), i));
      break;
    }
    score_held();
    for (const auto& feature : s.features.features()) {
      r.states.push_back(feature->aggregate_state());
      r.unmergeable.push_back(r.states.back().empty() && !feature->aggregates().empty());
    }
  } catch (...) {
    record_exception(r, std::current_exception());
  }
  return r;
}

const RankResult* first_failure(const std::vector<RankResult>& results) {
  for (const RankResult& r : results)
    if (r.exit_code != 0) return &r;
  return nullptr;
}

ScoreReport combine(const RankSetup& s, const RunOptions& o, const SharePlan& plan,
                    const std::vector<RankResult>& results, std::string& warning) {
  ScoreReport report;
  report.version = EXACTVQ_VERSION;
  report.width = s.format.width;
  report.height = s.format.height;
  const std::vector<std::string>& columns = s.features.columns();
  for (const auto& name : columns) report.features.push_back({name, {}});
  const int64_t sub = o.subsample;
  for (size_t rank = 0; rank < results.size(); ++rank) {
    const RankResult& r = results[rank];
    const FrameRange& range = plan.ranges.at(rank);
    // Every piece but the last must be whole, or the frame numbers would not follow.
    if (r.frames > range.scored || (!range.last && r.frames != range.scored) ||
        (r.frames > 0 && r.columns.size() != columns.size()))
      throw InputError(fmt::format("MPI rank {} scored {} frames where {} were planned", rank,
                                   r.frames, range.scored));
    for (int64_t k = 0; k < r.frames; ++k)
      report.frame_numbers.push_back(uint32_t(range.first + k * sub));
    for (size_t c = 0; c < s.features.frame_columns() && r.frames > 0; ++c) {
      if (r.columns[c].size() != size_t(r.frames))
        throw InputError(fmt::format("MPI rank {} sent {} values of {} for {} frames", rank,
                                     r.columns[c].size(), columns[c], r.frames));
      auto& values = report.features[c].values;
      values.insert(values.end(), r.columns[c].begin(), r.columns[c].end());
    }
    if (warning.empty()) warning = r.warning;
  }
  if (report.frame_numbers.empty())
    throw PictureError(
        fmt::format("no frames to score in {} and {}", s.ref->name(), s.dist->name()));
  std::vector<std::vector<double>> all;
  for (auto& f : report.features) all.push_back(std::move(f.values));
  s.features.finish(all);
  for (size_t c = 0; c < all.size(); ++c) report.features[c].values = std::move(all[c]);

  // Aggregates from the sum of every rank's integer state: any split gives the sum.
  const auto& features = s.features.features();
  for (size_t f = 0; f < features.size(); ++f) {
    std::vector<AggregateWord> total;
    for (size_t rank = 0; rank < results.size(); ++rank) {
      const RankResult& r = results[rank];
      if (f < r.unmergeable.size() && r.unmergeable[f])
        throw InputError(fmt::format(
            "feature {} has run aggregates that cannot be combined across MPI ranks; run it "
            "with exactvq instead",
            fmt::join(features[f]->outputs(), ", ")));
      if (f >= r.states.size() || r.states[f].empty()) continue;
      if (total.empty()) total.assign(r.states[f].size(), 0);
      if (r.states[f].size() != total.size())
        throw InputError(fmt::format("MPI rank {} sent an aggregate state of {} words, not {}",
                                     rank, r.states[f].size(), total.size()));
      for (size_t w = 0; w < total.size(); ++w) total[w] += r.states[f][w];
    }
    if (total.empty()) continue;
    for (auto& [name, value] : features[f]->aggregates_of(total))
      report.aggregates.push_back({name, value});
  }
  return report;
}

}  // namespace exactvq::mpi
