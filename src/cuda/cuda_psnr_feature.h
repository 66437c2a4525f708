// The `psnr` feature on a CUDA device: the SSE of each plane on the GPU, the
// decibels on the host by the CPU feature's own PsnrScorer.
#pragma once

#include <memory>

#include "features/psnr_feature.h"

namespace exactvq::cuda {

// As make_cuda_ssim_feature: extract_batch() page-locks the pictures it is given.
std::unique_ptr<Feature> make_cuda_psnr_feature(const PsnrOptions& options,
                                                const FeatureContext& ctx, int device);

}  // namespace exactvq::cuda
