// libvmaf's `--model` syntax: what parse_model_spec() takes and refuses, and
// what load_model() makes of it.
#include <gtest/gtest.h>

#include <string>

#include "core/error.h"
#include "metrics/vmaf/model_spec.h"
#include "model_test_support.h"

namespace exactvq::vmaf {
namespace {

using namespace exactvq::vmaf::model_testing;

TEST(ModelSpec, Items) {
  const ModelSpec a = parse_model_spec("version=vmaf_v0.6.1");
  EXPECT_EQ(a.version, "vmaf_v0.6.1");
  EXPECT_EQ(a.path, "");
  EXPECT_EQ(a.name, "vmaf");
  EXPECT_FALSE(a.flags.disable_clip);
  EXPECT_FALSE(a.flags.enable_transform);

  const ModelSpec b = parse_model_spec(
      "path=/m/x.json:name=phone:enable_transform:disable_clip=true:vif.vif_enhn_gain_limit=1.0");
  EXPECT_EQ(b.path, "/m/x.json");
  EXPECT_EQ(b.name, "phone");
  EXPECT_TRUE(b.flags.enable_transform);
  EXPECT_TRUE(b.flags.disable_clip);
  ASSERT_EQ(b.overloads.size(), 1u);
  EXPECT_EQ(b.overloads[0].extractor, "vif");
  EXPECT_EQ(b.overloads[0].key, "vif_enhn_gain_limit");
  EXPECT_EQ(b.overloads[0].value, "1");  // libvmaf normalises numbers: float, "%g"

  const ModelSpec c = parse_model_spec("version=v:disable_clip=false:enable_transform=false");
  EXPECT_FALSE(c.flags.disable_clip);
  EXPECT_FALSE(c.flags.enable_transform);
  EXPECT_EQ(parse_model_spec("version=v:adm.debug=true").overloads[0].value, "true");
  EXPECT_EQ(parse_model_spec("version=v:adm.adm_dlm_weight=0.12345678").overloads[0].value,
            "0.123457");
}

TEST(ModelSpec, BadSyntax) {
  for (const char* bad :
       {"", "vmaf_v0.6.1", "version=", "path=", "name=x", "version=a:", "version=a::name=b",
        "version=a:name=b=c", "version=a:clip=1", "version=a:disable_clip=yes", "version=a:.x=1",
        "version=a:adm.=1", "version=a:adm.x.y=1", "version=a:enable_transform=1"}) {
    SCOPED_TRACE(bad);
    EXPECT_THROW(parse_model_spec(bad), UsageError);
  }
}

TEST(ModelSpec, LoadRenamesAndOverloads) {
  const Model m = load_model(parse_model_spec("version=vmaf_v0.6.1:name=mine"));
  EXPECT_EQ(m.name, "mine");
  EXPECT_EQ(m.version, "vmaf_v0.6.1");

  const Model o = load_model(parse_model_spec(
      "version=vmaf_v0.6.1:vif.vif_enhn_gain_limit=1:adm.adm_enhn_gain_limit=2.5"));
  EXPECT_EQ(o.features[0].output_key, "integer_adm2_egl_2.5");
  EXPECT_EQ(o.features[1].output_key, "integer_motion2");
  EXPECT_EQ(o.features[5].output_key, "integer_vif_scale3_egl_1");
  EXPECT_EQ(extractor_spec(o.features[0]).options.at(0).second, "2.5");

  // An overload replaces the model's own value of that option.
  const Model n =
      load_model(parse_model_spec("version=vmaf_v0.6.1neg:adm.adm_enhn_gain_limit=100"));
  EXPECT_EQ(n.features[0].output_key, "integer_adm2");
  EXPECT_EQ(n.features[2].output_key, "integer_vif_scale0_egl_1");

  // Several feature-param options: sorted by option name, bools as "_alias".
  const Model s = load_model(parse_model_spec(
      "version=vmaf_v0.6.1:adm.adm_skip_scale0=true:adm.adm_csf_mode=1:adm.adm_dlm_weight=0.25:"
      "motion.motion_force_zero=true:adm.debug=true"));
  EXPECT_EQ(s.features[0].output_key, "integer_adm2_csf_1_dlmw_0.25_ssz");
  EXPECT_EQ(s.features[1].output_key, "integer_motion2_force_0");
}

TEST(ModelSpec, VersionWinsOverPath) {
  const Model m = load_model(parse_model_spec("path=/nonexistent.json:version=vmaf_4k_v0.6.1"));
  EXPECT_EQ(m.version, "vmaf_4k_v0.6.1");
}

TEST(ModelSpec, LoadErrors) {
  EXPECT_THROW(load_model(parse_model_spec("version=vmaf_v9")), UsageError);
  EXPECT_THROW(load_model(parse_model_spec("path=/nonexistent/x.json")), InputError);
  // libvmaf 3.2.0 silently ignores an alias or an unknown key here: refused instead.
  EXPECT_THROW(load_model(parse_model_spec("version=vmaf_v0.6.1:vif.egl=1")), UsageError);
  EXPECT_THROW(load_model(parse_model_spec("version=vmaf_v0.6.1:vif.speed=1")), UsageError);
  EXPECT_THROW(load_model(parse_model_spec("version=vmaf_v0.6.1:vif.vif_enhn_gain_limit=0.5")),
               UsageError);
  EXPECT_THROW(load_model(parse_model_spec("version=vmaf_v0.6.1:adm.adm_csf_mode=x")), UsageError);
  EXPECT_THROW(load_model(parse_model_spec("version=vmaf_v0.6.1:psnr.min_sse=1")), UsageError);
}

}  // namespace
}  // namespace exactvq::vmaf
