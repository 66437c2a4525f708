// The `psnr` feature: libvmaf's integer psnr (integer_psnr.c) with its names and
// options: psnr_y, psnr_cb, psnr_cr; mse_* with enable_mse; apsnr_* (over the
// whole run, in the report's aggregate metrics) with enable_apsnr.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "metrics/feature.h"
#include "metrics/psnr/psnr_math.h"

namespace exactvq {

struct PsnrOptions {
  bool enable_chroma = true;  // forced off for monochrome input
  bool enable_mse = false;
  bool enable_apsnr = false;
  bool reduced_hbd_peak = false;
  double min_sse = 0.0;  // > 0: sets each plane's ceiling (psnr_max)
};

// Throws UsageError naming the option on an unknown key or a bad value.
PsnrOptions parse_psnr_options(const FeatureSpec& spec);

// Turns a frame's per-plane SSE into the feature's values and keeps the run's
// sums for apsnr: the host half of psnr, shared by the CPU feature and the device
// backends (which compute only the SSE).
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
  std::vector<std::pair<std::string, double>> aggregates_of(std::span<const AggregateWord> state) const;

 private:
  bool enable_mse_, enable_apsnr_;
  int planes_ = 1;
  uint32_t peak_ = 255;
  double psnr_max_[3] = {};
  uint64_t samples_[3] = {};
  psnr::ApsnrSum apsnr_[3];
  std::vector<std::string> names_;
};

// A Feature whose values and aggregates come from a PsnrScorer: what every
// backend's psnr shares (they differ only in how each plane's SSE is found).
class PsnrScoringFeature : public Feature {
 public:
  PsnrScoringFeature(const PsnrOptions& options, const VideoFormat& format)
      : scorer_(options, format) {}

  const std::vector<std::string>& outputs() const override { return scorer_.outputs(); }
  std::vector<std::pair<std::string, double>> aggregates() const override {
    return scorer_.aggregates();
  }
  // The SSE totals behind apsnr, so that runs shared out over several devices
  // (features/multi_device.h) merge them exactly.
  std::vector<AggregateWord> aggregate_state() const override { return scorer_.state(); }
  std::vector<std::pair<std::string, double>> aggregates_of(
      std::span<const AggregateWord> state) const override {
    return scorer_.aggregates_of(state);
  }

 protected:
  PsnrScorer scorer_;
};

std::unique_ptr<Feature> make_psnr_feature(const PsnrOptions& options, const FeatureContext& ctx);

}  // namespace exactvq
