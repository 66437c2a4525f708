#include "app/score_run.h"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <deque>
#include <exception>
#include <memory>
#include <mutex>
#include <thread>

#include <fmt/format.h>

#include "app/feature_set.h"
#include "app/pair_reader.h"
#include "core/error.h"
#include "core/run_trace.h"
#include "core/startup_trace.h"
#include "output/report.h"

namespace exactvq {

// The two inputs must agree in size, chroma format and depth; all differences named.
void check_compatible(const VideoSource& ref, const VideoSource& dist) {
  const VideoFormat& a = ref.format();
  const VideoFormat& b = dist.format();
  std::vector<std::string> problems;
  if (a.width != b.width || a.height != b.height)
    problems.push_back(
        fmt::format("sizes differ: {}x{} vs {}x{}", a.width, a.height, b.width, b.height));
  if (a.chroma != b.chroma)
    problems.push_back(fmt::format("chroma formats differ: {} vs {}", chroma_name(a.chroma),
                                   chroma_name(b.chroma)));
  if (a.bitdepth != b.bitdepth)
    problems.push_back(fmt::format("bit depths differ: {} vs {}", a.bitdepth, b.bitdepth));
  if (!problems.empty())
    throw InputError(fmt::format("reference {} ({}) and distorted {} ({}) do not match: {}",
                                 ref.name(), a.describe(), dist.name(), b.describe(),
                                 fmt::join(problems, "; ")));
}

// Skips the user's --frame_skip_*, naming the option when the input is shorter (no
// frame left to score).
void skip_frames(VideoSource& src, int64_t count, const char* option) {
  for (int64_t i = 0; i < count; ++i)
    if (!src.skip_frame())
      throw PictureError(fmt::format("{} {}: {} has only {} frame{}", option, count, src.name(), i,
                                     i == 1 ? "" : "s"));
}

namespace {

// How many frames the run will score, when both inputs know their length.
std::optional<int64_t> planned_frames(const VideoSource& ref, const VideoSource& dist,
                                      const RunOptions& o) {
  if (o.frame_count) return (*o.frame_count + o.subsample - 1) / o.subsample;
  const auto r = ref.frame_count(), d = dist.frame_count();
  if (!r || !d) return std::nullopt;
  const int64_t common = std::max<int64_t>(0, std::min(*r - o.skip_ref, *d - o.skip_dist));
  return (common + o.subsample - 1) / o.subsample;
}

// Batches read ahead: a reader thread fills one slot while the caller scores
// the others, so reading and parsing overlap compute. With `overlap` false,
// reading is inline. A batch next() returns stays valid until `slots - 1` more
// calls.
class BatchPump {
 public:
  BatchPump(PairReader& reader, size_t batch_frames, bool overlap, size_t slots) : reader_(reader) {
    for (size_t i = 0; i < slots; ++i) slots_.emplace_back(batch_frames);
    if (overlap) thread_ = std::thread([this] { produce(); });
  }
  ~BatchPump() {
    if (!thread_.joinable()) return;
    {
      std::lock_guard lock(mutex_);
      cancel_ = true;
    }
    changed_.notify_all();
    thread_.join();
  }

  // The next filled batch.
  FrameBatch& next() {
    FrameBatch& slot = slots_[consumed_ % slots_.size()];
    if (!thread_.joinable()) {
      reader_.fill(slot);
    } else {
      std::unique_lock lock(mutex_);
      if (consumed_ + 1 >= slots_.size()) {  // hand the oldest slot back to the reader
        ++released_;
        changed_.notify_all();
      }
      changed_.wait(lock, [&] { return filled_ > consumed_; });
    }
    ++consumed_;
    return slot;
  }

 private:
  void produce() {
    for (uint64_t k = 0;; ++k) {
      {
        std::unique_lock lock(mutex_);
        // slot k % n is free once the consumer has released batch k - n
        changed_.wait(lock, [&] { return cancel_ || k < released_ + slots_.size(); });
        if (cancel_) return;
      }
      FrameBatch& slot = slots_[k % slots_.size()];
      // The first batch one frame: nothing is scored until it is read (and its
      // pictures allocated), so a short one starts the scoring sooner.
      reader_.fill(slot, k == 0 ? 1 : SIZE_MAX);
      {
        std::lock_guard lock(mutex_);
        ++filled_;
      }
      changed_.notify_all();
      if (slot.last) return;
    }
  }

  PairReader& reader_;
  std::deque<FrameBatch> slots_;
  std::thread thread_;
  std::mutex mutex_;
  std::condition_variable changed_;
  uint64_t filled_ = 0, released_ = 0, consumed_ = 0;
  bool cancel_ = false;
};

// --hwdec: unset is auto on CUDA.
DecodeOptions decode_options(const RunOptions& o, const DeviceOptions& device) {
  DecodeOptions d;
  d.hw = o.hwdec.value_or(device.backend == Backend::kCuda ? HwDecode::kAuto : HwDecode::kNone);
  d.cuda_device = device.gpus.empty() ? device.gpu : device.gpus.front();
  return d;
}

// Frames a GPU decoded stay in its memory when the run scores there, every
// feature taking pictures in device memory; else they come to the host.
void leave_decoded_frames_on_device(VideoSource& ref, VideoSource& dist, const FeatureContext& ctx,
                                    const FeatureSet& features, const DeviceOptions& device) {
  const int scoring = ctx.device ? ctx.device->cuda_ordinal() : -1;
  bool direct = scoring >= 0;
  for (const auto& feature : features.features())
    direct = direct && feature->scores_device_pictures();
  bool told = false;
  for (VideoSource* src : {&ref, &dist}) {
    const int decoding = src->cuda_decoder_device();
    if (decoding < 0) continue;
    const bool here = direct && decoding == scoring;
    src->set_device_pictures(here);
    if (!here && !told && device.verbose && device.notice) {
      told = true;
      const char* why = !ctx.device   ? "the run scores on the CPU"
                        : scoring < 0 ? "the run scores on another device"
                        : direct      ? "the run scores on another GPU"
                                      : "a feature of this run reads them there";
      device.notice(fmt::format("frames the GPU decoded are copied to the host: {}", why));
    }
  }
}

// Opens the reference and the distorted input, each on a thread of its own
// (an FFmpeg input's opening is mostly waiting: probing, the GPU's decoder
// set up, the first frame; the two overlap), except where one is standard
// input (a failed reference must not leave the run waiting on a terminal).
// Errors as reading one after the other gives them: the reference's where both
// fail. `fallbacks` gets the inputs' CPU fallbacks, the reference's first.
void open_inputs(const RunOptions& o, const DecodeOptions& decode, bool verbose,
                 std::unique_ptr<VideoSource>& ref, std::unique_ptr<VideoSource>& dist,
                 std::vector<std::pair<std::string, std::string>>& fallbacks) {
  std::vector<std::pair<std::string, std::string>> ref_fallbacks, dist_fallbacks;
  const auto open = [&](const char* name, const std::string& path,
                        std::vector<std::pair<std::string, std::string>>& said) {
    DecodeOptions d = decode;
    if (verbose)
      d.fallback = [&said](const std::string& input, const std::string& why) {
        said.emplace_back(input, why);
      };
    const startup::InputName input(name);  // the readers' own marks: "ref probed", ...
    return open_video(path, o.raw, d);
  };
  if (o.ref_path == "-" || o.dist_path == "-") {
    ref = open("ref", o.ref_path, ref_fallbacks);
    startup::mark("ref opened");
    dist = open("dist", o.dist_path, dist_fallbacks);
  } else {
    std::exception_ptr dist_error;
    std::thread dist_opening([&] {
      try {
        dist = open("dist", o.dist_path, dist_fallbacks);
      } catch (...) {
        dist_error = std::current_exception();
      }
    });
    std::exception_ptr ref_error;
    try {
      ref = open("ref", o.ref_path, ref_fallbacks);
      startup::mark("ref opened");
    } catch (...) {
      ref_error = std::current_exception();
    }
    dist_opening.join();
    if (ref_error) std::rethrow_exception(ref_error);
    if (dist_error) std::rethrow_exception(dist_error);
  }
  fallbacks = std::move(ref_fallbacks);
  fallbacks.insert(fallbacks.end(), dist_fallbacks.begin(), dist_fallbacks.end());
}

// A benchmark's override of a run's setting: the variable's number, within
// [lo, hi], or `fallback` where it is unset.
int benchmark_setting(const char* variable, int lo, int hi, int fallback) {
  const char* v = std::getenv(variable);
  return v ? std::clamp(std::atoi(v), lo, hi) : fallback;
}

}  // namespace

ScoreReport score_videos(const RunOptions& o) {
  // Frames a batch of large frames holds when a device scores, and the batches a
  // CPU pipeline scores at once (both below).
  static const int kLargeFrameBatch = benchmark_setting("EXACTVQ_LARGE_FRAME_BATCH", 1, 64, 8);
  static const size_t kPipelineDepth = size_t(benchmark_setting("EXACTVQ_PIPELINE_DEPTH", 2, 8, 2));
  // EXACTVQ_TRACE=FILE: the run's timeline (core/run_trace.h), written once it
  // has scored; a run that fails writes none.
  const char* const trace_path = std::getenv("EXACTVQ_TRACE");
  const bool tracing = trace_path && *trace_path;
  struct TraceStop {
    bool tracing;
    ~TraceStop() {
      if (tracing) run_trace::stop();
    }
  } trace_stop{tracing};
  if (tracing) run_trace::start();
  if (o.subsample < 1) throw UsageError("--subsample must be at least 1");
  if (o.ref_path == "-" && o.dist_path == "-")
    throw UsageError("the reference and the distorted input cannot both be standard input");

  DeviceOptions device = o.device;
  if (!device.notice) device.notice = o.warn;
  // A fallback of both inputs for the same reason is said once.
  std::vector<std::pair<std::string, std::string>> fallbacks;
  const DecodeOptions decode = decode_options(o, device);
  std::unique_ptr<VideoSource> ref, dist;
  open_inputs(o, decode, device.verbose, ref, dist, fallbacks);
  if (fallbacks.size() == 2 && fallbacks[0].second == fallbacks[1].second)
    fallbacks = {{fallbacks[0].first + " and " + fallbacks[1].first, fallbacks[0].second}};
  for (const auto& [input, why] : fallbacks)
    if (device.notice) device.notice(fmt::format("{}: decoded on the CPU: {}", input, why));
  check_compatible(*ref, *dist);
  const VideoFormat format = ref->format();
  startup::mark("inputs opened");

  ThreadPool pool(o.threads);
  const FeatureContext ctx{format, &pool, open_device(device, format)};
  startup::mark("device");
  FeatureSet features(o.features, ctx, o.models, o.predict);
  startup::mark("features set up");
  // Motion compares each frame with the one before: with --subsample, every
  // frame is read and given to it, and the report keeps every Nth (libvmaf's way).
  const bool read_every_frame = features.temporal() && o.subsample > 1;
  ref->read_planes_only(features.planes_read());
  dist->read_planes_only(features.planes_read());
  if (read_every_frame) features.keep_every(o.subsample);
  leave_decoded_frames_on_device(*ref, *dist, ctx, features, device);

  ScoreReport report;
  report.version = EXACTVQ_VERSION;
  report.width = format.width;
  report.height = format.height;
  int batch_frames = features.batch_frames();

  skip_frames(*ref, o.skip_ref, "--frame_skip_ref");
  skip_frames(*dist, o.skip_dist, "--frame_skip_dist");
  const std::optional<int64_t> total = planned_frames(*ref, *dist, o);

  // A device scores large frames faster than they are read: batches of 8 keep
  // less memory to fault in and page-lock before the pipeline runs (faster end
  // to end: docs/figures.md); the engines split larger batches themselves.
  if (ctx.device && format.frame_bytes() >= (size_t{1} << 20))
    batch_frames = std::min(batch_frames, kLargeFrameBatch);

  // With more than one thread, or a device to feed, reading runs beside scoring
  // and the two inputs are read at once.
  const bool overlap = o.threads > 1 || ctx.device != nullptr;
  // A GPU scores frames faster than one thread reads them from the page cache:
  // then each input is read by several threads (a quarter of the cores, 2..4).
  // So do many CPU threads (a quarter of them, up to 4): while one thread reads
  // a batch of a frame a thread, the others have only the batch before.
  int reader_threads = o.reader_threads;
  if (reader_threads <= 0)
    reader_threads = ctx.device ? std::clamp(int(std::thread::hardware_concurrency()) / 4, 2, 4)
                                : std::clamp(o.threads / 4, 1, 4);
  PairReader reader(*ref, *dist,
                    {o.frame_count, read_every_frame ? 1 : o.subsample, o.equal_lengths}, overlap,
                    reader_threads);
  // Where the features score batches in a pipeline (FeatureSet::pipelined),
  // kPipelineDepth batches in flight (the last finishing while the next starts)
  // and one more being read.
  const bool pipelined = overlap && features.pipelined();
  BatchPump pump(reader, size_t(batch_frames), overlap, pipelined ? kPipelineDepth + 1 : 2);
  // Device engines page-lock the pump's pictures and unlock them when destroyed:
  // destroy them before the pump frees the pictures (also when unwinding), else a
  // freed range stays registered and the next allocation there (another run in
  // this process: --batch, the C API) collides with it.
  struct FeaturesFirst {
    FeatureSet& features;
    ~FeaturesFirst() { features.clear(); }
  } features_first{features};
  std::vector<FramePair> pairs;
  std::vector<std::vector<double>> columns(features.columns().size());
  const auto start = std::chrono::steady_clock::now();
  // A batch's scores, after its pairs were submitted (when it had any).
  const auto collect = [&](const FrameBatch& batch) {
    if (batch.count > 0) {
      {
        const run_trace::Span span("collect", batch.index[0]);
        features.collect(columns);
      }
      startup::mark("first batch scored");
      for (size_t i = 0; i < batch.count; ++i)
        if (features.kept(batch.index[i])) report.frame_numbers.push_back(uint32_t(batch.index[i]));
      if (o.progress) o.progress(int64_t(report.frame_numbers.size()), total);
    }
    if (batch.error) std::rethrow_exception(batch.error);
    if (!batch.warning.empty() && o.warn) o.warn(batch.warning);
  };
  // Pipelined, a batch is collected once kPipelineDepth - 1 more are submitted
  // (by default once the next is), so the threads go on with the next batches'
  // frames while the last of this one's end.
  std::deque<const FrameBatch*> submitted;
  for (;;) {
    FrameBatch& batch = [&]() -> FrameBatch& {
      const run_trace::Span span("wait for read");
      return pump.next();
    }();
    startup::mark("first batch read");
    pairs.clear();
    for (size_t i = 0; i < batch.count; ++i)
      pairs.push_back({&batch.ref[i], &batch.dist[i], batch.index[i]});
    if (!pairs.empty()) {
      const run_trace::Span span("submit", pairs.front().index);
      features.submit(pairs);
    }
    submitted.push_back(&batch);
    const size_t keep = pipelined && !batch.last ? kPipelineDepth - 1 : 0;
    while (submitted.size() > keep) {
      const FrameBatch& oldest = *submitted.front();
      submitted.pop_front();
      collect(oldest);
    }
    if (batch.last) break;
  }
  startup::mark("all frames scored");
  if (report.frame_numbers.empty())
    throw PictureError(fmt::format("no frames to score in {} and {}", ref->name(), dist->name()));
  features.finish(columns);
  for (size_t c = 0; c < columns.size(); ++c)
    report.features.push_back({features.columns()[c], std::move(columns[c])});
  for (auto& [name, value] : features.aggregates()) report.aggregates.push_back({name, value});
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  report.fps = seconds > 0 ? double(report.frame_numbers.size()) / seconds : 0.0;
  if (tracing) {
    run_trace::stop();
    write_file_atomically(trace_path, run_trace::write);
  }
  if (o.scored) o.scored(report);
  return report;
}

}  // namespace exactvq
