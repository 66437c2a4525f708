// FeatureSet on a device without engines for some features: one such feature
// keeps its own message ("feature F is not available on D"); several are named
// together in one DeviceError (a preset such as --aom_ctc needing several), and
// any other error (a bad option) still comes first, as it is met.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "app/feature_set.h"
#include "backends/device.h"
#include "core/error.h"

namespace exactvq {
namespace {

struct NoEngines final : Device {
  std::string description() const override { return "a device without engines"; }
  DeviceKind kind() const override { return DeviceKind::kOther; }
};

FeatureContext context() {
  return FeatureContext{VideoFormat{64, 48, ChromaFormat::k420, 8}, nullptr,
                        std::make_shared<NoEngines>()};
}

std::string device_error(const std::vector<std::string>& names) {
  std::vector<FeatureSpec> specs;
  for (const std::string& n : names) specs.push_back(parse_feature_spec(n));
  try {
    FeatureSet set(specs, context(), {}, false);
  } catch (const DeviceError& e) {
    return e.what();
  }
  return "no DeviceError";
}

TEST(FeatureSetDevices, OneFeatureWithoutAnEngineKeepsItsMessage) {
  EXPECT_EQ(device_error({"psnr"}), "feature psnr is not available on a device without engines");
}

TEST(FeatureSetDevices, SeveralFeaturesWithoutEnginesAreNamedTogether) {
  EXPECT_EQ(device_error({"psnr", "ssim", "psnr_hvs", "psnr"}),
            "features psnr, ssim, psnr_hvs are not available on a device without engines, and "
            "the run needs each of them (--backend cpu scores them all)");
}

TEST(FeatureSetDevices, OtherErrorsComeFirst) {
  std::vector<FeatureSpec> specs{parse_feature_spec("psnr"),
                                 parse_feature_spec("ssim=no_such_option=1")};
  EXPECT_THROW(FeatureSet(specs, context(), {}, false), UsageError);
}

}  // namespace
}  // namespace exactvq
