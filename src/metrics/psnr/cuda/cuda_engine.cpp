// The psnr engine on a CUDA device: the SSE of each plane on the GPU, on the
// frames the device's runner uploads once for every engine of the run.
#include <algorithm>

#include "backends/cuda/cuda_device.h"
#include "backends/cuda/runner_engine.h"
#include "metrics/psnr/cuda/sse_kernel.h"
#include "metrics/psnr/engine.h"

namespace exactvq::psnr::cuda {

using namespace exactvq::cuda;  // the backend's plumbing that every engine uses

namespace {

// Sums [frame][plane], as the engine's output.
class CudaEngine final : public RunnerEngine<Engine, uint64_t> {
 public:
  CudaEngine(const EngineSetup& s, CudaDevice& device)
      : RunnerEngine(device, s.format, s.planes, size_t(s.planes), "the SSE") {
    join(size_t(s.planes));
  }

 private:
  void enqueue(const FrameUploader::Chunk& chunk, size_t) override {
    uint64_t* sums = cleared_rows(chunk);
    for (int p = 0; p < planes(); ++p)
      for (int i = 0; i < chunk.count; ++i) {
        DevicePlanes one = chunk.planes[p];
        one.ref = static_cast<const unsigned char*>(one.ref) + size_t(i) * one.frame_stride;
        one.dist = static_cast<const unsigned char*>(one.dist) + size_t(i) * one.frame_stride;
        one.frames = 1;
        launch_sse(one, sums + size_t(i) * planes() + p, chunk.stream);
      }
  }

  void to_values(const uint64_t* words, size_t count, uint64_t* out) override {
    std::copy_n(words, count * size_t(planes()), out);
  }
};

}  // namespace

std::unique_ptr<Engine> make_engine(Device& device, const EngineSetup& setup) {
  return std::make_unique<CudaEngine>(setup, CudaDevice::of(device));
}

}  // namespace exactvq::psnr::cuda
