// libvmaf's JSON model format (read_json_model.c), read strictly: the fields
// libvmaf reads must be present where the prediction needs them, well-typed,
// of the right counts and finite; the fields it skips (param_dict,
// feature_dict, ...) are skipped here too.
#include <algorithm>
#include <cmath>
#include <fstream>
#include <iterator>
#include <sstream>

#include <fmt/format.h>

#include "core/error.h"
#include "metrics/vmaf/chroma_correction.h"
#include "metrics/vmaf/model.h"
#include "metrics/vmaf/model_features.h"
#include "metrics/vmaf/model_json.h"

namespace exactvq::vmaf {

namespace {

using json = nlohmann::json;

class ModelReader {
 public:
  // `pointer` is where the model sits in the file ("" for the whole file, "/3"
  // for a collection's member "3"), `field_prefix` how errors name that place.
  ModelReader(const JsonDocument& doc, const std::string& source, std::string pointer = "",
              std::string field_prefix = "")
      : doc_(doc),
        source_(source),
        pointer_(std::move(pointer)),
        field_prefix_(std::move(field_prefix)) {}

  [[noreturn]] void fail(const std::string& field, const std::string& what) const {
    throw InputError(
        fmt::format("model {}: field '{}{}': {}", source_, field_prefix_, field, what));
  }

  const std::string& pointer() const { return pointer_; }
  std::string field(const std::string& name) const { return field_prefix_ + name; }

  const json& object_member(const json& parent, const char* key, const std::string& field) const {
    const auto it = parent.find(key);
    if (it == parent.end()) fail(field, "missing");
    if (!it->is_object()) fail(field, "expected an object");
    return *it;
  }

  double number(const json& v, const std::string& field) const {
    if (!v.is_number()) fail(field, "expected a number");
    const double d = v.get<double>();
    if (!std::isfinite(d)) fail(field, "expected a finite number");
    return d;
  }

  std::vector<double> numbers(const json& v, std::size_t count, const std::string& field,
                              const std::string& why) const {
    auto expected = [&]() { return fmt::format("expected {} numbers ({})", count, why); };
    if (!v.is_array() || v.size() != count) fail(field, expected());
    std::vector<double> out;
    for (std::size_t i = 0; i < count; ++i) {
      if (!v[i].is_number()) fail(field, expected());
      out.push_back(number(v[i], fmt::format("{}[{}]", field, i)));
    }
    return out;
  }

  const std::string& string(const json& v, const std::string& field) const {
    if (!v.is_string()) fail(field, "expected a string");
    return v.get_ref<const std::string&>();
  }

  // The text of the number at `pointer` as the file writes it.
  std::string number_text(const std::string& pointer, const json& v) const {
    const auto it = doc_.number_text.find(pointer);
    return it != doc_.number_text.end() ? it->second : v.dump();
  }

 private:
  const JsonDocument& doc_;
  const std::string& source_;
  std::string pointer_;
  std::string field_prefix_;
};

void read_features(const ModelReader& r, const json& md, Model& m) {
  const auto it = md.find("feature_names");
  const std::string field = "model_dict.feature_names";
  if (it == md.end()) r.fail(field, "missing");
  if (!it->is_array() || it->empty() || it->size() > kMaxModelFeatures)
    r.fail(field, fmt::format("expected an array of 1 to {} feature names", kMaxModelFeatures));
  for (std::size_t i = 0; i < it->size(); ++i) {
    const std::string where = fmt::format("{}[{}]", field, i);
    ModelFeature f;
    f.name = r.string((*it)[i], where);
    const ExtractorInfo* e = extractor_for_feature(f.name);
    if (e == nullptr)
      r.fail(where, fmt::format("unknown feature name \"{}\" (not one that libvmaf's integer "
                                "adm, vif, motion, cambi or speed_chroma extractors provide)",
                                f.name));
    f.extractor = std::string(e->name);
    m.features.push_back(std::move(f));
  }
}

void read_feature_options(const ModelReader& r, const json& md, Model& m) {
  const auto it = md.find("feature_opts_dicts");
  if (it == md.end()) return;
  const std::string field = "model_dict.feature_opts_dicts";
  if (!it->is_array() || it->size() != m.features.size())
    r.fail(field,
           fmt::format("expected an array of {} objects (one per feature)", m.features.size()));
  for (std::size_t i = 0; i < it->size(); ++i) {
    const json& dict = (*it)[i];
    const std::string where = fmt::format("{}[{}]", field, i);
    if (!dict.is_object()) r.fail(where, "expected an object");
    const std::string pointer = r.pointer() + "/model_dict/feature_opts_dicts/" + std::to_string(i);
    for (const auto& [key, value] : dict.items()) {
      std::string text;
      if (value.is_boolean()) {
        text = value.get<bool>() ? "true" : "false";
      } else if (value.is_number()) {
        text = normalised_number_text(r.number_text(json_pointer_child(pointer, key), value));
      } else if (value.is_string()) {
        text = value.get<std::string>();
      } else {
        r.fail(where + "." + key, "expected a number, a boolean or a string");
      }
      m.features[i].options.emplace_back(key, std::move(text));
    }
  }
}

void read_score_transform(const ModelReader& r, const json& st, const ModelLoadFlags& flags,
                          Model& m) {
  const std::string field = "model_dict.score_transform";
  if (!st.is_object()) r.fail(field, "expected an object");
  ScoreTransform& t = m.score_transform;
  for (const auto& [key, value] : st.items()) {
    const std::string where = field + "." + key;
    if (key == "enabled") {
      if (!value.is_boolean()) r.fail(where, "expected true or false");
      t.enabled = value.get<bool>();
    } else if (key == "p0" || key == "p1" || key == "p2") {
      // libvmaf 3.2.0 fails to read a model with null here: so does this.
      std::optional<double>& p = key == "p0" ? t.p0 : key == "p1" ? t.p1 : t.p2;
      p = r.number(value, where);
    } else if (key == "knots") {
      if (!value.is_array() || value.size() > kMaxModelKnots)
        r.fail(where, fmt::format("expected an array of at most {} [x, y] pairs", kMaxModelKnots));
      for (std::size_t i = 0; i < value.size(); ++i) {
        const std::vector<double> xy =
            r.numbers(value[i], 2, fmt::format("{}[{}]", where, i), "x and y");
        t.knots.push_back({xy[0], xy[1]});
      }
      if (t.knots.size() >= 2)
        for (std::size_t i = 0; i + 1 < t.knots.size(); ++i)
          if (!(t.knots[i].x < t.knots[i + 1].x && t.knots[i].y <= t.knots[i + 1].y))
            r.fail(where,
                   fmt::format("knot {} to {}: x must increase and y must not decrease", i, i + 1));
    } else if (key == "out_lte_in" || key == "out_gte_in") {
      // libvmaf takes the string "true" as on and any other string as off.
      const bool on = r.string(value, where) == "true";
      (key == "out_lte_in" ? t.out_lte_in : t.out_gte_in) = on;
    }
  }
  if (flags.enable_transform) t.enabled = true;
}

// One model: the object holding "model_dict", at `r.pointer()` in the file.
Model read_model(const ModelReader& r, const json& root, const std::string& source,
                 const ModelLoadFlags& flags) {
  const json& md = r.object_member(root, "model_dict", "model_dict");

  Model m;
  m.version = source;

  if (const auto it = md.find("model_type"); it != md.end()) {
    const std::string& t = r.string(*it, "model_dict.model_type");
    if (t == "LIBSVMNUSVR")
      m.type = ModelType::kLibsvmNusvr;
    else if (t == "BOOTSTRAP_LIBSVMNUSVR")
      m.type = ModelType::kBootstrapLibsvmNusvr;
    else if (t == "RESIDUEBOOTSTRAP_LIBSVMNUSVR")
      m.type = ModelType::kResidueBootstrapLibsvmNusvr;
    else
      r.fail("model_dict.model_type",
             fmt::format("unknown \"{}\" (known: LIBSVMNUSVR, BOOTSTRAP_LIBSVMNUSVR, "
                         "RESIDUEBOOTSTRAP_LIBSVMNUSVR)",
                         t));
  }

  {
    const auto it = md.find("norm_type");
    if (it == md.end()) r.fail("model_dict.norm_type", "missing");
    const std::string& t = r.string(*it, "model_dict.norm_type");
    if (t == "linear_rescale")
      m.norm_type = NormType::kLinearRescale;
    else if (t == "none")
      m.norm_type = NormType::kNone;
    else
      r.fail("model_dict.norm_type",
             fmt::format("unknown \"{}\" (known: linear_rescale, none)", t));
  }

  read_features(r, md, m);
  const std::size_t n = m.features.size();
  for (const char* key : {"slopes", "intercepts"}) {
    const std::string field = std::string("model_dict.") + key;
    const auto it = md.find(key);
    if (it == md.end()) {
      if (m.norm_type == NormType::kLinearRescale)
        r.fail(field, "missing (linear_rescale needs it)");
      continue;
    }
    const std::vector<double> v =
        r.numbers(*it, n + 1, field, "the prediction's, then one per feature");
    const bool slopes = key[0] == 's';
    (slopes ? m.slope : m.intercept) = v[0];
    for (std::size_t i = 0; i < n; ++i)
      (slopes ? m.features[i].slope : m.features[i].intercept) = v[i + 1];
  }

  read_feature_options(r, md, m);
  for (std::size_t i = 0; i < n; ++i) {
    ModelFeature& f = m.features[i];
    const OutputKeyResult key =
        feature_output_key(*extractor_for_feature(f.name), f.name, f.options);
    if (!key.error.empty()) r.fail(fmt::format("model_dict.feature_opts_dicts[{}]", i), key.error);
    f.output_key = key.key;
  }

  if (const auto it = md.find("score_clip"); it != md.end()) {
    const std::vector<double> v = r.numbers(*it, 2, "model_dict.score_clip", "min and max");
    if (!flags.disable_clip) m.score_clip = ScoreClip{v[0], v[1]};
  }

  if (const auto it = md.find("score_transform"); it != md.end())
    read_score_transform(r, *it, flags, m);

  if (const auto it = md.find("chroma_correction_parameter"); it != md.end()) {
    const std::string field = "model_dict.chroma_correction_parameter";
    ChromaCorrection c;
    const std::string error = resolve_chroma_correction(m, r.number(*it, field), c);
    if (!error.empty()) r.fail(field, error);
    m.chroma_correction = c;
  }

  {
    const auto it = md.find("model");
    if (it == md.end()) r.fail("model_dict.model", "missing");
    m.svm = parse_svm_model(r.string(*it, "model_dict.model"), source, r.field("model_dict.model"));
    for (const SupportVector& sv : m.svm.support_vectors)
      for (const SvmNode& node : sv.nodes)
        if (node.index > static_cast<int>(n))
          r.fail("model_dict.model",
                 fmt::format("a support vector has index {}, beyond the model's {} features",
                             node.index, n));
  }
  return m;
}

bool is_decimal_number(const std::string& key) {
  return !key.empty() &&
         std::all_of(key.begin(), key.end(), [](char c) { return c >= '0' && c <= '9'; });
}

bool is_bootstrap(ModelType t) {
  return t == ModelType::kBootstrapLibsvmNusvr || t == ModelType::kResidueBootstrapLibsvmNusvr;
}

// libvmaf's collection reader walks the top-level keys in file order, reads
// the one equal to the next model number ("0", then "1", ...) and skips the
// rest. Other keys are skipped here too; a number out of turn, which libvmaf
// would silently drop, is refused.
ModelCollection read_collection(const JsonDocument& doc, const std::string& source,
                                const ModelLoadFlags& flags) {
  const ModelReader top(doc, source);
  ModelCollection c;
  std::size_t next = 0;
  const auto keys = doc.key_order.find("");
  for (const std::string& key : keys->second) {
    if (key != std::to_string(next)) {
      if (is_decimal_number(key))
        top.fail(key, fmt::format("model \"{}\" out of turn: a collection's models are \"0\", "
                                  "\"1\", ... in that order (expected \"{}\")",
                                  key, next));
      continue;
    }
    if (next > kMaxCollectionMembers)
      top.fail(key, fmt::format("more than {} models in a collection", kMaxCollectionMembers));
    const json& member = doc.root.at(key);
    if (!member.is_object()) top.fail(key, "expected an object (a model)");
    const ModelReader r(doc, source, json_pointer_child("", key), key + ".");
    Model m = read_model(r, member, source, flags);
    if (next == 0) {
      c.main = std::move(m);
    } else {
      if (!is_bootstrap(m.type))
        r.fail("model_dict.model_type",
               "a collection's models 1.. must be BOOTSTRAP_LIBSVMNUSVR or "
               "RESIDUEBOOTSTRAP_LIBSVMNUSVR");
      if (!c.members.empty() && m.type != c.members.front().type)
        r.fail("model_dict.model_type",
               "differs from model 1's: a collection's models 1.. are of "
               "one type");
      m.name = fmt::format("{}_{:04}", c.main.name, next);
      c.members.push_back(std::move(m));
    }
    ++next;
  }
  if (next == 0) top.fail("0", "missing (a collection's main model)");
  if (next == 1)
    top.fail("1", "missing: a model collection has its main model \"0\" and at least one more");
  return c;
}

}  // namespace

ModelCollection parse_models(std::string_view json_text, const std::string& source,
                             const ModelLoadFlags& flags) {
  if (json_text.size() > kMaxModelFileBytes)
    throw InputError(fmt::format("model {}: {} bytes, more than the {} a model file may have",
                                 source, json_text.size(), kMaxModelFileBytes));
  const JsonDocument doc = read_json_document(json_text, "model " + source);
  const ModelReader r(doc, source);
  const json& root = doc.root;
  if (!root.is_object()) r.fail("(top level)", "expected an object");
  // libvmaf reads a file as one model first, and as a collection when that fails.
  if (!root.contains("model_dict") && root.contains("0"))
    return read_collection(doc, source, flags);
  ModelCollection c;
  c.main = read_model(r, root, source, flags);
  return c;
}

Model parse_model(std::string_view json_text, const std::string& source,
                  const ModelLoadFlags& flags) {
  ModelCollection c = parse_models(json_text, source, flags);
  if (c.is_collection())
    throw InputError(fmt::format("model {}: a model collection ({} models), not one model", source,
                                 c.members.size() + 1));
  return std::move(c.main);
}

namespace {

std::string read_model_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(fmt::format("model {}: cannot open the file", path));
  std::string text;
  char buf[65536];
  while (in.read(buf, sizeof buf) || in.gcount() > 0) {
    text.append(buf, static_cast<std::size_t>(in.gcount()));
    if (text.size() > kMaxModelFileBytes)
      throw InputError(fmt::format("model {}: larger than the {} bytes a model file may have", path,
                                   kMaxModelFileBytes));
  }
  if (in.bad()) throw InputError(fmt::format("model {}: cannot read the file", path));
  return text;
}

}  // namespace

ModelCollection load_models_file(const std::string& path, const ModelLoadFlags& flags) {
  return parse_models(read_model_text(path), path, flags);
}

Model load_model_file(const std::string& path, const ModelLoadFlags& flags) {
  return parse_model(read_model_text(path), path, flags);
}

FeatureSpec extractor_spec(const ModelFeature& feature) {
  return FeatureSpec{feature.extractor, feature.options};
}

std::vector<FeatureSpec> extractor_specs(const Model& model) {
  std::vector<FeatureSpec> specs;
  for (const ModelFeature& f : model.features) {
    FeatureSpec spec = extractor_spec(f);
    const bool seen = std::any_of(specs.begin(), specs.end(), [&](const FeatureSpec& s) {
      return s.name == spec.name && s.options == spec.options;
    });
    if (!seen) specs.push_back(std::move(spec));
  }
  return specs;
}

}  // namespace exactvq::vmaf
