// The psnr_hvs engine on a CUDA device: on the frames the device's runner
// uploads once for every engine of the run (backends/cuda/batch_runner.h), each
// plane's block terms in parallel, then each plane's sequential binary32 sum
// of them (psnr_hvs_kernels.h); only the three sums a frame come back, once a
// batch.
#include <algorithm>
#include <array>
#include <memory>
#include <vector>

#include "backends/cuda/cuda_device.h"
#include "backends/cuda/runner_engine.h"
#include "metrics/psnr_hvs/cuda/psnr_hvs_kernels.h"
#include "metrics/psnr_hvs/engine.h"
#include "metrics/psnr_hvs/reference.h"

namespace exactvq::psnr_hvs::cuda {

using namespace exactvq::cuda;  // the backend's plumbing that every engine uses

namespace {

// Sums [frame][plane], as the engine's output.
class CudaEngine final : public RunnerEngine<Engine, float> {
 public:
  CudaEngine(const EngineSetup& s, CudaDevice& device)
      : RunnerEngine(device, s.format, s.planes, size_t(s.planes), "psnr_hvs's error sums"),
        setup_(s) {
    for (int p = 0; p < s.planes; ++p) {
      terms_[size_t(p)] = int64_t(kCoefficients) * blocks_along(s.format.plane_width(p)) *
                          blocks_along(s.format.plane_height(p));
      chunk_terms_ += size_t(terms_[size_t(p)]) * size_t(chunk_frames());
    }
    join(size_t(s.planes));
  }

 private:
  void allocate() override {
    std::vector<float> w;
    for (int p = 0; p < setup_.planes; ++p) {
      const PlaneWeights pw = plane_weights(p);
      w.insert(w.end(), pw.csf, pw.csf + kCoefficients);
      w.insert(w.end(), pw.mask, pw.mask + kCoefficients);
    }
    weights_ = DeviceBuffer(w.size() * sizeof(float));
    check(cudaMemcpy(weights_.get(), w.data(), w.size() * sizeof(float), cudaMemcpyHostToDevice),
          "upload of psnr_hvs's weights");
    // A copy from pageable memory may still be in flight when cudaMemcpy returns, and the
    // lanes' streams do not wait for the default stream: wait here, once.
    check(cudaDeviceSynchronize(), "upload of psnr_hvs's weights");
    for (auto& lane : lanes_)
      lane = DeviceBuffer(std::max<size_t>(chunk_terms_, 1) * sizeof(float));
  }

  // Plane by plane, the chunk's frames' terms ([plane][frame][term]), then one
  // launch adds each plane of each frame into its place in the batch's sums.
  void enqueue(const FrameUploader::Chunk& chunk, size_t) override {
    float* terms = lanes_[size_t(chunk.lane)].get<float>();
    PlaneTerms where[3];
    for (int p = 0; p < planes(); ++p) {
      const size_t count = size_t(terms_[size_t(p)]);
      where[p] = PlaneTerms{terms, int64_t(count)};
      if (count > 0) {
        const BlockWeights w{weights_.get<float>() + size_t(p) * 2 * kCoefficients,
                             kBlockVarianceScale, kQuarterVarianceScale};
        DevicePlanes plane = chunk.planes[p];
        plane.frames = chunk.count;
        launch_block_terms(plane, w, terms, count, chunk.stream);
      }
      terms += count * size_t(chunk_frames());
    }
    launch_plane_sums(where, planes(), chunk.count,
                      device_words() + size_t(chunk.start) * size_t(planes()), size_t(planes()),
                      chunk.stream);
  }

  void to_values(const float* words, size_t count, float* out) override {
    std::copy_n(words, count * size_t(planes()), out);
  }

  EngineSetup setup_;
  std::array<int64_t, 3> terms_{};                         // a frame's terms, plane by plane
  size_t chunk_terms_ = 0;                                 // a chunk's, every plane
  DeviceBuffer weights_;                                   // [plane] csf[64], mask[64]
  std::array<DeviceBuffer, FrameUploader::kLanes> lanes_;  // a chunk's terms each
};

}  // namespace

std::unique_ptr<Engine> make_engine(Device& device, const EngineSetup& setup) {
  return std::make_unique<CudaEngine>(setup, CudaDevice::of(device));
}

}  // namespace exactvq::psnr_hvs::cuda
