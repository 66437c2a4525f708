// The cambi engine on a CUDA device: on the frames the device's runner
// uploads once for every engine of the run (backends/cuda/batch_runner.h),
// each picture's 10-bit image, mask, mode-filtered scales and contrast values
// are computed on the GPU (cambi_kernels.h), and the contrast kernel's blocks
// summarise them in pool records (pool_device.h). A batch's records come back
// once (RunnerEngine's words), and each scale's pooled value is formed from
// them on the host where that is provably the reference's (device_plan.h);
// only the other scales' contrast values (every scale's with heatmaps) are
// read back and pooled on the host (the quick select is sequential), side by
// side on the setup's pool. Nothing here is binary64 but the pooling, so
// there is no fp64 option.
#include <algorithm>
#include <array>
#include <bit>
#include <string>
#include <vector>

#include "backends/cuda/cuda_device.h"
#include "backends/cuda/runner_engine.h"
#include "core/error.h"
#include "metrics/cambi/cuda/cambi_kernels.h"
#include "metrics/cambi/device_plan.h"
#include "metrics/cambi/engine.h"
#include "metrics/cambi/reference.h"

namespace exactvq::cambi::cuda {

using namespace exactvq::cuda;  // the backend's plumbing that every engine uses

namespace {

// The contrast values a batch holds at most on the device (the host holds
// only the scales it reads back).
constexpr size_t kBatchValueBytes = size_t{256} << 20;

// Words: pool records [frame of the batch][picture][scale][block]
// (pool_records); values_: contrast values [frame of the batch][picture][scale][pixel]
// (DeviceLayout).
class CudaEngine final : public RunnerEngine<Engine, uint64_t> {
 public:
  CudaEngine(const EngineSetup& s, CudaDevice& device)
      : RunnerEngine(device, s.format, 1, size_t(s.planes), "cambi's pool records"),
        setup_(s),
        layout_(device_layout(setup_.cambi)) {
    for (int i = 0; i < layout_.pictures; ++i) {
      records_[i] =
          pool_records(layout_.picture[i], kContrastRun, kContrastBlockRuns, kContrastBlockRows);
      record_offset_[size_t(i + 1)] = record_offset_[size_t(i)] + records_[i].records;
    }
    const size_t frame_bytes = layout_.values_per_frame * sizeof(float);
    limit_batch(int(std::max<size_t>(1, kBatchValueBytes / frame_bytes)));
    join(record_offset_[size_t(layout_.pictures)] * EXACTVQ_CAMBI_POOL_WORDS);
  }

  void score(std::span<const FramePair> frames, std::span<double> out) override {
    if (setup_.heatmaps)
      for (const FramePair& f : frames)
        if (f.loose())
          throw UsageError(
              "feature cambi: heatmaps_path needs each frame's place in the run (a loose pair "
              "has none)");
    pass_frames_ = frames;
    RunnerEngine::score(frames, out);
  }

 private:
  // With heatmaps, the engine computes only in its own passes, whose frames
  // (and so their places in the run) it knows.
  bool joins_others() const override { return !setup_.heatmaps; }

  struct Lane {
    DeviceBuffer image;     // the 10-bit image, the larger scored size
    DeviceBuffer mask;      // its mask
    DeviceBuffer filtered;  // two scales' filtered images, the later one at half
    DeviceBuffer codes;     // a scale's band codes
  };

  void allocate() override {
    const std::vector<uint32_t> tables = device_tables(setup_.cambi);
    tables_ = DeviceBuffer(tables.size() * sizeof(uint32_t));
    check(cudaMemcpy(tables_.get(), tables.data(), tables.size() * sizeof(uint32_t),
                     cudaMemcpyHostToDevice),
          "cudaMemcpy (cambi's tables)");
    for (int i = 0; i < layout_.pictures; ++i) {
      const ImagePlan& plan = *layout_.picture[i].plan;
      if (plan.source_rows.empty()) continue;
      picks_[i] = DeviceBuffer((plan.source_rows.size() + plan.source_cols.size()) * sizeof(int));
      check(cudaMemcpy(picks_[i].get(), plan.source_rows.data(),
                       plan.source_rows.size() * sizeof(int), cudaMemcpyHostToDevice),
            "cudaMemcpy (cambi's row picks)");
      check(cudaMemcpy(picks_[i].get<int>() + plan.source_rows.size(), plan.source_cols.data(),
                       plan.source_cols.size() * sizeof(int), cudaMemcpyHostToDevice),
            "cudaMemcpy (cambi's column picks)");
    }
    // A pageable copy may still be in flight when cudaMemcpy returns, and the
    // lanes' streams do not wait for the default stream.
    check(cudaDeviceSynchronize(), "cudaDeviceSynchronize (cambi's tables)");
    values_ = DeviceBuffer(size_t(batch_frames()) * layout_.values_per_frame * sizeof(float));
    const size_t samples = layout_.largest_image;
    for (auto& lane : lanes_) {
      lane.image = DeviceBuffer(samples * sizeof(uint16_t));
      lane.mask = DeviceBuffer(samples);
      lane.filtered = DeviceBuffer(2 * samples * sizeof(uint16_t));
      lane.codes = DeviceBuffer(samples * sizeof(uint16_t));
    }
  }

  // One picture's stages into `values` (the picture's values, every scale)
  // and `records` (its pool records).
  void enqueue_picture(int which, const void* plane, Lane& lane, float* values, uint64_t* records,
                       cudaStream_t stream) {
    const DevicePicture& p = layout_.picture[which];
    const ImagePlan& plan = *p.plan;
    const VideoFormat& f = setup_.format;
    LumaSource in{plane, f.bitdepth > 8, f.width, nullptr, nullptr};
    if (!plan.source_rows.empty()) {
      in.rows = picks_[which].get<int>();
      in.cols = in.rows + plan.source_rows.size();
    }
    uint16_t* image = lane.image.get<uint16_t>();
    uint8_t* mask = lane.mask.get<uint8_t>();
    uint16_t* codes = lane.codes.get<uint16_t>();
    launch_ten_bit(in, layout_.convert, layout_.anti_dither, plan.width, plan.height, image,
                   stream);
    launch_mask(image, plan.width, plan.height, p.mask_threshold, mask, stream);
    CambiTables t;
    t.tvi = reinterpret_cast<const int*>(tables_.get<uint32_t>() + kTableTvi);
    t.weight = reinterpret_cast<const int*>(tables_.get<uint32_t>() + kTableWeight);
    t.reciprocal = reinterpret_cast<const float*>(tables_.get<uint32_t>() + kTableReciprocal);
    // Scale n's filtered image goes to one half of `filtered`, alternately.
    uint16_t* halves[2] = {lane.filtered.get<uint16_t>(),
                           lane.filtered.get<uint16_t>() + layout_.largest_image};
    const uint16_t* src = image;
    int src_width = plan.width;
    for (int n = 0; n < kScales; ++n) {
      const auto [w, h] = p.sizes[size_t(n)];
      uint16_t* filtered = halves[n % 2];
      launch_mode_filter(src, src_width, p.image_step[size_t(n)], w, h, filtered, stream);
      launch_band_codes(filtered, w, h, mask, plan.width, p.mask_step[size_t(n)], p.contrast, codes,
                        stream);
      launch_contrast(codes, w, h, p.contrast, t, values + p.offset[size_t(n)],
                      records + records_[which].offset[size_t(n)] * EXACTVQ_CAMBI_POOL_WORDS,
                      stream);
      src = filtered;
      src_width = w;
    }
  }

  void enqueue(const FrameUploader::Chunk& chunk, size_t base) override {
    Lane& lane = lanes_[size_t(chunk.lane)];
    const DevicePlanes& luma = chunk.planes[0];
    for (int i = 0; i < chunk.count; ++i) {
      const size_t slot = size_t(chunk.start + i);
      if (setup_.heatmaps) {
        if (slot_index_.size() <= slot) slot_index_.resize(slot + 1);
        slot_index_[slot] = pass_frames_[base + slot].index;
      }
      float* values = values_.get<float>() + slot * layout_.values_per_frame;
      uint64_t* records = device_words() + slot * words_per_frame();
      const size_t at = size_t(i) * luma.frame_stride;
      const unsigned char* pictures[2] = {static_cast<const unsigned char*>(luma.dist) + at,
                                          static_cast<const unsigned char*>(luma.ref) + at};
      for (int which = 0; which < layout_.pictures; ++which)
        enqueue_picture(which, pictures[which], lane, values + layout_.offset[size_t(which)],
                        records + record_offset_[size_t(which)] * EXACTVQ_CAMBI_POOL_WORDS,
                        chunk.stream);
    }
  }

  size_t words_per_frame() const {
    return record_offset_[size_t(layout_.pictures)] * EXACTVQ_CAMBI_POOL_WORDS;
  }

  // Reads `count` contrast values from values_ at `at` (every lane's work is
  // done: the runner synchronised them before to_values).
  void read_values(size_t at, size_t count, float* to) const {
    check(cudaMemcpy(to, values_.get<float>() + at, count * sizeof(float), cudaMemcpyDeviceToHost),
          "cudaMemcpy (read-back of cambi's contrast values)");
  }

  // Each scale's pooled value from its records where they give it; the other
  // scales' values (every scale's with heatmaps) read back here, on the
  // runner's thread, then pooled on the host, side by side.
  void to_values(const uint64_t* words, size_t count, double* out) override {
    struct ReadBack {
      size_t frame;
      int which, scale;  // scale -1: the whole picture (heatmaps)
      std::vector<float> values;
    };
    std::vector<ReadBack> reads;
    const int pictures = layout_.pictures;
    for (size_t f = 0; f < count; ++f)
      for (int which = 0; which < pictures; ++which) {
        const DevicePicture& p = layout_.picture[which];
        const size_t first = f * layout_.values_per_frame + layout_.offset[size_t(which)];
        if (which == 0 && setup_.heatmaps) {
          ReadBack r{f, which, -1, std::vector<float>(p.values)};
          read_values(first, p.values, r.values.data());
          reads.push_back(std::move(r));
          continue;
        }
        const unsigned scales = pool_from_records(
            words + f * words_per_frame() +
                record_offset_[size_t(which)] * EXACTVQ_CAMBI_POOL_WORDS,
            records_[which], p, setup_.cambi.topk,
            std::span<double>(out + f * size_t(setup_.planes) + size_t(which) * kScales, kScales));
        for (int n = 0; n < kScales; ++n) {
          if (!(scales >> n & 1u)) continue;
          ReadBack r{f, which, n, std::vector<float>(p.scale_values(n))};
          read_values(first + p.offset[size_t(n)], r.values.size(), r.values.data());
          reads.push_back(std::move(r));
        }
        if (setup_.pool_counts) {
          const int back = std::popcount(scales);
          setup_.pool_counts->on_device += kScales - back;
          setup_.pool_counts->read_back += back;
        }
      }
    parallel_for(setup_.pool, int(reads.size()), [&](int task) {
      ReadBack& r = reads[size_t(task)];
      double* scores = out + r.frame * size_t(setup_.planes) + size_t(r.which) * kScales;
      if (r.scale >= 0) {
        scores[r.scale] = pool_topk(r.values, setup_.cambi.topk);
        return;
      }
      if (setup_.pool_counts) setup_.pool_counts->read_back += kScales;
      pool_picture(r.values, layout_.picture[r.which], setup_.cambi.topk, setup_.heatmaps.get(),
                   slot_index_[r.frame], setup_.pool, std::span<double>(scores, kScales));
    });
  }

  EngineSetup setup_;
  DeviceLayout layout_;
  DeviceBuffer tables_;                    // device_tables()
  DeviceBuffer picks_[2];                  // a resampled picture's row picks, then its column picks
  DeviceBuffer values_;                    // a batch's contrast values
  PoolRecords records_[2];                 // each picture's pool records
  std::array<size_t, 3> record_offset_{};  // each picture's first record in a frame's
  Lane lanes_[FrameUploader::kLanes];
  std::span<const FramePair> pass_frames_;  // the frames of this engine's pass
  std::vector<int64_t> slot_index_;         // each batch slot's place in the run (heatmaps)
};

}  // namespace

std::unique_ptr<Engine> make_engine(Device& device, const EngineSetup& setup) {
  return std::make_unique<CudaEngine>(setup, CudaDevice::of(device));
}

}  // namespace exactvq::cambi::cuda
