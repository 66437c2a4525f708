// VMAF models as a run scores them: each model spec (`--model`) made into a
// ScoreModel (metrics/score_model.h) that asks for its extractors and predicts
// on the host.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "metrics/score_model.h"

namespace exactvq::vmaf {

// One ScoreModel per spec ("version=vmaf_v0.6.1:name=a", model_spec.h), in
// order, then one more per bootstrap collection among them (its members and
// statistics, which libvmaf writes after every model's score). UsageError for
// a bad spec, and when several models are not each named apart (libvmaf's
// rule: two models may not both write "vmaf"); InputError for a bad model file.
std::vector<std::shared_ptr<const ScoreModel>> make_score_models(
    const std::vector<std::string>& specs);

// The model a run without --feature or --model scores, as libvmaf's vmaf does.
inline constexpr const char* kDefaultModelSpec = "version=vmaf_v0.6.1";

}  // namespace exactvq::vmaf
