#include <gtest/gtest.h>

#include "core/error.h"
#include "metrics/feature.h"
#include "metrics/registry.h"
#include "metrics/ssim/ssim_feature.h"

namespace exactvq {
namespace {

using ssim::parse_ssim_options;
using ssim::SsimOptions;
using ssim::SumMode;

TEST(FeatureSpec, ParsesNameAndOptions) {
  const FeatureSpec s = parse_feature_spec("ssim=sum=raster:enable_db=true");
  EXPECT_EQ(s.name, "ssim");
  ASSERT_EQ(s.options.size(), 2u);
  EXPECT_EQ(s.options[0], (std::pair<std::string, std::string>{"sum", "raster"}));
  EXPECT_EQ(s.options[1], (std::pair<std::string, std::string>{"enable_db", "true"}));
  EXPECT_TRUE(parse_feature_spec("ssim").options.empty());
}

TEST(FeatureSpec, RejectsMalformedText) {
  EXPECT_THROW(parse_feature_spec(""), UsageError);
  EXPECT_THROW(parse_feature_spec("=sum=exact"), UsageError);
  EXPECT_THROW(parse_feature_spec("ssim=sum"), UsageError);
  EXPECT_THROW(parse_feature_spec("ssim=sum=exact:"), UsageError);
  EXPECT_THROW(parse_feature_spec("ssim==exact"), UsageError);
}

TEST(SsimOptions, ParsesEveryOption) {
  const SsimOptions o =
      parse_ssim_options(parse_feature_spec("ssim=sum=raster:enable_db=1:clip_db=true:chroma=yes"));
  EXPECT_EQ(o.mode, SumMode::kRaster);
  EXPECT_TRUE(o.enable_db);
  EXPECT_TRUE(o.clip_db);
  EXPECT_TRUE(o.chroma);
  const SsimOptions d = parse_ssim_options(parse_feature_spec("ssim"));
  EXPECT_EQ(d.mode, SumMode::kExact);
  EXPECT_FALSE(d.enable_db || d.clip_db || d.chroma);
}

TEST(SsimOptions, RejectsUnknownKeysAndValues) {
  EXPECT_THROW(parse_ssim_options(parse_feature_spec("ssim=sum=fast")), UsageError);
  EXPECT_THROW(parse_ssim_options(parse_feature_spec("ssim=enable_db=maybe")), UsageError);
  EXPECT_THROW(parse_ssim_options(parse_feature_spec("ssim=colour=true")), UsageError);
}

TEST(FeatureTable, UnknownFeatureAndMonoChroma) {
  FeatureContext ctx;
  ctx.format = {16, 16, ChromaFormat::kMono, 8};
  EXPECT_THROW(make_feature(parse_feature_spec("vmaf"), ctx), UsageError);
  EXPECT_THROW(make_feature(parse_feature_spec("ssim=chroma=true"), ctx), UsageError);
  const auto f = make_feature(parse_feature_spec("ssim"), ctx);
  EXPECT_EQ(f->outputs(), std::vector<std::string>{"ssim"});
  ctx.format.chroma = ChromaFormat::k420;
  const auto c = make_feature(parse_feature_spec("ssim=chroma=true"), ctx);
  EXPECT_EQ(c->outputs(), (std::vector<std::string>{"ssim", "ssim_cb", "ssim_cr"}));
}

}  // namespace
}  // namespace exactvq
