// Feature extractors, one per metric, in the shape of libvmaf's table
// (name, options, per-frame extraction): new metrics and backends plug in here.
#pragma once

#include <memory>
#include <span>
#include <string>
#include <vector>

#include "core/picture.h"
#include "core/thread_pool.h"
#include "features/feature_spec.h"

namespace exactvq {

enum class Backend { kCpu, kAuto };

struct FeatureContext {
  VideoFormat format;
  Backend backend = Backend::kCpu;
  ThreadPool* pool = nullptr;  // may be null: single thread
};

class Feature {
 public:
  virtual ~Feature() = default;
  // The names of the values extract() writes, in order ("ssim", "ssim_cb", ...).
  virtual const std::vector<std::string>& outputs() const = 0;
  // Scores one frame pair; `out` has outputs().size() entries.
  virtual void extract(const Picture& ref, const Picture& dist, std::span<double> out) = 0;
};

// Throws UsageError for an unknown feature or option, or a bad option value.
std::unique_ptr<Feature> make_feature(const FeatureSpec& spec, const FeatureContext& ctx);

// Names of the features make_feature knows, for --help and messages.
std::vector<std::string> known_features();

}  // namespace exactvq
