// Every feature the registry makes asks its metric for an engine on the run's
// device when it is made, so a device without that metric's engine is a
// DeviceError naming the device, never a run that silently scores elsewhere.
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "backends/device.h"
#include "core/error.h"
#include "metrics/feature.h"
#include "metrics/feature_spec.h"
#include "metrics/registry.h"

namespace exactvq {
namespace {

class NoEngineDevice final : public Device {
 public:
  std::string description() const override { return "a device without engines"; }
};

TEST(Registry, EveryFeatureOnADeviceWithoutItsEngineIsDeviceError) {
  FeatureContext ctx;
  ctx.format = VideoFormat{256, 256, ChromaFormat::k420, 8};
  ctx.device = std::make_shared<NoEngineDevice>();
  for (const std::string& name : known_features()) {
    SCOPED_TRACE(name);
    try {
      make_feature(FeatureSpec{name, {}}, ctx);
      ADD_FAILURE() << "no error";
    } catch (const DeviceError& e) {
      EXPECT_NE(std::string(e.what()).find(name + " is not available on a device without engines"),
                std::string::npos)
          << e.what();
    }
  }
}

TEST(Registry, UnknownFeatureIsUsageErrorListingTheKnown) {
  FeatureContext ctx;
  ctx.format = VideoFormat{64, 64, ChromaFormat::k420, 8};
  try {
    make_feature(FeatureSpec{"no_such_feature", {}}, ctx);
    FAIL() << "no error";
  } catch (const UsageError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("unknown feature 'no_such_feature'"), std::string::npos) << what;
    for (const std::string& name : known_features())
      EXPECT_NE(what.find(name), std::string::npos) << name;
  }
}

}  // namespace
}  // namespace exactvq
