#include "metrics/vmaf/model_spec.h"

#include <cctype>
#include <charconv>
#include <cmath>

#include <fmt/format.h>

#include "core/error.h"
#include "metrics/vmaf/model_features.h"

namespace exactvq::vmaf {

namespace {

std::vector<std::string> split(const std::string& text, char sep) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  while (true) {
    const std::size_t at = text.find(sep, start);
    parts.push_back(text.substr(start, at == std::string::npos ? std::string::npos : at - start));
    if (at == std::string::npos) return parts;
    start = at + 1;
  }
}

// libvmaf's CLI stores a value that reads as a number (sscanf "%f" and nothing
// after) in its normalised form.
std::string overload_value(const std::string& value) {
  std::size_t b = 0, e = value.size();
  while (b < e && std::isspace(static_cast<unsigned char>(value[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(value[e - 1]))) --e;
  double d = 0.0;
  const char* first = value.data() + b;
  const char* last = value.data() + e;
  const auto [end, ec] = std::from_chars(first, last, d);
  if (b < e && end == last && (ec == std::errc() || ec == std::errc::result_out_of_range))
    return normalised_number_text(std::string_view(first, static_cast<std::size_t>(e - b)));
  return value;
}

bool flag_value(const std::string& item, const std::string& key, const std::string& value) {
  if (value == "true") return true;
  if (value == "false") return false;
  throw UsageError(
      fmt::format("--model: {} takes true or false, not \"{}\" (in \"{}\")", key, value, item));
}

}  // namespace

ModelSpec parse_model_spec(const std::string& text) {
  ModelSpec spec;
  if (text.empty()) throw UsageError("--model: empty model spec (want version=NAME or path=FILE)");
  for (const std::string& item : split(text, ':')) {
    const std::size_t eq = item.find('=');
    const std::string key = item.substr(0, eq);
    if (eq == std::string::npos) {
      if (key == "disable_clip")
        spec.flags.disable_clip = true;
      else if (key == "enable_transform")
        spec.flags.enable_transform = true;
      else
        throw UsageError(
            fmt::format("--model: bad item \"{}\" in \"{}\" (want key=value)", item, text));
      continue;
    }
    const std::string value = item.substr(eq + 1);
    if (value.find('=') != std::string::npos)
      throw UsageError(fmt::format("--model: item \"{}\" has more than one '='", item));
    if (key == "path" || key == "version" || key == "name") {
      if (value.empty()) throw UsageError(fmt::format("--model: {}= needs a value", key));
      (key == "path" ? spec.path : key == "version" ? spec.version : spec.name) = value;
    } else if (key == "disable_clip") {
      spec.flags.disable_clip = flag_value(item, key, value);
    } else if (key == "enable_transform") {
      spec.flags.enable_transform = flag_value(item, key, value);
    } else {
      const std::size_t dot = key.find('.');
      if (dot == std::string::npos || dot == 0 || dot + 1 == key.size() ||
          key.find('.', dot + 1) != std::string::npos)
        throw UsageError(
            fmt::format("--model: unknown key \"{}\" (known: version, path, name, disable_clip, "
                        "enable_transform, EXTRACTOR.OPTION)",
                        key));
      spec.overloads.push_back({key.substr(0, dot), key.substr(dot + 1), overload_value(value)});
    }
  }
  if (spec.version.empty() && spec.path.empty())
    throw UsageError(
        fmt::format("--model \"{}\": names no model (want version=NAME or path=FILE)", text));
  return spec;
}

namespace {

// Renames a model's inputs after its options changed; UsageError on a bad combination.
void rename_inputs(Model& m) {
  for (ModelFeature& f : m.features) {
    const OutputKeyResult key =
        feature_output_key(*extractor_for_feature(f.name), f.name, f.options);
    if (!key.error.empty()) throw UsageError(fmt::format("--model: {}", key.error));
    f.output_key = key.key;
  }
}

// Applies an overload to every input `m` makes with its extractor; false when none does.
bool overload(Model& m, const FeatureOverload& o) {
  bool taken = false;
  for (ModelFeature& f : m.features) {
    if (f.extractor != o.extractor) continue;
    taken = true;
    bool replaced = false;
    for (auto& [k, v] : f.options)
      if (k == o.key) {
        v = o.value;
        replaced = true;
      }
    if (!replaced) f.options.emplace_back(o.key, o.value);
  }
  return taken;
}

}  // namespace

ModelCollection load_models(const ModelSpec& spec) {
  ModelCollection c = !spec.version.empty() ? builtin_models(spec.version, spec.flags)
                                            : load_models_file(spec.path, spec.flags);
  // A collection's members are named after its name, as libvmaf names them.
  c.main.name = spec.name;
  for (std::size_t i = 0; i < c.members.size(); ++i)
    c.members[i].name = fmt::format("{}_{:04}", spec.name, i + 1);
  for (const FeatureOverload& o : spec.overloads) {
    if (!overload(c.main, o))
      throw UsageError(fmt::format("--model: {}.{}: model {} has no input made by extractor {}",
                                   o.extractor, o.key, c.main.version, o.extractor));
    for (Model& m : c.members) overload(m, o);
  }
  rename_inputs(c.main);
  for (Model& m : c.members) rename_inputs(m);
  return c;
}

Model load_model(const ModelSpec& spec) {
  ModelCollection c = load_models(spec);
  if (c.is_collection())
    throw UsageError(
        fmt::format("--model: {} is a model collection, not one model", c.main.version));
  return std::move(c.main);
}

}  // namespace exactvq::vmaf
