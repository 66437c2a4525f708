#include "app/score_run.h"

#include <chrono>
#include <memory>

#include <fmt/format.h>

#include "core/error.h"

namespace exactvq {

namespace {

void check_compatible(const VideoSource& ref, const VideoSource& dist) {
  const VideoFormat& a = ref.format();
  const VideoFormat& b = dist.format();
  std::vector<std::string> problems;
  if (a.width != b.width || a.height != b.height)
    problems.push_back(fmt::format("sizes differ: {}x{} vs {}x{}", a.width, a.height, b.width,
                                   b.height));
  if (a.chroma != b.chroma)
    problems.push_back(
        fmt::format("chroma formats differ: {} vs {}", chroma_name(a.chroma), chroma_name(b.chroma)));
  if (a.bitdepth != b.bitdepth)
    problems.push_back(fmt::format("bit depths differ: {} vs {}", a.bitdepth, b.bitdepth));
  if (!problems.empty())
    throw InputError(fmt::format("reference {} ({}) and distorted {} ({}) do not match: {}",
                                 ref.name(), a.describe(), dist.name(), b.describe(),
                                 fmt::join(problems, "; ")));
}

void skip_frames(VideoSource& src, int64_t count, const char* option) {
  for (int64_t i = 0; i < count; ++i)
    if (!src.skip_frame())
      throw InputError(fmt::format("{} {}: {} has only {} frame{}", option, count, src.name(), i,
                                   i == 1 ? "" : "s"));
}

}  // namespace

ScoreReport score_videos(const RunOptions& o) {
  if (o.subsample < 1) throw UsageError("--subsample must be at least 1");
  if (o.ref_path == "-" && o.dist_path == "-")
    throw UsageError("the reference and the distorted input cannot both be standard input");

  std::unique_ptr<VideoSource> ref = open_video(o.ref_path, o.raw);
  std::unique_ptr<VideoSource> dist = open_video(o.dist_path, o.raw);
  check_compatible(*ref, *dist);
  const VideoFormat format = ref->format();

  ThreadPool pool(o.threads);
  FeatureContext ctx{format, o.backend, &pool};
  std::vector<std::unique_ptr<Feature>> features;
  std::vector<FeatureSpec> specs = o.features;
  if (specs.empty()) specs.push_back({"ssim", {}});

  ScoreReport report;
  report.version = EXACTVQ_VERSION;
  report.width = format.width;
  report.height = format.height;
  for (const auto& spec : specs) {
    features.push_back(make_feature(spec, ctx));
    for (const auto& name : features.back()->outputs()) {
      for (const auto& existing : report.features)
        if (existing.name == name)
          throw UsageError(fmt::format("feature output '{}' is requested twice", name));
      report.features.push_back({name, {}});
    }
  }

  skip_frames(*ref, o.skip_ref, "--frame_skip_ref");
  skip_frames(*dist, o.skip_dist, "--frame_skip_dist");

  Picture ref_pic, dist_pic;  // allocated by the first frame read, not before
  std::vector<double> values;
  const auto start = std::chrono::steady_clock::now();
  int64_t index = 0;
  for (; !o.frame_count || index < *o.frame_count; ++index) {
    const bool scored = index % o.subsample == 0;
    const bool got_ref = scored ? ref->read_frame(ref_pic) : ref->skip_frame();
    const bool got_dist = scored ? dist->read_frame(dist_pic) : dist->skip_frame();
    if (!got_ref || !got_dist) {
      if (o.frame_count)
        throw InputError(fmt::format("--frame_cnt {}: {} has only {} frame{}", *o.frame_count,
                                     (!got_ref ? ref : dist)->name(), index,
                                     index == 1 ? "" : "s"));
      if (got_ref != got_dist && o.warn)
        o.warn(fmt::format("warning: {} ended before {}; scored the first {} frame{} only",
                           (!got_ref ? ref : dist)->name(), (!got_ref ? dist : ref)->name(),
                           index, index == 1 ? "" : "s"));
      break;
    }
    if (!scored) continue;
    report.frame_numbers.push_back(static_cast<uint32_t>(index));
    size_t column = 0;
    for (auto& feature : features) {
      values.assign(feature->outputs().size(), 0.0);
      feature->extract(ref_pic, dist_pic, values);
      for (double v : values) report.features[column++].values.push_back(v);
    }
  }
  if (report.frame_numbers.empty())
    throw InputError(fmt::format("no frames to score in {} and {}", ref->name(), dist->name()));
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  report.fps = seconds > 0 ? double(report.frame_numbers.size()) / seconds : 0.0;
  return report;
}

}  // namespace exactvq
