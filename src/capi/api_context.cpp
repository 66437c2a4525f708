#include "capi/api_context.h"

#include <algorithm>
#include <numeric>
#include <thread>

#include <fmt/format.h>

#include "capi/api_errors.h"
#include "capi/picture_import.h"
#ifdef EXACTVQ_HAVE_CUDA
#include "backends/cuda/device_pictures.h"
#endif
#include "core/error.h"
#include "metrics/ssim/options.h"
#include "metrics/vmaf/score_models.h"

namespace exactvq::capi {

namespace {

Backend backend_of(exactvq_backend b) {
  switch (b) {
    case EXACTVQ_BACKEND_CPU:
      return Backend::kCpu;
    case EXACTVQ_BACKEND_CUDA:
      return Backend::kCuda;
    case EXACTVQ_BACKEND_OPENCL:
      return Backend::kOpenCL;
    case EXACTVQ_BACKEND_AUTO:
      return Backend::kAuto;
    case EXACTVQ_BACKEND_MAX_ENUM:
      break;
  }
  throw ArgumentError(fmt::format("options: unknown backend value {}", int(b)));
}

// The option specs, with the context's mode as the sum of every ssim that names none.
std::vector<FeatureSpec> feature_specs(const exactvq_options& o) {
  if (o.mode != EXACTVQ_MODE_EXACT && o.mode != EXACTVQ_MODE_RASTER)
    throw ArgumentError(fmt::format("options: unknown mode value {}", int(o.mode)));
  if (o.feature_count > 0 && !o.features)
    throw ArgumentError("options: feature_count is set but features is a null pointer");
  std::vector<FeatureSpec> specs;
  for (size_t i = 0; i < o.feature_count; ++i) {
    if (!o.features[i])
      throw ArgumentError(fmt::format("options: feature {} is a null pointer", i));
    specs.push_back(parse_feature_spec(o.features[i]));
  }
  if (specs.empty() && o.model_count == 0) specs.push_back({"ssim", {}});
  if (o.mode == EXACTVQ_MODE_RASTER)
    for (auto& spec : specs)
      if (spec.name == "ssim") spec = ssim::with_default_mode(spec, ssim::SumMode::kRaster);
  return specs;
}

}  // namespace

ApiContext::ApiContext(const exactvq_options& options, bool caller_scores)
    : options_(options), caller_scores_(caller_scores) {
  if (options.model_count > 0 && !options.models)
    throw ArgumentError("options: model_count is set but models is a null pointer");
  std::vector<std::string> model_specs;
  for (size_t i = 0; i < options.model_count; ++i) {
    if (!options.models[i])
      throw ArgumentError(fmt::format("options: model {} is a null pointer", i));
    model_specs.emplace_back(options.models[i]);
  }
  options_.features = nullptr;  // the caller's strings need not outlive this call
  options_.feature_count = 0;
  options_.models = nullptr;
  options_.model_count = 0;
  backend_of(options.backend);
  if (options.threads < 0)
    throw ArgumentError(
        fmt::format("options: threads {} is negative (0: all cores)", options.threads));
  threads_ =
      options.threads > 0 ? options.threads : std::max(1, int(std::thread::hardware_concurrency()));
  specs_ = feature_specs(options);
  models_ = vmaf::make_score_models(model_specs);
  // Options are checked now, on a CPU format every feature accepts (float_ms_ssim
  // needs 176 a side); the real features are made with the first frame, on the
  // device asked for, and refuse a size of theirs then.
  const FeatureContext probe{VideoFormat{256, 256, ChromaFormat::k420, 8}, nullptr, nullptr};
  names_ = FeatureSet(specs_, probe, models_, !options.no_prediction).columns();
}

ApiContext::~ApiContext() = default;

void ApiContext::message(const std::string& line) const {
  if (options_.on_message) options_.on_message(options_.message_user, line.c_str());
}

void ApiContext::start_frames(const VideoFormat& format) {
  DeviceOptions device;
  device.backend = backend_of(options_.backend);
  device.gpu = options_.gpu;
  device.opencl_device = options_.opencl_device;
  device.notice = [this](const std::string& line) { message(line); };
  // A ThreadPool of N has N - 1 threads of its own, besides its caller.
  auto pool = std::make_unique<ThreadPool>(caller_scores_ ? threads_ : threads_ + 1);
  const FeatureContext ctx{format, pool.get(), open_device(device, format)};
  cuda_ordinal_ = ctx.device ? ctx.device->cuda_ordinal() : -1;
  FeatureSet features(specs_, ctx, models_, !options_.no_prediction);
  // Monochrome frames have no chroma scores (psnr_cb, ssim_cr, ...): the names
  // known at open lose them; any other difference is a bug.
  if (features.columns() != names_) {
    const auto& real = features.columns();
    const bool subset = format.chroma == ChromaFormat::kMono &&
                        std::all_of(real.begin(), real.end(), [&](const std::string& n) {
                          return std::find(names_.begin(), names_.end(), n) != names_.end();
                        });
    if (!subset)
      throw std::logic_error("the device's features name their outputs differently from the CPU's");
    names_ = real;
  }
  pool_ = std::move(pool);
  features_ = std::move(features);
  batch_frames_ = size_t(std::max(1, features_.batch_frames()));
  // A device scores large frames faster than they are read: batches of 8 (as
  // score_videos gathers them) keep less memory to page-lock.
  feed_frames_ = batch_frames_;
  if (ctx.device && format.frame_bytes() >= (size_t{1} << 20))
    feed_frames_ = std::min<size_t>(feed_frames_, 8);
  format_ = format;
  report_ = ScoreReport{};
  report_.version = EXACTVQ_VERSION;
  report_.width = format.width;
  report_.height = format.height;
  for (const auto& name : names_) report_.features.push_back({name, {}});
  state_ = State::kFeeding;
}

VideoFormat ApiContext::pair_format(const exactvq_picture* refs, const exactvq_picture* dists,
                                    size_t count, size_t first) const {
  std::optional<VideoFormat> format = format_;
  for (size_t i = 0; i < count; ++i) {
    const VideoFormat r =
        picture_format(refs[i], fmt::format("frame {}, reference picture", first + i));
    const VideoFormat d =
        picture_format(dists[i], fmt::format("frame {}, distorted picture", first + i));
    if (!(r == d))
      throw InputError(
          fmt::format("frame {}: the reference picture ({}) and the distorted picture ({}) differ",
                      first + i, r.describe(), d.describe()));
    if (format && !(*format == r))
      throw InputError(fmt::format("frame {}: the pictures are {}, but the first frame was {}",
                                   first + i, r.describe(), format->describe()));
    format = r;
  }
  return *format;
}

void ApiContext::score_frames(const exactvq_picture* refs, const exactvq_picture* dists,
                              size_t count) {
  if (state_ == State::kFlushed)
    throw StateError("frames cannot be scored after the context was flushed or scored files");
  if (count == 0) return;
  if (!refs || !dists) throw ArgumentError("score_frames: a picture pointer is null");
  if (on_device_.value_or(false))
    throw StateError(
        "score_frames: this run's pictures are in CUDA device memory (exactvq_score_cuda_frames)");

  // Check and copy every pair first, so that a bad one scores none of them.
  const size_t first = report_.frame_numbers.size();
  const VideoFormat format = pair_format(refs, dists, count, first);
  std::vector<Picture> ref_pics(count), dist_pics(count);
  for (size_t i = 0; i < count; ++i) {
    import_picture(refs[i], format, fmt::format("frame {}, reference picture", first + i),
                   ref_pics[i]);
    import_picture(dists[i], format, fmt::format("frame {}, distorted picture", first + i),
                   dist_pics[i]);
  }
  if (!format_) start_frames(format);
  on_device_ = false;
  score_pictures(ref_pics, dist_pics);
}

void ApiContext::score_cuda_frames(const exactvq_picture* refs, const exactvq_picture* dists,
                                   size_t count, void* cuda_stream) {
  if (state_ == State::kFlushed)
    throw StateError("frames cannot be scored after the context was flushed or scored files");
  if (count == 0) return;
  if (!refs || !dists) throw ArgumentError("score_cuda_frames: a picture pointer is null");
  if (!on_device_.value_or(true))
    throw StateError(
        "score_cuda_frames: this run's pictures are in host memory (exactvq_score_frames)");
#ifndef EXACTVQ_HAVE_CUDA
  (void)cuda_stream;
  throw DeviceError("score_cuda_frames: this exactvq was built without CUDA");
#else
  const size_t first = report_.frame_numbers.size();
  const VideoFormat format = pair_format(refs, dists, count, first);
  const int holder = refs[0].data[0] ? cuda::device_holding(refs[0].data[0]) : -1;
  if (holder < 0)
    throw InputError(
        fmt::format("frame {}, reference picture: plane Y is not in CUDA device memory", first));
  std::vector<cuda::DevicePictureSource> ref_src(count), dist_src(count);
  for (size_t i = 0; i < count; ++i)
    for (int p = 0; p < 3; ++p) {
      ref_src[i].data[p] = refs[i].data[p];
      ref_src[i].stride[p] = refs[i].stride[p];
      dist_src[i].data[p] = dists[i].data[p];
      dist_src[i].stride[p] = dists[i].stride[p];
    }
  // Gathered (and checked) before the device opens, so that a bad first frame opens none.
  const cuda::GatheredPictures ref_g(ref_src, format, holder, cuda_stream, [first](size_t i) {
    return fmt::format("frame {}, reference picture", first + i);
  });
  const cuda::GatheredPictures dist_g(dist_src, format, holder, cuda_stream, [first](size_t i) {
    return fmt::format("frame {}, distorted picture", first + i);
  });
  if (!format_) start_frames(format);
  on_device_ = true;
  bool direct = cuda_ordinal_ == holder;
  for (const auto& feature : features_.features())
    direct = direct && feature->scores_device_pictures();
  std::vector<Picture> ref_pics(count), dist_pics(count);
  for (size_t i = 0; i < count; ++i) {
    if (direct) {
      ref_pics[i] = ref_g.picture(i);
      dist_pics[i] = dist_g.picture(i);
    } else {
      ref_g.copy_to_host(i, ref_pics[i]);
      dist_g.copy_to_host(i, dist_pics[i]);
    }
  }
  if (!direct && !told_host_copies_) {
    told_host_copies_ = true;
    message(cuda_ordinal_ == holder
                ? "pictures in CUDA device memory are copied to the host: a feature of this run "
                  "reads them there"
                : fmt::format(
                      "pictures in CUDA device memory are copied to the host: the run scores on {}",
                      cuda_ordinal_ < 0
                          ? std::string("a device other than CUDA")
                          : fmt::format("CUDA device {}, not {}", cuda_ordinal_, holder)));
  }
  score_pictures(ref_pics, dist_pics);
#endif
}

void ApiContext::import_frame(const exactvq_picture& ref, const exactvq_picture& dist, size_t frame,
                              Picture& ref_out, Picture& dist_out) {
  if (state_ == State::kFlushed)
    throw StateError("frames cannot be scored after the context was flushed or scored files");
  if (on_device_.value_or(false))
    throw StateError(
        "score_frames: this run's pictures are in CUDA device memory (exactvq_score_cuda_frames)");
  const VideoFormat format = pair_format(&ref, &dist, 1, frame);
  import_picture(ref, format, fmt::format("frame {}, reference picture", frame), ref_out);
  import_picture(dist, format, fmt::format("frame {}, distorted picture", frame), dist_out);
  if (!format_) start_frames(format);
  on_device_ = false;
}

void ApiContext::check_frame(const exactvq_picture& ref, const exactvq_picture& dist,
                             size_t frame) {
  if (state_ == State::kFlushed)
    throw StateError("frames cannot be scored after the context was flushed or scored files");
  if (on_device_.value_or(false))
    throw StateError(
        "score_frames: this run's pictures are in CUDA device memory (exactvq_score_cuda_frames)");
  const VideoFormat format = pair_format(&ref, &dist, 1, frame);
  check_picture_samples(ref, format, fmt::format("frame {}, reference picture", frame));
  check_picture_samples(dist, format, fmt::format("frame {}, distorted picture", frame));
  if (!format_) start_frames(format);
  on_device_ = false;
}

void ApiContext::copy_frame(const exactvq_picture& ref, const exactvq_picture& dist, size_t frame,
                            Picture& ref_out, Picture& dist_out) const {
  if (!format_) throw StateError("copy_frame: no frame was checked yet");
  import_picture(ref, *format_, fmt::format("frame {}, reference picture", frame), ref_out, false);
  import_picture(dist, *format_, fmt::format("frame {}, distorted picture", frame), dist_out,
                 false);
}

void ApiContext::parallel_for(int count, const std::function<void(int)>& body) const {
  if (!pool_) throw StateError("parallel_for: no frame was checked yet");
  if (caller_scores_)
    pool_->parallel_for(count, body);
  else
    pool_->parallel_for_own(count, body);
}

void ApiContext::wait_until(const std::function<bool()>& done) const {
  if (!pool_) throw StateError("wait_until: no frame was checked yet");
  if (caller_scores_)
    pool_->help_until(done);
  else
    pool_->wait_until(done);
}

void ApiContext::wake() const {
  if (pool_) pool_->notify();
}

void ApiContext::submit_pictures(std::span<const Picture> refs, std::span<const Picture> dists) {
  if (state_ == State::kFlushed)
    throw StateError("frames cannot be scored after the context was flushed or scored files");
  if (refs.size() != dists.size() || refs.empty() || refs.size() > feed_frames_)
    throw std::logic_error("submit_pictures: 1 to feed_frames() pairs are needed");
  const size_t first = report_.frame_numbers.size() +
                       std::accumulate(in_flight_.begin(), in_flight_.end(), size_t{0});
  std::vector<FramePair> pairs;
  for (size_t i = 0; i < refs.size(); ++i)
    pairs.push_back({&refs[i], &dists[i], int64_t(first + i)});
  in_flight_.push_back(refs.size());
  try {
    features_.submit(pairs);
  } catch (...) {
    // Not in flight: a device's features score within submit().
    in_flight_.pop_back();
    throw;
  }
}

void ApiContext::collect_pictures(bool keep) {
  if (in_flight_.empty()) throw std::logic_error("collect_pictures: no batch is in flight");
  const size_t count = in_flight_.front();
  in_flight_.pop_front();
  std::vector<std::vector<double>> columns(names_.size());
  if (!keep) {
    try {
      features_.collect(columns, caller_scores_);
    } catch (...) {}
    return;
  }
  features_.collect(columns, caller_scores_);
  const size_t first = report_.frame_numbers.size();
  for (size_t c = 0; c < columns.size(); ++c)
    report_.features[c].values.insert(report_.features[c].values.end(), columns[c].begin(),
                                      columns[c].end());
  for (size_t i = 0; i < count; ++i) report_.frame_numbers.push_back(uint32_t(first + i));
}

void ApiContext::score_pictures(std::span<const Picture> refs, std::span<const Picture> dists) {
  if (state_ == State::kFlushed)
    throw StateError("frames cannot be scored after the context was flushed or scored files");
  if (refs.size() != dists.size())
    throw ArgumentError("score_pictures: as many reference as distorted pictures are needed");
  if (!in_flight_.empty())
    throw std::logic_error("score_pictures: batches submitted are not collected yet");
  const size_t first = report_.frame_numbers.size(), count = refs.size();
  // Scores go to a side table first, so that a failing batch adds no partial frame.
  std::vector<std::vector<double>> columns(names_.size());
  std::vector<FramePair> pairs;
  for (size_t start = 0; start < count; start += batch_frames_) {
    const size_t n = std::min(batch_frames_, count - start);
    pairs.clear();
    for (size_t i = start; i < start + n; ++i)
      pairs.push_back({&refs[i], &dists[i], int64_t(first + i)});
    features_.score(pairs, columns);
  }
  for (size_t c = 0; c < columns.size(); ++c)
    report_.features[c].values.insert(report_.features[c].values.end(), columns[c].begin(),
                                      columns[c].end());
  for (size_t i = 0; i < count; ++i) report_.frame_numbers.push_back(uint32_t(first + i));
}

// The scores that need the whole run (motion's look-ahead) are known now.
void ApiContext::flush() {
  if (state_ == State::kFeeding && features_.frame_columns() < names_.size()) {
    std::vector<std::vector<double>> columns;
    for (auto& f : report_.features) columns.push_back(std::move(f.values));
    features_.finish(columns);
    for (size_t c = 0; c < columns.size(); ++c) report_.features[c].values = std::move(columns[c]);
  }
  state_ = State::kFlushed;
}

void ApiContext::score_files(const std::string& ref_path, const std::string& dist_path,
                             const exactvq_file_options& f) {
  if (state_ != State::kOpen)
    throw StateError("files can only be scored on a context that has been fed no frames");
  if (f.frame_count < -1 || f.skip_ref < 0 || f.skip_dist < 0 || f.subsample < 1)
    throw ArgumentError(
        fmt::format("file options: frame_count {} (-1: all), skip_ref {}, skip_dist {}, subsample "
                    "{} (at least 1)",
                    f.frame_count, f.skip_ref, f.skip_dist, f.subsample));
  RunOptions run;
  run.ref_path = ref_path;
  run.dist_path = dist_path;
  if (f.width != 0) run.raw.width = f.width;
  if (f.height != 0) run.raw.height = f.height;
  if (f.bitdepth != 0) run.raw.bitdepth = f.bitdepth;
  if (f.chroma != -1) run.raw.chroma = chroma_format(f.chroma, "file options");
  run.features = specs_;
  run.models = models_;
  run.predict = !options_.no_prediction;
  run.device.backend = backend_of(options_.backend);
  run.device.gpu = options_.gpu;
  run.device.opencl_device = options_.opencl_device;
  run.threads = threads_;
  if (f.frame_count >= 0) run.frame_count = f.frame_count;
  run.skip_ref = f.skip_ref;
  run.skip_dist = f.skip_dist;
  run.subsample = f.subsample;
  run.warn = [this](const std::string& line) { message(line); };
  report_ = score_videos(run);
  // The run's own columns: monochrome files have no chroma scores (psnr_cb, ...), which the
  // names known at open (a 4:2:0 probe) hold; series() looks names up by their position.
  names_.clear();
  for (const auto& series : report_.features) names_.push_back(series.name);
  state_ = State::kFlushed;
}

uint32_t ApiContext::frame_number(size_t position) const {
  if (position >= report_.frame_numbers.size())
    throw RangeError(fmt::format("frame position {} is past the {} frames scored", position,
                                 report_.frame_numbers.size()));
  return report_.frame_numbers[position];
}

const std::vector<double>& ApiContext::series(const std::string& name) const {
  for (size_t i = 0; i < names_.size(); ++i)
    if (names_[i] == name) {
      if (i < report_.features.size()) return report_.features[i].values;
      static const std::vector<double> kNone;
      return kNone;
    }
  throw StateError(
      fmt::format("no score '{}' was requested (scores: {})", name, fmt::join(names_, ", ")));
}

double ApiContext::score(const std::string& name, size_t position) const {
  const auto& values = series(name);
  if (position >= values.size())
    throw RangeError(
        fmt::format("frame position {} is past the {} frames scored", position, values.size()));
  return values[position];
}

void ApiContext::scores(const std::string& name, double* out, size_t count) const {
  const auto& values = series(name);
  if (count > values.size())
    throw RangeError(
        fmt::format("{} scores asked for, but {} frames were scored", count, values.size()));
  if (count > 0 && !out) throw ArgumentError("read_scores: the output array is a null pointer");
  std::copy_n(values.begin(), count, out);
}

Pooled ApiContext::pooled(const std::string& name) const {
  const auto& values = series(name);
  if (state_ != State::kFlushed)
    throw StateError(
        "pooled scores need a flushed context (call exactvq_flush after the last frame)");
  if (values.empty()) throw StateError("no frames were scored, so there is nothing to pool");
  return pool(values);
}

}  // namespace exactvq::capi
