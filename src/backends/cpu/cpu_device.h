// The host CPU as a Device: each metric's engine of Highway SIMD kernels
// (metrics/<metric>/cpu/), threads from the setup's pool.
#pragma once

#include "backends/device.h"

namespace exactvq {

class CpuDevice : public Device {
 public:
  std::string description() const override;  // "cpu (AVX2)": the SIMD target that runs
  std::unique_ptr<ssim::Engine> ssim_engine(const ssim::EngineSetup& setup) override;
  std::unique_ptr<psnr::Engine> psnr_engine(const psnr::EngineSetup& setup) override;
  std::unique_ptr<vif::Engine> vif_engine(const vif::EngineSetup& setup) override;
  std::unique_ptr<motion::Engine> motion_engine(const motion::EngineSetup& setup) override;
  std::unique_ptr<adm::Engine> adm_engine(const adm::EngineSetup& setup) override;
  std::unique_ptr<float_ssim::Engine> float_ssim_engine(const float_ssim::EngineSetup& setup) override;
};

}  // namespace exactvq
