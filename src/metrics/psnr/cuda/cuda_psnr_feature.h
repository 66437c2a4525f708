// The `psnr` feature on a CUDA device: the SSE of each plane on the GPU, the
// decibels on the host by the CPU feature's own PsnrScorer.
#pragma once

#include <memory>

#include "backends/cuda/batch_runner.h"
#include "metrics/psnr/psnr_feature.h"

namespace exactvq::cuda {

// As make_cuda_ssim_feature: the SSE kernels run on the frames the device's
// runner uploads once for every feature; extract_batch() page-locks the pictures.
std::unique_ptr<Feature> make_cuda_psnr_feature(const PsnrOptions& options,
                                                const FeatureContext& ctx,
                                                std::shared_ptr<BatchRunner> runner);

}  // namespace exactvq::cuda
