// The ciede engine on a CUDA device: frames uploaded on several streams once for
// every engine of the run (backends/cuda/batch_runner.h), each pixel's delta E
// computed on the GPU in native binary64 or, under fp64=emulate (or auto on a
// chip with slow binary64), on softfp (delta_e_kernel.cu) into a lane's term
// buffer, the frame's terms added there in raster order
// (backends/cuda/raster_sum.h, docs/spec/raster_sum.md); only the sums come back.
#include <algorithm>
#include <vector>

#include "backends/cuda/cuda_device.h"
#include "backends/cuda/raster_sum.h"
#include "backends/cuda/runner_engine.h"
#include "metrics/ciede/cuda/delta_e_kernel.h"
#include "metrics/ciede/engine.h"
#include "metrics/ciede/reference.h"
#include "metrics/ciede/softfp_tables.h"

namespace exactvq::ciede::cuda {

using namespace exactvq::cuda;  // the backend's plumbing that every engine uses

namespace {

// Each frame's sum [frame of the batch], the whole batch read back.
class CudaEngine final : public RunnerEngine<Engine, double> {
 public:
  CudaEngine(const EngineSetup& s, CudaDevice& device)
      : RunnerEngine(device, s.format, 3, 1, "the delta E sums"),
        reading_(chroma_reading(s.format)),
        emulate_(emulates_fp64(s.fp64, device.emulate_by_default())),
        bitdepth_(s.format.bitdepth),
        pixels_(int64_t{s.format.width} * s.format.height) {
    join(1);
  }

 private:
  RasterSumLayout raster_layout(int frames) const {
    RasterSumLayout layout;
    layout.frames = frames;
    layout.arrays = 1;
    layout.array[0] = {0, pixels_, pixels_};
    return layout;
  }

  // Each lane's terms (8 bytes a pixel of a chunk) and launch_raster_sums' workspace.
  void allocate() override {
    lanes_ = allocate_raster_sum_lanes(FrameUploader::kLanes,
                                       size_t(chunk_frames()) * size_t(pixels_) * sizeof(double),
                                       raster_layout(chunk_frames()));
    if (emulate_) {
      const std::vector<uint64_t> words = softfp_table_words();
      DeviceBuffer tables(words.size() * sizeof(uint64_t));
      check(cudaMemcpy(tables.get(), words.data(), words.size() * sizeof(uint64_t),
                       cudaMemcpyHostToDevice),
            "upload of libm's tables");
      // The copy is on the legacy stream, which the lanes' streams do not wait for.
      check(cudaStreamSynchronize(nullptr), "upload of libm's tables");
      tables_ = std::move(tables);
    }
  }

  void enqueue(const FrameUploader::Chunk& chunk, size_t) override {
    const RasterSumLane& lane = lanes_[size_t(chunk.lane)];
    double* terms = lane.terms.get<double>();
    DeltaEFrames frames;
    for (int p = 0; p < 3; ++p) frames.plane[p] = chunk.planes[p];
    frames.reading = reading_;
    frames.bitdepth = bitdepth_;
    frames.emulate_fp64 = emulate_;
    frames.tables = tables_.get<uint64_t>();
    launch_delta_e(frames, terms, chunk.stream);
    RasterSumLayout layout = raster_layout(chunk.count);
    layout.terms = terms;
    exactvq::cuda::launch_raster_sums(layout, device_words() + size_t(chunk.start),
                                      lane.workspace.get(), chunk.stream);
  }

  void to_values(const double* words, size_t count, double* out) override {
    std::copy_n(words, count, out);
  }

  ChromaReading reading_;
  bool emulate_;
  int bitdepth_;
  int64_t pixels_;
  std::vector<RasterSumLane> lanes_;  // a chunk's terms and their sums' workspace per lane
  DeviceBuffer tables_;               // libm's tables, when emulating
};

}  // namespace

std::unique_ptr<Engine> make_engine(Device& device, const EngineSetup& setup) {
  return std::make_unique<CudaEngine>(setup, CudaDevice::of(device));
}

}  // namespace exactvq::ciede::cuda
