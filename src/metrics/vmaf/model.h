// A VMAF model as libvmaf 3.2.0 reads it from its JSON model files
// (read_json_model.c): the features it combines, their normalisation, the
// libsvm regression over them, and the score transform and clip after it.
// docs/spec/vmaf.md describes every field.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "metrics/feature_spec.h"
#include "metrics/vmaf/svm_model.h"

namespace exactvq::vmaf {

// The model_dict "norm_type": how feature values and the prediction are scaled.
enum class NormType {
  kNone,           // "none": values used as they are
  kLinearRescale,  // "linear_rescale": x' = slope * x + intercept, undone on the output
};

// The model_dict "model_type"; a plain model predicts the same way under each.
enum class ModelType {
  kUnspecified,                 // no "model_type" field
  kLibsvmNusvr,                 // "LIBSVMNUSVR"
  kBootstrapLibsvmNusvr,        // "BOOTSTRAP_LIBSVMNUSVR"
  kResidueBootstrapLibsvmNusvr  // "RESIDUEBOOTSTRAP_LIBSVMNUSVR"
};

// One model input: a feature value libvmaf's extractor appends for every frame.
struct ModelFeature {
  std::string name;       // as the model lists it, e.g. "VMAF_integer_feature_adm2_score"
  std::string extractor;  // the libvmaf extractor that makes it: "adm", "vif" or "motion"
  // The extractor's options from the model's feature_opts_dicts (and the
  // model spec's overloads), as libvmaf stores them: keys as written, numbers
  // in libvmaf's normalised text (float, then "%g"), in key order.
  std::vector<std::pair<std::string, std::string>> options;
  // The key the prediction reads, as libvmaf's JSON output names it:
  // "integer_adm2", or "integer_adm2_egl_1" under non-default options.
  std::string output_key;
  double slope = 0.0;  // linear_rescale of this input
  double intercept = 0.0;
};

struct ScoreClip {
  double min = 0.0;
  double max = 0.0;
};

struct KnotPoint {
  double x = 0.0;
  double y = 0.0;
};

// model_dict "score_transform", applied only when `enabled` (the bundled models
// carry one but leave it off unless the spec says enable_transform).
struct ScoreTransform {
  bool enabled = false;
  std::optional<double> p0, p1, p2;  // polynomial p0 + p1 y + p2 y y; each term optional
  std::vector<KnotPoint> knots;      // piecewise-linear map; fewer than 2 knots: none
  bool out_lte_in = false;           // output at most the untransformed input
  bool out_gte_in = false;           // output at least the untransformed input
};

// model_dict "chroma_correction_parameter" (VMAF v1): where the chroma feature
// is exactly 0 (no chroma detail measured), libvmaf replaces it by
// p - p * adm3 before the SVM (chroma_correction.h).
struct ChromaCorrection {
  double parameter = 0.0;
  std::size_t guiding = 0;  // the input whose name contains "adm3"
  std::size_t guided = 0;   // the input whose name contains "speed_chroma"
};

struct Model {
  std::string version;        // the built-in version, or the file the model came from
  std::string name = "vmaf";  // the output key of the prediction (spec "name=")
  ModelType type = ModelType::kUnspecified;
  NormType norm_type = NormType::kNone;
  double slope = 0.0;  // linear_rescale of the prediction, undone after the SVM
  double intercept = 0.0;
  std::vector<ModelFeature> features;   // in the model's order: predict()'s inputs
  std::optional<ScoreClip> score_clip;  // absent: no clipping (or spec disable_clip)
  ScoreTransform score_transform;
  std::optional<ChromaCorrection> chroma_correction;
  SvmModel svm;
};

// A model file's models as libvmaf's `--model` loads them. A model collection
// (a bootstrap model such as vmaf_b_v0.6.3: an object of models "0", "1", ...
// and no "model_dict") has its main model "0" and members "1".."N", trained on
// resampled data, whose spread gives a confidence interval (docs/spec/vmaf.md);
// a file of one model has no members.
struct ModelCollection {
  Model main;                  // written as main.name ("vmaf")
  std::vector<Model> members;  // written as NAME_0001, NAME_0002, ... in order
  bool is_collection() const { return !members.empty(); }
};

// The most members a collection may have (their names carry four digits).
inline constexpr std::size_t kMaxCollectionMembers = 9999;

// The most features and knots libvmaf's reader takes (MAX_FEATURE_COUNT, MAX_KNOT_COUNT).
inline constexpr std::size_t kMaxModelFeatures = 64;
inline constexpr std::size_t kMaxModelKnots = 10;
// The largest model file read (the bundled ones are about 23 KB).
inline constexpr std::size_t kMaxModelFileBytes = std::size_t{64} << 20;

// How libvmaf's load flags change a model as it is read.
struct ModelLoadFlags {
  bool disable_clip = false;      // VMAF_MODEL_FLAG_DISABLE_CLIP: score_clip ignored
  bool enable_transform = false;  // VMAF_MODEL_FLAG_ENABLE_TRANSFORM: a present score_transform on
};

// Parses a model file's text. `source` names it in errors: every problem throws
// InputError "model SOURCE: field 'model_dict.slopes': expected 7 numbers"
// (a collection's member's fields: '3.model_dict.slopes'). A collection's
// members are named "vmaf_0001", ... and must all be of one bootstrap type.
ModelCollection parse_models(std::string_view json_text, const std::string& source,
                             const ModelLoadFlags& flags = {});
// parse_models for a file of one model (InputError for a collection).
Model parse_model(std::string_view json_text, const std::string& source,
                  const ModelLoadFlags& flags = {});

// Reads and parses a model file (InputError if unreadable or bad).
ModelCollection load_models_file(const std::string& path, const ModelLoadFlags& flags = {});
Model load_model_file(const std::string& path, const ModelLoadFlags& flags = {});

// The models compiled into the library: vmaf_v0.6.1, vmaf_v0.6.1neg,
// vmaf_4k_v0.6.1, vmaf_4k_v0.6.1neg, the collection vmaf_b_v0.6.3 and the eight VMAF
// v1.0.16 models (vmaf_v1.0.16_3d0h, ...).
std::vector<std::string> builtin_model_versions();
// A built-in model or collection; UsageError naming the known versions for any other.
ModelCollection builtin_models(std::string_view version, const ModelLoadFlags& flags = {});
// builtin_models for a model that is not a collection (InputError for one).
Model builtin_model(std::string_view version, const ModelLoadFlags& flags = {});
// The JSON text a built-in model is parsed from (UsageError as builtin_model).
std::string_view builtin_model_text(std::string_view version);

// The feature spec ("adm=adm_enhn_gain_limit=1") that makes a model input.
FeatureSpec extractor_spec(const ModelFeature& feature);
// The distinct feature specs a model's inputs need, in order of first use
// (inputs of one extractor with the same options share one).
std::vector<FeatureSpec> extractor_specs(const Model& model);

}  // namespace exactvq::vmaf
