// One scoring run behind the C API: features chosen at open, fed frame pairs or a
// pair of files, scores kept for reading. Throws; the C layer turns exceptions into
// statuses and messages.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "app/feature_set.h"
#include "app/score_run.h"
#include "core/picture.h"
#include "core/thread_pool.h"
#include "exactvq/exactvq.h"
#include "backends/device.h"
#include "output/report.h"

namespace exactvq::capi {

class ApiContext {
 public:
  // Parses and checks the features; throws UsageError naming a bad one. With
  // `caller_scores` the thread that scores (score_frames' caller) is one of
  // options.threads, the run's pool the others; without, it only feeds the
  // pool (libvmaf's reader beside its n_threads workers), which holds them all.
  explicit ApiContext(const exactvq_options& options, bool caller_scores = true);
  ~ApiContext();

  void score_frames(const exactvq_picture* refs, const exactvq_picture* dists, size_t count);
  // Pictures in CUDA device memory (exactvq_score_cuda_frames).
  void score_cuda_frames(const exactvq_picture* refs, const exactvq_picture* dists, size_t count,
                         void* cuda_stream);
  // Frames gathered into batches by a caller that keeps its own buffers
  // (libvmaf's vmaf_read_pictures): checks the pair and copies it into
  // ref_out/dist_out (buffers of the same size stay in place, so a device keeps
  // them page-locked), opening the device with the first pair; `frame` names it
  // in messages. After the first pair, safe beside score_pictures() on another
  // thread.
  void import_frame(const exactvq_picture& ref, const exactvq_picture& dist, size_t frame,
                    Picture& ref_out, Picture& dist_out);
  // import_frame() in two halves, for a caller that holds on to its pictures
  // until their batch is scored: check_frame() checks the pair, its samples
  // included (and opens the device with the first), on the caller's thread;
  // copy_frame() copies a checked pair, on any thread (it changes nothing of
  // the context's).
  void check_frame(const exactvq_picture& ref, const exactvq_picture& dist, size_t frame);
  void copy_frame(const exactvq_picture& ref, const exactvq_picture& dist, size_t frame,
                  Picture& ref_out, Picture& dist_out) const;
  // body(0) .. body(count - 1) on the run's threads and the calling thread
  // (after the first frame); where the calling thread does not score, it runs
  // none of the run's other tasks meanwhile (ThreadPool::parallel_for_own).
  // Rethrows the first exception.
  void parallel_for(int count, const std::function<void(int)>& body) const;
  // Scores pairs import_frame() filled as the next frames, in batches of
  // batch_frames().
  void score_pictures(std::span<const Picture> refs, std::span<const Picture> dists);
  // score_pictures() in two halves, so that a caller can keep batches in flight
  // (FeatureSet::submit and collect: the threads start the next batch's frames
  // while the last of this one's end). submit_pictures() starts scoring pairs
  // import_frame() or copy_frame() filled, at most feed_frames(), as the frames
  // after every pair submitted before (their pictures stay until collected);
  // collect_pictures() waits for the oldest batch submitted and adds its scores
  // (all of them or none), or rethrows its failure; with `keep` false it waits
  // and drops them (a batch after a failed one, or a run that stops). Both on
  // one thread, beside import_frame() on another.
  void submit_pictures(std::span<const Picture> refs, std::span<const Picture> dists);
  void collect_pictures(bool keep = true);
  // Whether submit_pictures() returns before its batch is scored (on the CPU
  // with several threads); else it scores the batch itself.
  bool pipelined() const { return features_.pipelined(); }
  // Whether collect_pictures() would not wait (FeatureSet::oldest_scored):
  // on the thread that submits.
  bool oldest_scored() const { return features_.oldest_scored(); }
  // Waits until done() holds: the calling thread runs the run's ready tasks
  // meanwhile where it scores (caller_scores), else sleeps. done() is read with
  // the pool's lock held, and whatever makes it true calls wake() after
  // (ThreadPool::help_until). After the first frame.
  void wait_until(const std::function<bool()>& done) const;
  void wake() const;
  // The pairs a caller should gather before score_pictures() (known after the
  // first frame): the features' batch, at most 8 frames of 1 MiB or more on a
  // device, as the command line reads them.
  size_t feed_frames() const { return feed_frames_; }
  void flush();
  void score_files(const std::string& ref_path, const std::string& dist_path,
                   const exactvq_file_options& file_options);

  const std::vector<std::string>& score_names() const { return names_; }
  size_t frame_count() const { return report_.frame_numbers.size(); }
  uint32_t frame_number(size_t position) const;
  double score(const std::string& name, size_t position) const;
  void scores(const std::string& name, double* out, size_t count) const;
  Pooled pooled(const std::string& name) const;

  // The message of the last failed call; mutable so that reads through a const
  // context can report their failures.
  mutable std::string last_error;

 private:
  enum class State { kOpen, kFeeding, kFlushed };

  void start_frames(const VideoFormat& format);
  // Checks that every pair's pictures have one format, the run's; returns it.
  // `first`: the first pair's frame number, for messages.
  VideoFormat pair_format(const exactvq_picture* refs, const exactvq_picture* dists, size_t count,
                          size_t first) const;
  const std::vector<double>& series(const std::string& name) const;
  void message(const std::string& line) const;

  exactvq_options options_;
  std::vector<FeatureSpec> specs_;
  std::vector<std::shared_ptr<const ScoreModel>> models_;
  std::vector<std::string> names_;
  int threads_ = 1;
  bool caller_scores_ = true;
  State state_ = State::kOpen;
  // Frame feeding: created with the first frame, when the format is known.
  std::optional<VideoFormat> format_;
  std::unique_ptr<ThreadPool> pool_;
  FeatureSet features_;
  size_t batch_frames_ = 1;
  size_t feed_frames_ = 1;
  int cuda_ordinal_ = -1;          // the run's CUDA device (Device::cuda_ordinal)
  std::optional<bool> on_device_;  // whether the run's pictures are in CUDA device memory
  bool told_host_copies_ = false;
  std::deque<size_t> in_flight_;  // the frames of each batch submitted and not collected
  ScoreReport report_;
};

}  // namespace exactvq::capi
