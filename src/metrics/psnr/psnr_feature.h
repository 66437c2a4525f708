// The `psnr` feature, on every device: libvmaf's integer psnr (integer_psnr.c)
// with its names and options: psnr_y, psnr_cb, psnr_cr; mse_* with enable_mse;
// apsnr_* (over the whole run, in the report's aggregate metrics) with
// enable_apsnr. The device's engine (engine.h) sums the squared errors; the
// decibels come from the same binary64 operations on every device (psnr_math.h).
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "metrics/feature.h"
#include "metrics/psnr/options.h"
#include "metrics/psnr/psnr_math.h"

namespace exactvq {

namespace psnr {

// Turns a frame's per-plane SSE into the feature's values and keeps the run's
// sums for apsnr: the host half of psnr.
class PsnrScorer {
 public:
  PsnrScorer(const PsnrOptions& options, const VideoFormat& format);

  // Per-frame names in libvmaf's order: psnr_y, [mse_y,] psnr_cb, [mse_cb,] ...
  const std::vector<std::string>& outputs() const { return names_; }
  // Planes to sum: 1 (luma) or 3.
  int planes() const { return planes_; }
  // Writes one frame's outputs from sse[0 .. planes()) and adds them to the run.
  void score_frame(const uint64_t* sse, std::span<double> out);
  // apsnr_y, apsnr_cb, apsnr_cr over the frames scored so far (enable_apsnr),
  // else nothing.
  std::vector<std::pair<std::string, double>> aggregates() const;
  // The integer totals behind aggregates() (per plane: SSE, samples), and the
  // aggregates of a sum of such states (Feature::aggregate_state).
  std::vector<AggregateWord> state() const;
  std::vector<std::pair<std::string, double>> aggregates_of(
      std::span<const AggregateWord> state) const;

 private:
  bool enable_mse_, enable_apsnr_;
  int planes_ = 1;
  uint32_t peak_ = 255;
  double psnr_max_[3] = {};
  uint64_t samples_[3] = {};
  ApsnrSum apsnr_[3];
  std::vector<std::string> names_;
};

}  // namespace psnr

// Throws DeviceError when the context's device has no psnr engine or cannot make one.
std::unique_ptr<Feature> make_psnr_feature(const psnr::PsnrOptions& options,
                                           const FeatureContext& ctx);

}  // namespace exactvq
