// The psnr_hvs engine on a CUDA device: on the frames the device's runner
// uploads once for every engine of the run (backends/cuda/batch_runner.h), each
// plane's block terms in parallel as each chunk arrives, kept for the whole
// batch; then, once every chunk's terms are written (finish), one launch of
// every plane of every frame of the batch's sequential binary32 sums side by
// side (psnr_hvs_kernels.h); only the three sums a frame come back, once a
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
      frame_terms_ += size_t(terms_[size_t(p)]);
    }
    // A batch's terms stay on the device until its sums: at most kTermsBudget.
    limit_batch(int(std::min<size_t>(
        kTermsBudget / (std::max<size_t>(frame_terms_, 1) * sizeof(float)), size_t(1) << 20)));
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
    // Every chunk of a batch writes its own frames' place: no chunk waits
    // for another's sums, and the sums of all the batch's frames run at once.
    terms_buffer_ =
        DeviceBuffer(std::max<size_t>(frame_terms_ * size_t(batch_frames()), 1) * sizeof(float));
  }

  // Plane p of the batch's frame f: its terms at plane_terms(p) + f * terms_[p]
  // ([plane][frame][term], batch_frames() frames a plane).
  float* plane_terms(int p) const {
    float* t = terms_buffer_.get<float>();
    for (int q = 0; q < p; ++q) t += size_t(terms_[size_t(q)]) * size_t(batch_frames());
    return t;
  }

  // Plane by plane, the chunk's frames' terms, into their places in the batch's.
  void enqueue(const FrameUploader::Chunk& chunk, size_t) override {
    for (int p = 0; p < planes(); ++p) {
      const size_t count = size_t(terms_[size_t(p)]);
      if (count == 0) continue;
      const BlockWeights w{weights_.get<float>() + size_t(p) * 2 * kCoefficients,
                           kBlockVarianceScale, kQuarterVarianceScale};
      DevicePlanes plane = chunk.planes[p];
      plane.frames = chunk.count;
      launch_block_terms(plane, w, plane_terms(p) + size_t(chunk.start) * count, count,
                         chunk.stream);
    }
  }

  // Every chunk's terms enqueued: one launch adds each plane of each of the
  // batch's `count` frames into its place in the batch's sums, on a stream
  // after every lane's work (so after every chunk's terms), the one on which
  // the read-back then follows. Each sum is a chain of dependent additions
  // (milliseconds for 1080p luma): the batch's run side by side, not a
  // chunk's at a time.
  void finish(size_t base, size_t count, FrameUploader& uploader) override {
    if (count > 0) {
      PlaneTerms where[3];
      for (int p = 0; p < planes(); ++p) where[p] = PlaneTerms{plane_terms(p), terms_[size_t(p)]};
      launch_plane_sums(where, planes(), int(count), device_words(), size_t(planes()),
                        uploader.join_lanes());
    }
    RunnerEngine::finish(base, count, uploader);
  }

  void to_values(const float* words, size_t count, float* out) override {
    std::copy_n(words, count * size_t(planes()), out);
  }

  // A batch's terms on the device (1080p: 16 MB a frame, 4K: 65 MB): 1 GiB
  // holds a 64-frame batch of 1080p, and caps 4K's at 16 frames.
  static constexpr size_t kTermsBudget = size_t{1} << 30;

  EngineSetup setup_;
  std::array<int64_t, 3> terms_{};  // a frame's terms, plane by plane
  size_t frame_terms_ = 0;          // a frame's, every plane
  DeviceBuffer weights_;            // [plane] csf[64], mask[64]
  DeviceBuffer terms_buffer_;       // a batch's terms (plane_terms)
};

}  // namespace

std::unique_ptr<Engine> make_engine(Device& device, const EngineSetup& setup) {
  return std::make_unique<CudaEngine>(setup, CudaDevice::of(device));
}

}  // namespace exactvq::psnr_hvs::cuda
