// The VMAF model reader on any bytes: a model file or collection (JSON with
// libsvm text inside), the libsvm text alone, or a --model spec. Each either
// throws its InputError / UsageError or gives models that hold together and predict.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.h"
#include "fuzz_check.h"
#include "metrics/vmaf/bootstrap.h"
#include "metrics/vmaf/model.h"
#include "metrics/vmaf/model_spec.h"
#include "metrics/vmaf/predict.h"
#include "metrics/vmaf/svm_model.h"

using namespace exactvq;
using namespace exactvq::vmaf;

namespace {

void check_model(const Model& m) {
  FUZZ_CHECK(!m.features.empty() && m.features.size() <= kMaxModelFeatures);
  for (const ModelFeature& f : m.features) {
    FUZZ_CHECK(!f.extractor.empty() && !f.output_key.empty());
    FUZZ_CHECK(std::isfinite(f.slope) && std::isfinite(f.intercept));
  }
  FUZZ_CHECK(m.score_transform.knots.size() <= kMaxModelKnots);
  for (const SupportVector& sv : m.svm.support_vectors)
    for (const SvmNode& n : sv.nodes)
      FUZZ_CHECK(n.index >= 1 && n.index <= static_cast<int>(m.features.size()));
  const std::vector<double> inputs(m.features.size(), 0.5);
  const double score = predict(m, inputs);
  if (m.score_clip && !std::isnan(score) && m.score_clip->min <= m.score_clip->max)
    FUZZ_CHECK(score >= m.score_clip->min && score <= m.score_clip->max, "score %g", score);
}

// A collection's models each hold together, its members are of one bootstrap
// type, and its scores come out one per member plus the four statistics.
void check_models(const ModelCollection& c) {
  check_model(c.main);
  if (!c.is_collection()) return;
  FUZZ_CHECK(c.members.size() <= kMaxCollectionMembers);
  std::vector<std::vector<double>> inputs;
  for (const Model& m : c.members) {
    check_model(m);
    FUZZ_CHECK(m.type == c.members.front().type && m.type != ModelType::kLibsvmNusvr &&
               m.type != ModelType::kUnspecified);
    inputs.emplace_back(m.features.size(), 0.5);
  }
  const BootstrapScores s = predict_bootstrap(c.members, inputs);
  FUZZ_CHECK(s.members.size() == c.members.size());
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    check_models(parse_models(text, "fuzz.json"));
  } catch (const InputError&) {}
  try {
    const SvmModel svm = parse_svm_model(text, "fuzz.json", "model_dict.model");
    for (const SupportVector& sv : svm.support_vectors)
      for (std::size_t i = 1; i < sv.nodes.size(); ++i)
        FUZZ_CHECK(sv.nodes[i - 1].index < sv.nodes[i].index);
  } catch (const InputError&) {}
  if (size <= 1024) {
    try {
      const ModelSpec spec = parse_model_spec(std::string(text));
      FUZZ_CHECK(!spec.version.empty() || !spec.path.empty());
      if (!spec.version.empty()) check_models(load_models(spec));  // never opens path= files
    } catch (const UsageError&) {}
  }
  return 0;
}
