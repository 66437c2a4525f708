// The command line with --backend opencl: the same report as --backend cpu
// (every value printed with --precision max, so equal text is equal bits), and a
// clear error with a non-zero exit and no output file for a missing device.
#include <sys/wait.h>

#include <cstdlib>

#include "opencl_fixture.h"

namespace exactvq::opencltest {
namespace {

const fs::path kTmp = fs::path(EXACTVQ_TEST_TMP);

// Runs the CLI on the bundled sample pair (ssim with chroma in sum `mode`, and
// psnr); returns the exit status.
int run_cli(const std::string& mode, const std::string& backend_args, const fs::path& out, const fs::path& err) {
  const std::string samples = EXACTVQ_SAMPLES_DIR;
  const std::string cmd = fmt::format(
      "'{}' -r '{}/ref.y4m' -d '{}/dist.y4m' --feature ssim=chroma=true:sum={} --feature psnr "
      "--precision max --json -o '{}' {} 2> '{}'",
      EXACTVQ_CLI_PATH, samples, samples, mode, out.string(), backend_args, err.string());
  const int status = std::system(cmd.c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

nlohmann::json read_report(const fs::path& p) {
  std::ifstream in(p);
  nlohmann::json j = nlohmann::json::parse(in);
  j.erase("fps");  // timing, not a score
  return j;
}

// vif and motion in one run on the device (each frame's planes shared by both
// and psnr): the same report as the CPU's.
TEST_F(OpenclTest, CliVifMotionReportEqualsCpu) {
  fs::create_directories(kTmp);
  const std::string samples = EXACTVQ_SAMPLES_DIR;
  for (const char* backend : {"cpu", "opencl"}) {
    const std::string cmd = fmt::format(
        "'{}' -r '{}/ref.y4m' -d '{}/dist.y4m' --feature vif=debug=true --feature motion=debug=true "
        "--feature motion=motion_five_frame_window=true --feature psnr --precision max --json -o '{}' "
        "--backend {} 2> '{}'",
        EXACTVQ_CLI_PATH, samples, samples, (kTmp / fmt::format("vm_{}.json", backend)).string(), backend,
        (kTmp / fmt::format("vm_{}.err", backend)).string());
    const int status = std::system(cmd.c_str());
    ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << cmd;
  }
  EXPECT_EQ(read_report(kTmp / "vm_cpu.json"), read_report(kTmp / "vm_opencl.json"));
}

// A default run (no --feature: VMAF v0.6.1, its motion, vif and adm features
// and the model) on the device: the same report as the CPU's, every feature
// value, the vmaf score of each frame and the pooled values.
TEST_F(OpenclTest, CliDefaultVmafReportEqualsCpu) {
  fs::create_directories(kTmp);
  const std::string samples = EXACTVQ_SAMPLES_DIR;
  for (const char* backend : {"cpu", "opencl"}) {
    const std::string cmd = fmt::format(
        "'{}' -r '{}/ref.y4m' -d '{}/dist.y4m' --precision max --json -o '{}' --backend {} 2> '{}'",
        EXACTVQ_CLI_PATH, samples, samples, (kTmp / fmt::format("vmaf_{}.json", backend)).string(), backend,
        (kTmp / fmt::format("vmaf_{}.err", backend)).string());
    const int status = std::system(cmd.c_str());
    ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << cmd;
  }
  const nlohmann::json cpu = read_report(kTmp / "vmaf_cpu.json"), ocl = read_report(kTmp / "vmaf_opencl.json");
  EXPECT_EQ(cpu, ocl);
  // The report is VMAF's: its score and the adm feature are in it.
  const std::string text = cpu.dump();
  EXPECT_NE(text.find("\"vmaf\""), std::string::npos) << text.substr(0, 400);
  EXPECT_NE(text.find("integer_adm2"), std::string::npos) << text.substr(0, 400);
}

TEST_F(OpenclTest, CliReportEqualsCpu) {
  fs::create_directories(kTmp);
  for (const char* mode : {"exact", "raster"}) {
    ASSERT_EQ(run_cli(mode, "--backend cpu", kTmp / "cpu.json", kTmp / "cpu.err"), 0);
    ASSERT_EQ(run_cli(mode, "--backend opencl", kTmp / "opencl.json", kTmp / "opencl.err"), 0);
    EXPECT_EQ(read_report(kTmp / "cpu.json"), read_report(kTmp / "opencl.json")) << mode;
  }
}

TEST_F(OpenclTest, CliMissingDeviceFailsWithoutOutput) {
  fs::create_directories(kTmp);
  const fs::path out = kTmp / "missing.json", err = kTmp / "missing.err";
  fs::remove(out);
  EXPECT_NE(run_cli("exact", "--backend opencl --opencl-device 99", out, err), 0);
  EXPECT_FALSE(fs::exists(out));
  std::ifstream in(err);
  const std::string message((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_NE(message.find("--opencl-device 99"), std::string::npos) << message;
}

}  // namespace
}  // namespace exactvq::opencltest
