#include "app/feature_set.h"

#include <algorithm>
#include <atomic>
#include <deque>
#include <exception>
#include <mutex>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/error.h"
#include "core/run_trace.h"
#include "metrics/registry.h"

namespace exactvq {

namespace {

bool has(const std::vector<std::string>& names, const std::string& name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

size_t position(const std::vector<std::string>& names, const std::string& name) {
  return size_t(std::find(names.begin(), names.end(), name) - names.begin());
}

}  // namespace

FeatureSet::FeatureSet(std::vector<FeatureSpec> specs, const FeatureContext& ctx,
                       std::vector<std::shared_ptr<const ScoreModel>> models, bool predict)
    : specs_(std::move(specs)),
      side_by_side_(!ctx.device && ctx.pool && ctx.pool->size() > 1 ? ctx.pool : nullptr) {
  if (specs_.empty() && models.empty()) specs_.push_back({"ssim", {}});
  // Features the device has no engine for are named all at once (a preset such
  // as --aom_ctc may need several); any other error stops at once.
  std::vector<std::string> missing;
  std::string device;
  std::exception_ptr first;
  const auto add_or_note = [&](const FeatureSpec& spec, bool from_model) {
    try {
      add(spec, ctx, from_model);
    } catch (const NoEngineError& e) {
      if (missing.empty()) device = e.device();
      if (!has(missing, e.feature())) missing.push_back(e.feature());
      if (missing.size() == 1) first = std::current_exception();
    }
  };
  for (const auto& model : models)
    for (const FeatureSpec& spec : model->features()) add_or_note(spec, true);
  for (const FeatureSpec& spec : specs_) add_or_note(spec, false);
  if (missing.size() == 1) std::rethrow_exception(first);
  if (!missing.empty())
    throw DeviceError(fmt::format(
        "features {} are not available on {}, and the run needs each of them (--backend cpu "
        "scores them all)",
        fmt::join(missing, ", "), device));
  frame_columns_ = columns_.size();
  for (const auto& feature : features_)
    for (const auto& name : feature->run_outputs()) {
      if (has(columns_, name))
        throw UsageError(fmt::format("feature output '{}' is requested twice", name));
      columns_.push_back(name);
    }
  if (!predict) return;
  for (auto& model : models) {
    for (const auto& input : model->inputs())
      if (!has(columns_, input))
        throw UsageError(fmt::format("model {} reads '{}', which none of its features gives",
                                     model->output(), input));
    for (const auto& output : model->outputs()) {
      if (has(columns_, output))
        throw UsageError(
            fmt::format("model output '{}' is also a feature's output or another model's: "
                        "name the model with name=...",
                        output));
      columns_.push_back(output);
    }
    models_.push_back(std::move(model));
  }
}

// A model's feature, or a user's that a model already asked for, whose outputs
// are all present is the same extractor, made once (libvmaf's names differ
// whenever options do); any other repeated output is an error.
void FeatureSet::add(const FeatureSpec& spec, const FeatureContext& ctx, bool from_model) {
  std::unique_ptr<Feature> feature;
  try {
    feature = make_feature(spec, ctx);
  } catch (const PictureError&) {
    throw;
  } catch (const InputError& e) {
    // What a feature refuses as it is made is the pictures (their size or depth).
    throw PictureError(e.what());
  }
  const auto& outputs = feature->outputs();
  const bool present =
      !outputs.empty() && std::all_of(outputs.begin(), outputs.end(),
                                      [&](const std::string& n) { return has(columns_, n); });
  if (present && (from_model || has(model_columns_, outputs.front()))) return;
  for (const auto& name : outputs) {
    if (has(columns_, name))
      throw UsageError(fmt::format("feature output '{}' is requested twice", name));
    columns_.push_back(name);
    if (from_model) model_columns_.push_back(name);
  }
  batch_frames_ = std::max(batch_frames_, feature->batch_frames());
  temporal_ = temporal_ || feature->temporal();
  planes_read_ = std::max(planes_read_, feature->planes_read());
  first_column_.push_back(columns_.size() - outputs.size());
  const bool temporal = feature->temporal();
  features_.push_back(std::move(feature));
  spec_names_.push_back(spec.name);
  const auto first_other = std::find_if(call_order_.begin(), call_order_.end(),
                                        [&](size_t f) { return !features_[f]->temporal(); });
  call_order_.insert(temporal ? first_other : call_order_.end(), features_.size() - 1);
}

// A batch submitted and not yet collected.
struct FeatureSet::Batch {
  std::vector<FramePair> pairs;             // every pair (temporal features)
  std::vector<FramePair> kept;              // the pairs the report keeps (the others)
  std::vector<std::vector<double>> values;  // per feature: its rows of outputs() values
  std::atomic<size_t> unfinished = 0;       // features not yet done with it
  std::exception_ptr error;                 // the first a feature threw
};

// The batches in flight, oldest first, and which features have a task queued or
// running: a feature scores the batches one at a time, in order (its state, as
// motion's pictures, runs from one to the next).
struct FeatureSet::Pipeline {
  ThreadPool* pool = nullptr;  // null: submit() scores at once
  std::mutex mutex;
  std::deque<std::unique_ptr<Batch>> batches;
  std::vector<char> busy;

  // The batches' pictures go when the run ends, also when it unwinds: their
  // tasks end first.
  ~Pipeline() {
    if (pool)
      pool->help_until([&] {
        return std::all_of(batches.begin(), batches.end(),
                           [](const auto& b) { return b->unfinished == 0; });
      });
  }
};

FeatureSet::FeatureSet(FeatureSet&&) noexcept = default;
FeatureSet& FeatureSet::operator=(FeatureSet&&) noexcept = default;
FeatureSet::~FeatureSet() = default;
FeatureSet::FeatureSet() = default;

void FeatureSet::clear() {
  pipeline_.reset();
  features_.clear();
  spec_names_.clear();
  call_order_.clear();
}

void FeatureSet::score_feature(size_t f, Batch& batch) {
  Feature& feature = *features_[f];
  const std::span<const FramePair> given = feature.temporal() ? batch.pairs : batch.kept;
  std::vector<double>& values = batch.values[f];
  values.assign(given.size() * feature.outputs().size(), 0.0);
  if (!given.empty()) feature.extract_batch(given, values);
}

// Feature f's task on `batch`; then its task on the next batch, if one came.
void FeatureSet::run_feature(Pipeline& p, size_t f, Batch* batch) {
  std::exception_ptr error;
  try {
    const run_trace::Span span(spec_names_[f].c_str(),
                               batch->pairs.empty() ? -1 : batch->pairs.front().index);
    score_feature(f, *batch);
  } catch (...) {
    error = std::current_exception();
  }
  Batch* then = nullptr;
  {
    std::lock_guard lock(p.mutex);
    if (error && !batch->error) batch->error = error;
    auto it = std::find_if(p.batches.begin(), p.batches.end(),
                           [&](const auto& b) { return b.get() == batch; });
    if (++it != p.batches.end())
      then = it->get();
    else
      p.busy[f] = 0;
  }
  ThreadPool* pool = p.pool;
  if (then) pool->post([this, &p, f, then] { run_feature(p, f, then); });
  // The last touch of this set: once the count is 0, collect() may free the batch
  // and a finished run the whole set.
  --batch->unfinished;
  pool->notify();
}

void FeatureSet::submit(std::span<const FramePair> pairs) {
  if (!pipeline_) {
    pipeline_ = std::make_unique<Pipeline>();
    pipeline_->pool = side_by_side_;
    pipeline_->busy.assign(features_.size(), 0);
  }
  Pipeline& p = *pipeline_;
  auto batch = std::make_unique<Batch>();
  batch->pairs.assign(pairs.begin(), pairs.end());
  for (const FramePair& pair : pairs)
    if (keep_every_ == 1 || kept(pair.index)) batch->kept.push_back(pair);
  batch->values.resize(features_.size());
  if (!p.pool) {
    for (const size_t f : call_order_) score_feature(f, *batch);
    p.batches.push_back(std::move(batch));
    return;
  }
  batch->unfinished = call_order_.size();
  Batch* const b = batch.get();
  std::lock_guard lock(p.mutex);
  p.batches.push_back(std::move(batch));
  for (const size_t f : call_order_)
    if (!p.busy[f]) {
      p.busy[f] = 1;
      p.pool->post([this, &p, f, b] { run_feature(p, f, b); });
    }
}

void FeatureSet::collect(std::vector<std::vector<double>>& columns, bool help) {
  Pipeline& p = *pipeline_;
  Batch* const front = p.batches.front().get();
  const auto scored = [&] { return front->unfinished == 0; };
  if (p.pool && help) p.pool->help_until(scored);
  if (p.pool && !help) p.pool->wait_until(scored);
  std::unique_ptr<Batch> batch;
  {
    std::lock_guard lock(p.mutex);
    batch = std::move(p.batches.front());
    p.batches.pop_front();
  }
  if (batch->error) std::rethrow_exception(batch->error);
  columns.resize(columns_.size());
  for (size_t f = 0; f < features_.size(); ++f) {
    const size_t n = features_[f]->outputs().size();
    const std::vector<double>& values = batch->values[f];
    const size_t rows = n ? values.size() / n : 0;
    for (size_t k = 0; k < n; ++k) {
      auto& column = columns[first_column_[f] + k];
      for (size_t i = 0; i < rows; ++i) column.push_back(values[i * n + k]);
    }
  }
  for (const FramePair& pair : batch->pairs) indices_.push_back(pair.index);
}

bool FeatureSet::oldest_scored() const {
  if (!pipeline_ || pipeline_->batches.empty()) return false;
  return !pipeline_->pool || pipeline_->batches.front()->unfinished == 0;
}

void FeatureSet::score(std::span<const FramePair> pairs,
                       std::vector<std::vector<double>>& columns) {
  if (pairs.empty()) return;
  submit(pairs);
  collect(columns);
}

void FeatureSet::finish(std::vector<std::vector<double>>& columns) const {
  columns.resize(columns_.size());
  size_t next = frame_columns_;
  for (size_t f = 0; f < features_.size(); ++f) {
    const Feature& feature = *features_[f];
    const size_t count = feature.run_outputs().size();
    if (count == 0) continue;
    std::vector<const std::vector<double>*> own;
    for (size_t k = 0; k < feature.outputs().size(); ++k)
      own.push_back(&columns[first_column_[f] + k]);
    feature.finish(own, std::span<std::vector<double>>(columns.data() + next, count));
    next += count;
  }
  if (keep_every_ > 1) {
    // Temporal features' columns hold every frame: keep the subsampled ones.
    std::vector<size_t> temporal_columns;
    size_t run = frame_columns_;
    for (size_t f = 0; f < features_.size(); ++f) {
      if (!features_[f]->temporal()) continue;
      for (size_t k = 0; k < features_[f]->outputs().size(); ++k)
        temporal_columns.push_back(first_column_[f] + k);
    }
    for (size_t f = 0; f < features_.size(); ++f)
      for (size_t k = 0; k < features_[f]->run_outputs().size(); ++k)
        temporal_columns.push_back(run++);
    for (size_t c : temporal_columns) {
      std::vector<double>& column = columns[c];
      size_t out = 0;
      for (size_t i = 0; i < column.size() && i < indices_.size(); ++i)
        if (kept(indices_[i])) column[out++] = column[i];
      column.resize(out);
    }
  }
  const size_t frames = frame_columns_ > 0 ? columns[0].size() : 0;
  std::vector<double> inputs, scores;
  for (const auto& model : models_) {
    std::vector<size_t> where;
    for (const auto& input : model->inputs()) where.push_back(position(columns_, input));
    const size_t count = model->outputs().size();
    for (size_t k = 0; k < count; ++k) columns[next + k].assign(frames, 0.0);
    scores.assign(count, 0.0);
    for (size_t i = 0; i < frames; ++i) {
      inputs.clear();
      for (size_t c : where) inputs.push_back(columns[c][i]);
      model->predict_all(inputs, scores);
      for (size_t k = 0; k < count; ++k) columns[next + k][i] = scores[k];
    }
    next += count;
  }
}

int FeatureSet::frames_before() const {
  int most = 0;
  for (const auto& feature : features_) most = std::max(most, feature->frames_before());
  return most;
}

void FeatureSet::start_at(std::span<const FramePair> before, int64_t first_index) {
  for (auto& feature : features_) {
    const size_t wanted = std::min(before.size(), size_t(feature->frames_before()));
    feature->start_at(before.subspan(before.size() - wanted), first_index);
  }
}

std::vector<std::pair<std::string, double>> FeatureSet::aggregates() const {
  std::vector<std::pair<std::string, double>> all;
  for (const auto& feature : features_)
    for (auto& kv : feature->aggregates()) all.push_back(std::move(kv));
  return all;
}

}  // namespace exactvq
