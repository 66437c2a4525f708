// The vif engine on a CUDA device: each level's statistic and the halvings on
// the GPU, on the frames the device's runner uploads once for every engine of
// the run; the level sums read back once a batch. Pictures under 16x16 have a
// pyramid level of one row or column, whose edges read what libvmaf's buffers
// hold from earlier levels and rows (spec/vif.md, "Edges"): those the
// engine scores with the CPU's stages, which keep those buffers. The
// statistic's gain steps run in native fp64 or emulated on integers (the
// fp64 option; the same bits).
#include <algorithm>
#include <array>
#include <vector>

#include "backends/cuda/cuda_device.h"
#include "backends/cuda/runner_engine.h"
#include "metrics/vif/cpu/vif_simd.h"
#include "metrics/vif/cuda/vif_kernels.h"
#include "metrics/vif/engine.h"
#include "metrics/vif/log2_table.h"

namespace exactvq::vif::cuda {

using namespace exactvq::cuda;  // the backend's plumbing that every engine uses

namespace {

constexpr int kMinGpuSide = 16;  // every level two or more samples a side
constexpr size_t kWords = 4;     // a level's four sums
constexpr size_t kFrameWords = kLevels * kWords;

VifFilter filter_of(int level) {
  VifFilter f;
  const auto taps = level_taps(level);
  for (size_t k = 0; k < taps.size(); ++k) f.taps[k] = taps[k];
  f.count = int(taps.size());
  return f;
}

// Sums [frame of the batch][level][word].
class CudaEngine final : public RunnerEngine<Engine, uint64_t> {
 public:
  CudaEngine(const EngineSetup& s, CudaDevice& device)
      : RunnerEngine(device, s.format, 1, 1, "the vif sums"),
        setup_(s),
        emulate_(emulates_fp64(s.options.fp64, device.emulate_by_default())) {
    const VideoFormat& f = s.format;
    on_host_ = f.width < kMinGpuSide || f.height < kMinGpuSide;
    int w = f.width, h = f.height;
    for (int level = 1; level < kLevels; ++level) {
      w /= 2;
      h /= 2;
      level_width_[size_t(level)] = w;
      level_height_[size_t(level)] = h;
    }
    level_width_[0] = f.width;
    level_height_[0] = f.height;
    if (!on_host_) join(kFrameWords);
  }

  // Pictures too small for the kernels are scored by the CPU's stages, on the host.
  bool takes_device_pictures() const override { return !on_host_; }

  void score(std::span<const FramePair> frames, std::span<VifLevelSums> out) override {
    if (!on_host_) return RunnerEngine::score(frames, out);
    for (size_t i = 0; i < frames.size(); ++i)
      out[i] = cpu::vif_simd_level_sums(frames[i].ref->plane(0), frames[i].dist->plane(0),
                                        setup_.format.bitdepth, setup_.options);
  }

 private:
  struct Lane {
    std::array<DeviceBuffer, kLevels> ref, dist;  // levels 1..3, chunk_frames() frames each
  };

  size_t level_bytes(int level) const {
    return size_t(level_width_[size_t(level)]) * size_t(level_height_[size_t(level)]) * 2;
  }

  void allocate() override {
    table_ = DeviceBuffer(kLog2Table.size() * sizeof(uint16_t));
    check(cudaMemcpy(table_.get(), kLog2Table.data(), table_.bytes(), cudaMemcpyHostToDevice),
          "upload of vif's log2 table");
    // From pageable memory the copy may still be in flight when cudaMemcpy returns, and the
    // lanes' non-blocking streams do not wait for the default stream: wait here, once.
    check(cudaDeviceSynchronize(), "upload of vif's log2 table");
    std::vector<std::unique_ptr<Lane>> lanes;
    for (int l = 0; l < FrameUploader::kLanes; ++l) {
      auto lane = std::make_unique<Lane>();
      for (int level = 1; level < kLevels; ++level) {
        lane->ref[size_t(level)] = DeviceBuffer(level_bytes(level) * size_t(chunk_frames()));
        lane->dist[size_t(level)] = DeviceBuffer(level_bytes(level) * size_t(chunk_frames()));
      }
      lanes.push_back(std::move(lane));
    }
    lanes_ = std::move(lanes);
  }

  void enqueue(const FrameUploader::Chunk& chunk, size_t) override {
    uint64_t* sums = cleared_rows(chunk);
    Lane& lane = *lanes_[size_t(chunk.lane)];
    const int bitdepth = setup_.format.bitdepth;
    VifLevelPlanes level;
    level.ref = chunk.planes[0].ref;
    level.dist = chunk.planes[0].dist;
    level.frame_stride = chunk.planes[0].frame_stride;
    level.width = level_width_[0];
    level.height = level_height_[0];
    level.bytes = bitdepth == 8;
    level.frames = chunk.count;
    level.emulate_fp64 = emulate_;
    for (int l = 0; l < kLevels; ++l) {
      if (l > 0 || !setup_.options.skip_scale0)
        launch_vif_statistic(level, filter_of(l), vertical_mean_rounding(l, bitdepth).shift,
                             vertical_square_rounding(l, bitdepth).shift, setup_.options.gain_limit,
                             table_.get<uint16_t>(), sums + size_t(l) * kWords, kFrameWords,
                             chunk.stream);
      if (l + 1 == kLevels) break;
      uint16_t* ref_out = lane.ref[size_t(l + 1)].get<uint16_t>();
      uint16_t* dist_out = lane.dist[size_t(l + 1)].get<uint16_t>();
      launch_vif_halve(level, filter_of(l + 1), rounding_by(l == 0 ? bitdepth : 16).shift, ref_out,
                       dist_out, level_bytes(l + 1), chunk.stream);
      level.ref = ref_out;
      level.dist = dist_out;
      level.frame_stride = level_bytes(l + 1);
      level.width = level_width_[size_t(l + 1)];
      level.height = level_height_[size_t(l + 1)];
      level.bytes = false;
    }
  }

  void to_values(const uint64_t* words, size_t count, VifLevelSums* out) override {
    for (size_t f = 0; f < count; ++f)
      for (size_t l = 0; l < size_t(kLevels); ++l) {
        const uint64_t* w = words + f * kFrameWords + l * kWords;
        LevelSums& s = out[f][l];
        s.num_log = int64_t(w[0]);
        s.den_log = int64_t(w[1]);
        s.num_non_log = int64_t(w[2]);
        s.den_non_log = int64_t(w[3]);
      }
  }

  EngineSetup setup_;
  bool emulate_;  // the gain steps through softfp/
  bool on_host_ = false;
  std::array<int, kLevels> level_width_{}, level_height_{};
  DeviceBuffer table_;  // kLog2Table
  std::vector<std::unique_ptr<Lane>> lanes_;
};

}  // namespace

std::unique_ptr<Engine> make_engine(Device& device, const EngineSetup& setup) {
  return std::make_unique<CudaEngine>(setup, CudaDevice::of(device));
}

}  // namespace exactvq::vif::cuda
