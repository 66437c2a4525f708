// A feature: one metric's scores of frame pairs, in the shape of libvmaf's table
// (name, options, per-frame extraction). Each metric has one Feature class
// (src/metrics/<metric>/), whatever the device: the feature is the metric's
// host half, and asks the device for the metric's engine (backends/device.h).
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "core/picture.h"
#include "core/thread_pool.h"
#include "metrics/feature_spec.h"

namespace exactvq {

class Device;  // backends/device.h

// One word of a feature's mergeable aggregate state (see Feature::aggregate_state).
__extension__ typedef unsigned __int128 AggregateWord;  // GCC and Clang

struct FeatureContext {
  VideoFormat format;
  ThreadPool* pool = nullptr;  // may be null: single thread
  // The device that scores, shared by every feature of a run so that a frame
  // pair is uploaded once; null: the CPU.
  std::shared_ptr<Device> device;
};

class Feature {
 public:
  virtual ~Feature() = default;
  // The names of the values extract_batch() writes per frame, in order ("ssim",
  // "ssim_cb", ...).
  virtual const std::vector<std::string>& outputs() const = 0;
  // Scores several frame pairs; `out` is frames.size() rows of outputs().size() values.
  virtual void extract_batch(std::span<const FramePair> frames, std::span<double> out) = 0;
  // One loose pair (FramePair::kLoose); `out` has outputs().size() entries.
  void extract(const Picture& ref, const Picture& dist, std::span<double> out) {
    const FramePair pair{&ref, &dist, FramePair::kLoose};
    extract_batch({&pair, 1}, out);
  }
  // How many frame pairs this feature wants per extract_batch call (a run may
  // give fewer: it cuts batches of large frames to bound the memory it page-locks).
  virtual int batch_frames() const { return 1; }
  // Outputs whose values need the whole run rather than one frame (motion's
  // integer_motion2 at frame i reads frame i + 1): named here, written by
  // finish() once the last frame is scored. Most features have none.
  virtual const std::vector<std::string>& run_outputs() const {
    static const std::vector<std::string> none;
    return none;
  }
  // Writes run_outputs() for the run's frames: `own` holds this feature's
  // per-frame columns over the whole run (outputs() order), `out` gets one
  // column per run output.
  virtual void finish(std::span<const std::vector<double>* const> /*own*/,
                      std::span<std::vector<double>> /*out*/) const {}
  // How many of the pictures' planes, from the first, the feature reads (1: luma
  // only): a run reads no more of its inputs than its features need.
  virtual int planes_read() const { return 3; }
  // Whether a frame's values depend on the frames before it (motion compares
  // each reference picture with the previous one): such a feature must see
  // every frame of the run in order.
  virtual bool temporal() const { return false; }
  // Whether the only reads of the pairs' pictures are the CUDA device's uploads,
  // so that pictures may lie in that device's memory (Picture::in_device_memory).
  virtual bool scores_device_pictures() const { return false; }
  // For a run that starts inside a longer one (an exactvq-mpi rank's range): how
  // many frames before its first one a temporal feature reads, and the call
  // that hands it those frames' pairs (oldest first) and the first frame's
  // index before the first extract_batch.
  virtual int frames_before() const { return 0; }
  virtual void start_at(std::span<const FramePair> /*before*/, int64_t /*first_index*/) {}
  // A temporal feature is told when the run reports only every nth frame
  // (--subsample n > 1) while it is given every frame; it throws UsageError
  // where it has no value for such a run.
  virtual void reported_every(int /*n*/) {}
  // Values over the whole run, asked once after the last frame: libvmaf's
  // aggregate_metrics (e.g. psnr's apsnr_y). Most features have none.
  virtual std::vector<std::pair<std::string, double>> aggregates() const { return {}; }

  // The exact integer state behind aggregates() (e.g. psnr's SSE and sample
  // totals per plane), for runs whose frames were shared out among several
  // processes (exactvq-mpi): their states, added element by element, given to
  // aggregates_of() give the bits one feature scoring every frame would. Empty
  // for features without aggregates.
  virtual std::vector<AggregateWord> aggregate_state() const { return {}; }
  virtual std::vector<std::pair<std::string, double>> aggregates_of(
      std::span<const AggregateWord> /*state*/) const {
    return {};
  }
};

}  // namespace exactvq
