// VMAF on every device backend through the command line: the default run
// (VMAF v0.6.1: its motion, vif and adm features and the model), VMAF's
// features together in one run, and the bootstrap collection write the CPU's report (every value
// printed with --precision max, so equal text is equal bits). Without a device a backend's cases
// skip with a message.
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "device_fixture.h"

namespace exactvq::device_testing {
namespace {

namespace fs = std::filesystem;

nlohmann::json read_report(const fs::path& p) {
  std::ifstream in(p);
  nlohmann::json j = nlohmann::json::parse(in);
  j.erase("fps");  // timing, not a score
  return j;
}

class VmafOnDevice : public DeviceTest {
 protected:
  // The report of exactvq on the bundled sample pair with `args`, on the CPU
  // and on this device.
  std::pair<nlohmann::json, nlohmann::json> cpu_and_device_reports(const std::string& run,
                                                                   const std::string& args) {
    const fs::path tmp = fs::path(EXACTVQ_TEST_TMP);
    fs::create_directories(tmp);
    const std::string samples = EXACTVQ_SAMPLES_DIR;
    const std::string device_backend = backend_name(backend());
    for (const std::string& b : {std::string("cpu"), device_backend}) {
      const std::string cmd = fmt::format(
          "'{}' -r '{}/ref.y4m' -d '{}/dist.y4m' {} --precision max --json -o '{}' --backend {} 2> "
          "'{}'",
          EXACTVQ_CLI_PATH, samples, samples, args,
          (tmp / fmt::format("{}_{}.json", run, b)).string(), b,
          (tmp / fmt::format("{}_{}.err", run, b)).string());
      const int status = std::system(cmd.c_str());
      EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << cmd;
    }
    return {read_report(tmp / fmt::format("{}_cpu.json", run)),
            read_report(tmp / fmt::format("{}_{}.json", run, device_backend))};
  }
};

// vif and motion in one run on the device (each frame's planes shared by both
// and psnr): the same report as the CPU's.
TEST_P(VmafOnDevice, CliVifMotionReportEqualsCpu) {
  const auto [cpu, on_device] =
      cpu_and_device_reports("vm",
                             "--feature vif=debug=true --feature motion=debug=true --feature "
                             "motion=motion_five_frame_window=true "
                             "--feature psnr -n");
  EXPECT_EQ(cpu, on_device);
}

// A default run (no --feature) on the device: the same report as the CPU's,
// every feature value, the vmaf score of each frame and the pooled values.
TEST_P(VmafOnDevice, CliDefaultVmafReportEqualsCpu) {
  const auto [cpu, on_device] = cpu_and_device_reports("vmaf", "");
  EXPECT_EQ(cpu, on_device);
  // The report is VMAF's: its score and the adm feature are in it.
  const std::string text = cpu.dump();
  EXPECT_NE(text.find("\"vmaf\""), std::string::npos) << text.substr(0, 400);
  EXPECT_NE(text.find("integer_adm2"), std::string::npos) << text.substr(0, 400);
}

// The bootstrap collection and the 4K NEG model on the device (their
// predictions are the host's, from the device's features): the CPU's report.
TEST_P(VmafOnDevice, CliCollectionReportEqualsCpu) {
  const auto [cpu, on_device] = cpu_and_device_reports(
      "b", "--model version=vmaf_b_v0.6.3 --model version=vmaf_4k_v0.6.1neg:name=neg4k");
  EXPECT_EQ(cpu, on_device);
  const std::string text = cpu.dump();
  EXPECT_NE(text.find("\"vmaf_ci_p95_hi\""), std::string::npos) << text.substr(0, 400);
  EXPECT_NE(text.find("\"neg4k\""), std::string::npos) << text.substr(0, 400);
}

EXACTVQ_ON_EVERY_DEVICE_BACKEND(VmafOnDevice);

}  // namespace
}  // namespace exactvq::device_testing
