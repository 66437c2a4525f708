// The features of one run, the one place that makes them from their specs, checks
// their output names, scores batches of frame pairs into per-output columns and,
// once the last frame is scored, fills the columns that need the whole run (the
// run outputs of temporal features, then each model's scores): score_videos(),
// the C API and exactvq-mpi's ranks all score through it.
#pragma once

#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "metrics/feature.h"
#include "metrics/score_model.h"

namespace exactvq {

class FeatureSet {
 public:
  // The features every model needs (in model order, each made once) and then
  // those of `specs` (neither: ssim), on ctx's device; with `predict`, the columns
  // of each model's outputs() after them. Throws UsageError for an output that two features
  // name, and what make_feature throws.
  FeatureSet(std::vector<FeatureSpec> specs, const FeatureContext& ctx,
             std::vector<std::shared_ptr<const ScoreModel>> models = {}, bool predict = true);
  // A set with no features (before a run knows its format).
  FeatureSet();

  const std::vector<FeatureSpec>& specs() const { return specs_; }
  const std::vector<std::unique_ptr<Feature>>& features() const { return features_; }
  // Every column of the run, in libvmaf's order: each feature's per-frame
  // outputs, then each feature's run outputs, then each model's scores.
  const std::vector<std::string>& columns() const { return columns_; }
  // How many of columns() score() fills; finish() fills the rest.
  size_t frame_columns() const { return frame_columns_; }
  // Whether a feature needs every frame of the run in order (Feature::temporal).
  bool temporal() const { return temporal_; }
  // The most planes a feature reads (Feature::planes_read).
  int planes_read() const { return planes_read_; }
  // A range of a run scored on its own (exactvq-mpi): the most frames before the
  // range a feature reads, and the call that gives them to every feature.
  int frames_before() const;
  void start_at(std::span<const FramePair> before, int64_t first_index);
  // --subsample N with a temporal feature: score() is then given every frame;
  // temporal features see them all (as libvmaf computes motion on every frame),
  // the others only the frames whose index is a multiple of N, and finish()
  // keeps just those frames' rows.
  void keep_every(int n) {
    keep_every_ = n;
    for (auto& f : features_)
      if (f->temporal()) f->reported_every(n);
  }
  bool kept(int64_t index) const { return index % keep_every_ == 0; }
  // The largest batch a feature wants.
  int batch_frames() const { return batch_frames_; }

  // Scores `pairs` with every feature (side by side on the CPU's threads) and
  // appends each per-frame output's values to columns[k] (columns() long); the
  // caller's columns are left as they were if a feature throws.
  void score(std::span<const FramePair> pairs, std::vector<std::vector<double>>& columns);
  // score() in two halves, so that a run can hand over its next batch while the
  // last one's final frames are scored: submit() starts scoring `pairs` (not
  // empty; their pictures must stay until its collect() returns), and returns
  // at once where pipelined(); collect() waits for the oldest batch submitted
  // and not collected, then appends its values as score() does, or rethrows
  // what a feature threw on it. While it waits, the calling thread runs the
  // pool's ready tasks, or with `help` false sleeps (a thread that feeds the
  // pool rather than scores).
  void submit(std::span<const FramePair> pairs);
  void collect(std::vector<std::vector<double>>& columns, bool help = true);
  // Whether submit() returns before the batch is scored: on the CPU with
  // several threads. A device's engines score each batch in passes they share,
  // in call_order_, within submit().
  bool pipelined() const { return side_by_side_ != nullptr; }
  // Whether collect() would return without waiting: a batch is in flight and
  // every feature is done with the oldest. Only on the thread that submits and
  // collects (it alone changes which batches are in flight); it reads no lock,
  // so a ThreadPool::help_until condition may ask it.
  bool oldest_scored() const;
  // After the last frame: fills the columns after frame_columns() for every
  // frame held in the first ones.
  void finish(std::vector<std::vector<double>>& columns) const;
  // Every feature's aggregates, in feature order.
  std::vector<std::pair<std::string, double>> aggregates() const;
  // Waits for the batches in flight, then destroys the features (a device's
  // page-locked pictures must be released before the pictures go).
  void clear();

  FeatureSet(FeatureSet&&) noexcept;
  FeatureSet& operator=(FeatureSet&&) noexcept;
  // Waits for the batches still in flight.
  ~FeatureSet();

 private:
  struct Batch;
  struct Pipeline;
  void add(const FeatureSpec& spec, const FeatureContext& ctx, bool from_model);
  void score_feature(size_t f, Batch& batch);
  // `p`, not pipeline_: clear() empties pipeline_ before the pipeline's destructor runs
  // the tasks still queued.
  void run_feature(Pipeline& p, size_t f, Batch* batch);

  std::vector<FeatureSpec> specs_;
  std::vector<std::unique_ptr<Feature>> features_;
  std::vector<std::string> spec_names_;  // features_[f]'s name as asked for (run traces)
  std::vector<size_t> first_column_;  // per feature: where its outputs start
  // The order score() calls the features in: temporal ones first (a device
  // computes them only in passes of their own, which the others then share).
  std::vector<size_t> call_order_;
  std::vector<std::shared_ptr<const ScoreModel>> models_;
  std::vector<std::string> columns_;
  std::vector<std::string> model_columns_;  // the outputs of features a model asked for
  size_t frame_columns_ = 0;
  bool temporal_ = false;
  int planes_read_ = 1;
  int batch_frames_ = 1;
  // On the CPU with several threads, the pool that scores the features side
  // by side, each on its own task (each feature's engine loops over the frames
  // on the same pool, so no thread waits for one feature to finish before the
  // next starts, nor for a batch to end before the next starts); null: within
  // submit(), one after another (a device's engines share its passes).
  ThreadPool* side_by_side_ = nullptr;
  std::unique_ptr<Pipeline> pipeline_;  // the batches in flight
  int keep_every_ = 1;
  std::vector<int64_t> indices_;  // every frame given to score(), in order
};

}  // namespace exactvq
