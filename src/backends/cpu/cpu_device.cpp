#include "backends/cpu/cpu_device.h"

#include "backends/cpu/simd_targets.h"
#include "metrics/psnr/engine.h"
#include "metrics/motion/engine.h"
#include "metrics/vif/engine.h"
#include "metrics/adm/engine.h"
#include "metrics/float_ssim/engine.h"
#include "metrics/ssim/engine.h"

namespace exactvq {

std::string CpuDevice::description() const { return "cpu (" + cpu::current_target_name() + ")"; }

std::unique_ptr<ssim::Engine> CpuDevice::ssim_engine(const ssim::EngineSetup& setup) {
  return ssim::make_cpu_engine(setup);
}

std::unique_ptr<psnr::Engine> CpuDevice::psnr_engine(const psnr::EngineSetup& setup) {
  return psnr::make_cpu_engine(setup);
}

std::unique_ptr<vif::Engine> CpuDevice::vif_engine(const vif::EngineSetup& setup) {
  return vif::make_cpu_engine(setup);
}

std::unique_ptr<motion::Engine> CpuDevice::motion_engine(const motion::EngineSetup& setup) {
  return motion::make_cpu_engine(setup);
}

std::unique_ptr<adm::Engine> CpuDevice::adm_engine(const adm::EngineSetup& setup) {
  return adm::make_cpu_engine(setup);
}

std::unique_ptr<float_ssim::Engine> CpuDevice::float_ssim_engine(const float_ssim::EngineSetup& setup) {
  return float_ssim::make_cpu_engine(setup);
}

Device& cpu_device() {
  static CpuDevice device;
  return device;
}

}  // namespace exactvq
