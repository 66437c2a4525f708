// Feature extractors, one per metric, in the shape of libvmaf's table
// (name, options, per-frame extraction): new metrics and backends plug in here.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "core/picture.h"
#include "core/thread_pool.h"
#include "metrics/feature_spec.h"

namespace exactvq {

enum class Backend { kCpu, kCuda, kOpenCL, kAuto };

const char* backend_name(Backend b);  // "cpu", "cuda", "opencl", "auto"

class DeviceBackend;  // features/device_backend.h

// One word of a feature's mergeable aggregate state (see Feature::aggregate_state).
__extension__ typedef unsigned __int128 AggregateWord;  // GCC and Clang

struct FeatureContext {
  VideoFormat format;
  ThreadPool* pool = nullptr;  // may be null: single thread
  // The GPU that scores, shared by every feature of a run so a frame pair is
  // uploaded once; null: the CPU.
  std::shared_ptr<DeviceBackend> device;
};

// One frame pair of a batch; `index` is the frame's number in the run, unique
// and increasing, so a device can tell whether it already holds the pair.
struct FramePair {
  const Picture* ref = nullptr;
  const Picture* dist = nullptr;
  int64_t index = 0;
};

class Feature {
 public:
  virtual ~Feature() = default;
  // The names of the values extract() writes, in order ("ssim", "ssim_cb", ...).
  virtual const std::vector<std::string>& outputs() const = 0;
  // Scores one frame pair; `out` has outputs().size() entries.
  virtual void extract(const Picture& ref, const Picture& dist, std::span<double> out) = 0;
  // Scores several frame pairs; `out` is frames.size() rows of outputs().size()
  // values. Backends with frames in flight override it; the default calls extract().
  virtual void extract_batch(std::span<const FramePair> frames, std::span<double> out);
  // How many frame pairs this feature wants per extract_batch call.
  virtual int batch_frames() const { return 1; }
  // Values over the whole run, asked once after the last frame: libvmaf's
  // aggregate_metrics (e.g. psnr's apsnr_y). Most features have none.
  virtual std::vector<std::pair<std::string, double>> aggregates() const { return {}; }

  // The exact integer state behind aggregates() (e.g. psnr's SSE and sample
  // totals per plane), for runs whose frames were shared out among several
  // features of one spec (one per device, features/multi_device.h): their states,
  // added element by element, given to aggregates_of() give the bits one feature
  // scoring every frame would. Empty for features without aggregates; a feature
  // that has aggregates but no state cannot be shared out (multi_device refuses it).
  virtual std::vector<AggregateWord> aggregate_state() const { return {}; }
  virtual std::vector<std::pair<std::string, double>> aggregates_of(
      std::span<const AggregateWord> /*state*/) const {
    return {};
  }
};

// Throws UsageError for an unknown feature or option, or a bad option value;
// DeviceError when ctx.device cannot compute the feature.
std::unique_ptr<Feature> make_feature(const FeatureSpec& spec, const FeatureContext& ctx);

// Names of the features make_feature knows, for --help and messages.
std::vector<std::string> known_features();

}  // namespace exactvq
