// Bad model files: each a clear InputError "model bad.json: field 'F': ...",
// never a crash or a model that predicts anything.
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "core/error.h"
#include "metrics/vmaf/model.h"
#include "model_test_support.h"

namespace exactvq::vmaf {
namespace {

using nlohmann::json;

json base_model() { return json::parse(builtin_model_text("vmaf_v0.6.1neg")); }

std::string replaced(std::string text, const std::string& from, const std::string& to) {
  const std::size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

struct BadModel {
  const char* what;
  std::function<std::string()> text;
  const char* message;  // a part of the error it must give
};

std::string with(const std::function<void(json&)>& change) {
  json m = base_model();
  change(m);
  return m.dump();
}

std::string with_svm(const std::string& from, const std::string& to) {
  return with([&](json& m) {
    std::string& svm = m["model_dict"]["model"].get_ref<std::string&>();
    svm = replaced(svm, from, to);
  });
}

const std::vector<BadModel> kBadModels = {
    {"not JSON", [] { return std::string("svm_type nu_svr"); }, "not valid JSON"},
    {"empty", [] { return std::string(); }, "not valid JSON"},
    {"truncated", [] { return base_model().dump().substr(0, 500); }, "not valid JSON"},
    {"duplicate key",
     [] {
       return replaced(base_model().dump(),
                       "{\"model_dict\":", "{\"model_dict\":{},\"model_dict\":");
     },
     "given twice"},
    {"too deep", [] { return std::string(200, '[') + std::string(200, ']'); }, "nesting deeper"},
    {"huge number",
     [] { return replaced(base_model().dump(), "\"slopes\":[", "\"slopes\":[1e999,"); },
     "number overflow"},
    {"top level array", [] { return std::string("[1, 2]"); },
     "field '(top level)': expected an object"},
    {"no model_dict", [] { return std::string("{\"param_dict\": {}}"); },
     "field 'model_dict': missing"},
    {"a model collection", [] { return std::string(builtin_model_text("vmaf_b_v0.6.3")); },
     "a model collection (21 models), not one model"},
    {"model_dict not an object", [] { return with([](json& m) { m["model_dict"] = 3; }); },
     "field 'model_dict': expected an object"},
    {"no norm_type", [] { return with([](json& m) { m["model_dict"].erase("norm_type"); }); },
     "field 'model_dict.norm_type': missing"},
    {"unknown norm_type",
     [] { return with([](json& m) { m["model_dict"]["norm_type"] = "clip_0to1"; }); },
     "field 'model_dict.norm_type': unknown \"clip_0to1\""},
    {"norm_type a number", [] { return with([](json& m) { m["model_dict"]["norm_type"] = 1; }); },
     "field 'model_dict.norm_type': expected a string"},
    {"unknown model_type",
     [] { return with([](json& m) { m["model_dict"]["model_type"] = "SVR"; }); },
     "field 'model_dict.model_type': unknown"},
    {"no feature_names",
     [] { return with([](json& m) { m["model_dict"].erase("feature_names"); }); },
     "field 'model_dict.feature_names': missing"},
    {"empty feature_names",
     [] { return with([](json& m) { m["model_dict"]["feature_names"] = json::array(); }); },
     "field 'model_dict.feature_names': expected an array of 1 to 64"},
    {"65 features",
     [] {
       return with([](json& m) {
         m["model_dict"]["feature_names"] =
             std::vector<std::string>(65, "VMAF_integer_feature_adm2_score");
       });
     },
     "field 'model_dict.feature_names': expected an array of 1 to 64"},
    {"a feature name not a string",
     [] { return with([](json& m) { m["model_dict"]["feature_names"][5] = 5; }); },
     "field 'model_dict.feature_names[5]': expected a string"},
    {"a float feature",
     [] {
       return with(
           [](json& m) { m["model_dict"]["feature_names"][0] = "VMAF_feature_adm2_score"; });
     },
     "field 'model_dict.feature_names[0]': unknown feature name \"VMAF_feature_adm2_score\""},
    {"6 slopes", [] { return with([](json& m) { m["model_dict"]["slopes"].erase(6); }); },
     "field 'model_dict.slopes': expected 7 numbers"},
    {"8 intercepts",
     [] { return with([](json& m) { m["model_dict"]["intercepts"].push_back(1.0); }); },
     "field 'model_dict.intercepts': expected 7 numbers"},
    {"a slope not a number",
     [] { return with([](json& m) { m["model_dict"]["slopes"][2] = "0.5"; }); },
     "field 'model_dict.slopes': expected 7 numbers"},
    {"no intercepts", [] { return with([](json& m) { m["model_dict"].erase("intercepts"); }); },
     "field 'model_dict.intercepts': missing"},
    {"5 option dicts",
     [] { return with([](json& m) { m["model_dict"]["feature_opts_dicts"].erase(5); }); },
     "field 'model_dict.feature_opts_dicts': expected an array of 6 objects"},
    {"an option dict not an object",
     [] { return with([](json& m) { m["model_dict"]["feature_opts_dicts"][1] = 1; }); },
     "field 'model_dict.feature_opts_dicts[1]': expected an object"},
    {"an option out of range",
     [] {
       return with(
           [](json& m) { m["model_dict"]["feature_opts_dicts"][0]["adm_enhn_gain_limit"] = 0.5; });
     },
     "field 'model_dict.feature_opts_dicts[0]': option adm_enhn_gain_limit=0.5"},
    {"an option by its alias",
     [] {
       return with([](json& m) { m["model_dict"]["feature_opts_dicts"][0] = {{"egl", 1.0}}; });
     },
     "is an alias"},
    {"an unknown option",
     [] { return with([](json& m) { m["model_dict"]["feature_opts_dicts"][1]["speed"] = 1; }); },
     "field 'model_dict.feature_opts_dicts[1]': unknown option 'speed' of feature extractor "
     "motion"},
    {"an option an array",
     [] {
       return with(
           [](json& m) { m["model_dict"]["feature_opts_dicts"][0]["adm_enhn_gain_limit"] = {1}; });
     },
     "field 'model_dict.feature_opts_dicts[0].adm_enhn_gain_limit': expected a number, a boolean"},
    {"a bool option a number",
     [] {
       return with(
           [](json& m) { m["model_dict"]["feature_opts_dicts"][0]["adm_skip_scale0"] = 1; });
     },
     "expected true or false"},
    {"an int option a fraction",
     [] {
       return with([](json& m) { m["model_dict"]["feature_opts_dicts"][0]["adm_csf_mode"] = 1.5; });
     },
     "expected an integer"},
    {"one clip bound", [] { return with([](json& m) { m["model_dict"]["score_clip"] = {0.0}; }); },
     "field 'model_dict.score_clip': expected 2 numbers"},
    {"score_transform not an object",
     [] { return with([](json& m) { m["model_dict"]["score_transform"] = "on"; }); },
     "field 'model_dict.score_transform': expected an object"},
    {"enabled not a bool",
     [] { return with([](json& m) { m["model_dict"]["score_transform"]["enabled"] = "yes"; }); },
     "field 'model_dict.score_transform.enabled': expected true or false"},
    {"p0 null",
     [] { return with([](json& m) { m["model_dict"]["score_transform"]["p0"] = nullptr; }); },
     "field 'model_dict.score_transform.p0': expected a number"},
    {"a knot of one number",
     [] { return with([](json& m) { m["model_dict"]["score_transform"]["knots"] = {{1.0}}; }); },
     "field 'model_dict.score_transform.knots[0]': expected 2 numbers"},
    {"11 knots",
     [] {
       return with([](json& m) {
         json knots = json::array();
         for (int i = 0; i < 11; ++i) knots.push_back({i, i});
         m["model_dict"]["score_transform"]["knots"] = knots;
       });
     },
     "at most 10"},
    {"knots going back",
     [] {
       return with([](json& m) {
         m["model_dict"]["score_transform"]["knots"] = {{10, 0}, {5, 1}};
       });
     },
     "x must increase"},
    {"out_gte_in a bool",
     [] { return with([](json& m) { m["model_dict"]["score_transform"]["out_gte_in"] = true; }); },
     "field 'model_dict.score_transform.out_gte_in': expected a string"},
    {"chroma correction without adm3 and speed_chroma features",
     [] { return with([](json& m) { m["model_dict"]["chroma_correction_parameter"] = 0.5; }); },
     "field 'model_dict.chroma_correction_parameter': needs exactly one feature named *adm3* and "
     "another named *speed_chroma* (the model has 0 and 0)"},
    {"chroma correction 0",
     [] { return with([](json& m) { m["model_dict"]["chroma_correction_parameter"] = 0; }); },
     "field 'model_dict.chroma_correction_parameter': 0 is not supported (libvmaf then writes no "
     "score)"},
    {"chroma correction a string",
     [] { return with([](json& m) { m["model_dict"]["chroma_correction_parameter"] = "1"; }); },
     "field 'model_dict.chroma_correction_parameter': expected a number"},
    {"no libsvm model", [] { return with([](json& m) { m["model_dict"].erase("model"); }); },
     "field 'model_dict.model': missing"},
    {"libsvm model a number", [] { return with([](json& m) { m["model_dict"]["model"] = 1; }); },
     "field 'model_dict.model': expected a string"},
    {"svm: no SV line", [] { return with_svm("\nSV\n", "\n"); }, "unknown header key '-4'"},
    {"svm: header only",
     [] {
       return with(
           [](json& m) { m["model_dict"]["model"] = "svm_type nu_svr\nkernel_type rbf\n"; });
     },
     "no \"SV\" line"},
    {"svm: classification", [] { return with_svm("svm_type nu_svr", "svm_type c_svc"); },
     "not a regression"},
    {"svm: linear kernel", [] { return with_svm("kernel_type rbf", "kernel_type linear"); },
     "kernel_type linear is not supported"},
    {"svm: no gamma", [] { return with_svm("gamma 0.04\n", ""); }, "lacks 'gamma'"},
    {"svm: gamma twice", [] { return with_svm("gamma 0.04\n", "gamma 0.04\ngamma 0.05\n"); },
     "'gamma' given twice"},
    {"svm: 3 classes", [] { return with_svm("nr_class 2", "nr_class 3"); }, "nr_class must be 2"},
    {"svm: bad rho", [] { return with_svm("rho -1.33133", "rho x"); },
     "rho is not a finite number"},
    {"svm: unknown header", [] { return with_svm("rho -1.33133", "rho -1.33133\ncache 1"); },
     "unknown header key 'cache'"},
    {"svm: too few vectors", [] { return with_svm("total_sv 211", "total_sv 212"); },
     "only 211 support vectors follow"},
    {"svm: too many vectors", [] { return with_svm("total_sv 211", "total_sv 210"); },
     "text after the 210 support vectors"},
    {"svm: huge total_sv", [] { return with_svm("total_sv 211", "total_sv 99999999999"); },
     "total_sv must be an integer"},
    {"svm: bad node", [] { return with_svm("1:0.65734273", "1-0.65734273"); },
     "is not index:value"},
    {"svm: node value inf", [] { return with_svm("1:0.65734273", "1:inf"); }, "is not index:value"},
    {"svm: indices descending", [] { return with_svm("1:0.65734273 2:", "2:0.65734273 1:"); },
     "indices are not ascending"},
    {"svm: index beyond the features", [] { return with_svm("6:0.73495824", "7:0.73495824"); },
     "index 7, beyond the model's 6 features"},
    {"svm: bad coefficient", [] { return with_svm("\n-4 1:0.65734273", "\nx 1:0.65734273"); },
     "coefficient is not a finite number"},
};

TEST(ModelErrors, EachBadFileNamesItsField) {
  for (const BadModel& bad : kBadModels) {
    SCOPED_TRACE(bad.what);
    const std::string text = bad.text();
    try {
      const Model m = parse_model(text, "bad.json");
      ADD_FAILURE() << "no InputError";
    } catch (const InputError& e) {
      const std::string what = e.what();
      EXPECT_EQ(what.rfind("model bad.json: ", 0), 0u) << what;
      EXPECT_NE(what.find(bad.message), std::string::npos) << what;
    }
  }
}

TEST(ModelErrors, MissingFile) {
  try {
    load_model_file("/nonexistent/model.json");
    FAIL() << "no InputError";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("model /nonexistent/model.json: cannot open"),
              std::string::npos)
        << e.what();
  }
}

TEST(ModelErrors, TheBaseModelItselfParses) {
  EXPECT_NO_THROW(parse_model(base_model().dump(), "good.json"));
}

}  // namespace
}  // namespace exactvq::vmaf
