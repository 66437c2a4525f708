// The VMAF v1.0.16 models (SDR and HFR): their embedded text is libvmaf's
// file, their fields and input keys are what libvmaf reads and writes, and
// their prediction from libvmaf's own per-frame feature values (the catalogue
// runs write every input) equals libvmaf's score bit for bit. The model parts
// v1 adds (the chroma correction, the enabled polynomial transform) are also
// checked on hand-made values. A run of a v1 model is refused, naming the
// feature, until cambi and speed_chroma are registered.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "core/error.h"
#include "libvmaf_catalogue_vectors.h"
#include "metrics/registry.h"
#include "metrics/vmaf/chroma_correction.h"
#include "metrics/vmaf/model.h"
#include "metrics/vmaf/predict.h"
#include "metrics/vmaf/score_models.h"
#include "model_test_support.h"

namespace exactvq::vmaf {
namespace {

using namespace exactvq::vmaf::model_testing;

struct V1Model {
  const char* version;
  const char* folder;     // libvmaf's model/ subfolder
  const char* adm_extra;  // the adm key's geometry suffix
  bool hfr;
};

constexpr V1Model kV1Models[] = {
    {"vmaf_v1.0.16_3d0h", "vmaf_v1.0.16", "", false},
    {"vmaf_v1.0.16_5d0h", "vmaf_v1.0.16", "_nvd_5", false},
    {"vmaf_v1.0.16_3d0h_2160", "vmaf_v1.0.16", "_rdh_2160", false},
    {"vmaf_v1.0.16_1d5h_2160", "vmaf_v1.0.16", "_nvd_1.5_rdh_2160", false},
    {"vmaf_v1.0.16_hfr_3d0h", "vmaf_v1.0.16_hfr", "", true},
    {"vmaf_v1.0.16_hfr_5d0h", "vmaf_v1.0.16_hfr", "_nvd_5", true},
    {"vmaf_v1.0.16_hfr_3d0h_2160", "vmaf_v1.0.16_hfr", "_rdh_2160", true},
    {"vmaf_v1.0.16_hfr_1d5h_2160", "vmaf_v1.0.16_hfr", "_nvd_1.5_rdh_2160", true},
};

const std::filesystem::path kLibvmafModels =
    kShared / "reference" / "libvmaf-3.2.0-f85a853" / "model";

TEST(V1Models, TextIsLibvmafsFile) {
  for (const V1Model& v : kV1Models) {
    const std::filesystem::path file =
        kLibvmafModels / v.folder / (std::string(v.version) + ".json");
    if (!std::filesystem::exists(file)) GTEST_SKIP() << "no " << file;
    EXPECT_EQ(std::string(builtin_model_text(v.version)), read_file(file)) << v.version;
  }
}

TEST(V1Models, FieldsAndInputKeys) {
  for (const V1Model& v : kV1Models) {
    SCOPED_TRACE(v.version);
    const Model m = builtin_model(v.version);
    ASSERT_EQ(m.features.size(), 4u);
    EXPECT_EQ(m.norm_type, NormType::kLinearRescale);
    EXPECT_EQ(m.features[0].extractor, "cambi");
    EXPECT_EQ(m.features[1].extractor, "speed_chroma");
    EXPECT_EQ(m.features[2].extractor, "adm");
    EXPECT_EQ(m.features[3].extractor, "motion");
    EXPECT_EQ(m.features[0].output_key, "cambi_hrs_1080_cmxv_17_vlt_0.06");
    // Some also set speed_prescale and its method (_ps_0.5_psm_bilinear): the
    // catalogue test below finds every model's keys in libvmaf's output.
    EXPECT_EQ(m.features[1].output_key.rfind("speed_chroma_uv_mxv_45_nnf_0.1_", 0), 0u)
        << m.features[1].output_key;
    EXPECT_EQ(m.features[2].output_key,
              std::string("integer_adm3_csf_2_dlmw_0.7_egl_1_min_0.5_nw_0.02") + v.adm_extra);
    EXPECT_EQ(m.features[3].output_key,
              v.hfr ? "integer_motion3_mffw_mmxv_18_mma" : "integer_motion3_mmxv_18");
    // v1 turns its transform on in the file itself.
    EXPECT_TRUE(m.score_transform.enabled);
    ASSERT_TRUE(m.score_transform.p0 && m.score_transform.p1 && m.score_transform.p2);
    ASSERT_TRUE(m.chroma_correction.has_value());
    EXPECT_EQ(m.chroma_correction->parameter, 120.0);
    EXPECT_EQ(m.chroma_correction->guiding, 2u);
    EXPECT_EQ(m.chroma_correction->guided, 1u);
    ASSERT_TRUE(m.score_clip.has_value());
    EXPECT_EQ(m.score_clip->min, 0.0);
  }
}

// libvmaf's catalogue runs write every input of the model per frame: the
// prediction from those values must be libvmaf's score, bit for bit.
TEST(V1Models, PredictionFromLibvmafsFeatureValuesIsLibvmafsScore) {
  if (!std::filesystem::exists(testing_vectors::kCatalogueVectors))
    GTEST_SKIP() << "no " << testing_vectors::kCatalogueVectors;
  int compared = 0, keys_checked = 0, corrected = 0, correction_changed = 0;
  for (const auto& pair : testing_vectors::load_catalogue_pairs()) {
    for (const V1Model& v : kV1Models) {
      const nlohmann::json* frames = testing_vectors::stable_frames(pair, v.version);
      if (frames == nullptr) continue;
      const Model m = builtin_model(v.version);
      for (const auto& frame : *frames) {
        std::vector<double> inputs;
        for (const ModelFeature& f : m.features) {
          ASSERT_TRUE(frame.contains(f.output_key))
              << pair.name << " " << v.version << ": no key " << f.output_key;
          ++keys_checked;
          inputs.push_back(testing_vectors::stored_value(frame.at(f.output_key)));
        }
        const double want = testing_vectors::stored_value(frame.at("vmaf"));
        const double got = predict(m, inputs);
        if (inputs[m.chroma_correction->guided] == 0.0) {
          // The chroma correction applies: without it the score would differ.
          ++corrected;
          Model uncorrected = m;
          uncorrected.chroma_correction.reset();
          if (!same_bits(predict(uncorrected, inputs), want)) ++correction_changed;
        }
        EXPECT_TRUE(same_bits(got, want)) << pair.name << " " << v.version << " frame "
                                          << frame.at("frameNum") << ": " << got << " vs " << want;
        ++compared;
      }
    }
  }
  std::printf(
      "v1 models: %d frame scores predicted from libvmaf's features (%d with speed_chroma 0, "
      "corrected; %d of them would differ uncorrected), %d keys found\n",
      compared, corrected, correction_changed, keys_checked);
  EXPECT_GT(compared, 200);
  EXPECT_GT(correction_changed, 50);  // the others clip to the same bound either way
}

// A model with the inputs (speed_chroma, adm3), linear_rescale.
Model chroma_model() {
  Model m;
  m.norm_type = NormType::kLinearRescale;
  m.features.resize(2);
  m.features[0].name = "Speed_chroma_feature_speed_chroma_uv_score";
  m.features[0].slope = 0.07265168094288038;
  m.features[0].intercept = -0.00016348141788834398;
  m.features[1].name = "VMAF_integer_feature_adm3_score";
  m.features[1].slope = 4.044462665497729;
  m.features[1].intercept = -3.0226057825839794;
  ChromaCorrection c;
  EXPECT_EQ(resolve_chroma_correction(m, 120.0, c), "");
  m.chroma_correction = c;
  return m;
}

TEST(V1ModelParts, ChromaCorrectionReplacesAZeroChromaValue) {
  const Model m = chroma_model();
  ASSERT_EQ(m.chroma_correction->guided, 0u);
  ASSERT_EQ(m.chroma_correction->guiding, 1u);
  // adm3 = 0.75 (exact through its rescale: 4.044... * 0.75 + b, then back):
  // chroma 0 becomes 120 - 120 * adm3 = 30, rescaled.
  const double adm3 = 0.75;
  std::vector<double> x = {m.features[0].slope * 0.0 + m.features[0].intercept,
                           m.features[1].slope * adm3 + m.features[1].intercept};
  const double adm3_back = (x[1] - m.features[1].intercept) / m.features[1].slope;
  apply_chroma_correction(m, *m.chroma_correction, x);
  const double corrected = -120.0 * adm3_back + 120.0;
  EXPECT_TRUE(same_bits(x[0], m.features[0].slope * corrected + m.features[0].intercept));
  EXPECT_NEAR(corrected, 30.0, 1e-12);
  EXPECT_NEAR(x[0], 0.07265168094288038 * 30.0 - 0.00016348141788834398, 1e-12);

  // A chroma value that is not 0 after its round trip is left alone.
  std::vector<double> y = {m.features[0].slope * 0.5 + m.features[0].intercept, x[1]};
  const double before = y[0];
  apply_chroma_correction(m, *m.chroma_correction, y);
  EXPECT_TRUE(same_bits(y[0], before));
}

TEST(V1ModelParts, ChromaCorrectionWithoutRescale) {
  Model m = chroma_model();
  m.norm_type = NormType::kNone;
  std::vector<double> x = {0.0, 0.9};
  apply_chroma_correction(m, *m.chroma_correction, x);
  EXPECT_TRUE(same_bits(x[0], -120.0 * 0.9 + 120.0));  // 12.000000000000014
  EXPECT_NEAR(x[0], 12.0, 1e-12);
  std::vector<double> negative_zero = {-0.0, 0.5};  // -0 == 0: corrected too
  apply_chroma_correction(m, *m.chroma_correction, negative_zero);
  EXPECT_EQ(negative_zero[0], 60.0);
}

TEST(V1ModelParts, ChromaCorrectionNeedsOneFeatureOfEach) {
  Model m = chroma_model();
  ChromaCorrection c;
  EXPECT_NE(resolve_chroma_correction(m, 0.0, c).find("0 is not supported"), std::string::npos);
  m.features.push_back(m.features[1]);  // a second adm3
  EXPECT_NE(resolve_chroma_correction(m, 120.0, c).find("the model has 2 and 1"),
            std::string::npos);
}

// p0 + p1 y + p2 y y in libvmaf's order, with VMAF v1.0.16_3d0h's terms.
TEST(V1ModelParts, PolynomialTransform) {
  ScoreTransform t;
  t.enabled = true;
  t.p0 = 5.30624188;
  t.p1 = 0.980791305;
  t.p2 = -0.000490758318;
  double want = 0.0;
  want += 5.30624188;
  want += 0.980791305 * 80.0;
  want += -0.000490758318 * 80.0 * 80.0;
  EXPECT_TRUE(same_bits(apply_score_transform(t, 80.0), want));
  EXPECT_NEAR(apply_score_transform(t, 80.0), 80.6286930448, 1e-9);
  t.enabled = false;
  EXPECT_EQ(apply_score_transform(t, 80.0), 80.0);
}

// linear_rescale: inputs slope * x + intercept, the SVM's value un-rescaled
// by (v - intercept) / slope. An SVM with no support vectors gives -rho.
TEST(V1ModelParts, LinearRescaleRoundTrip) {
  Model m;
  m.norm_type = NormType::kLinearRescale;
  m.slope = 0.012020766332648467;
  m.intercept = -0.30712690585348135;
  m.features.resize(1);
  m.features[0].name = "VMAF_integer_feature_adm3_score";
  m.features[0].slope = 2.0;
  m.features[0].intercept = 1.0;
  m.svm.rho = -0.5;
  m.svm.gamma = 0.035;
  const double want = (0.5 - -0.30712690585348135) / 0.012020766332648467;
  EXPECT_TRUE(same_bits(predict(m, std::vector<double>{0.3}), want));
  EXPECT_NEAR(want, 67.1444, 1e-4);
}

// Until the registry has cambi and speed_chroma, a v1 run is refused before
// any frame, naming the feature; once both are registered it is accepted.
TEST(V1Models, RunNeedsCambiAndSpeedChroma) {
  const std::vector<std::string> known = known_features();
  const bool has_cambi = std::find(known.begin(), known.end(), "cambi") != known.end();
  const bool has_speed = std::find(known.begin(), known.end(), "speed_chroma") != known.end();
  for (const V1Model& v : kV1Models) {
    const std::string spec = std::string("version=") + v.version;
    if (has_cambi && has_speed) {
      EXPECT_NO_THROW(make_score_models({spec})) << v.version;
      continue;
    }
    try {
      make_score_models({spec});
      ADD_FAILURE() << v.version << ": no UsageError";
    } catch (const UsageError& e) {
      const std::string what = e.what();
      const std::string missing = has_cambi ? "'speed_chroma'" : "'cambi'";
      EXPECT_NE(what.find(missing), std::string::npos) << what;
      EXPECT_NE(what.find(v.version), std::string::npos) << what;
      EXPECT_NE(what.find("does not compute yet"), std::string::npos) << what;
    }
  }
}

}  // namespace
}  // namespace exactvq::vmaf
