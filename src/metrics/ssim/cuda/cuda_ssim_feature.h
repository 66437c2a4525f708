// The `ssim` feature on a CUDA device: frames uploaded on several streams,
// several frames in flight, the exact sum reduced on the GPU; in raster mode
// the term planes come back and host threads add them in raster order.
#pragma once

#include <memory>

#include "backends/cuda/batch_runner.h"
#include "metrics/ssim/ssim_feature.h"

namespace exactvq::cuda {

// `runner` is the device's for ctx.format (the upload shared with the run's other
// features); `emulate_fp64` forms the term through softfp/. extract_batch()
// page-locks the pictures it is given and keeps them locked while the runner
// lives, so their storage must stay allocated and in place between calls
// (FrameBatch guarantees it); extract() copies from pageable memory instead.
std::unique_ptr<Feature> make_cuda_ssim_feature(const SsimOptions& options,
                                                const FeatureContext& ctx,
                                                std::shared_ptr<BatchRunner> runner,
                                                bool emulate_fp64);

}  // namespace exactvq::cuda
