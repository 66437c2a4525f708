// The vif engine on an OpenCL device: each level's statistic and the halvings
// on the device (vif_kernels.cl, the gain steps in softfp), on the frame's luma
// planes as the device holds them for every engine of the run; the work-groups'
// sums read back once a frame and added here. Pictures under 16x16 have a
// pyramid level of one row or column, whose edges read what libvmaf's buffers
// hold from earlier levels and rows (spec/vif.md, "Edges"): those the
// engine scores with the CPU's stages, which keep those buffers.
#include <algorithm>
#include <array>
#include <bit>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "backends/opencl/device_engine.h"
#include "metrics/vif/cpu/vif_simd.h"
#include "metrics/vif/definition.h"
#include "metrics/vif/engine.h"
#include "metrics/vif/log2_table.h"

namespace exactvq::vif::opencl {

using namespace exactvq::opencl;  // the backend's plumbing that every engine uses

extern const char* const kVifKernelSource;  // vif_kernels.cl, embedded

namespace {

constexpr int kMinDeviceSide = 16;  // every level two or more samples a side
constexpr size_t kTileW = 32;       // VIF_TILE_W in vif_kernels.cl
constexpr size_t kMaxTileH = 8;     // VIF_MAX_TILE_H
constexpr size_t kWords = 4;        // a level's four sums

size_t groups_of(size_t n, size_t per) { return (n + per - 1) / per; }

bool scored_on_host(const VideoFormat& f) {
  return f.width < kMinDeviceSide || f.height < kMinDeviceSide;
}

class OpenclEngine final : public DeviceEngine<Engine> {
 public:
  OpenclEngine(const EngineSetup& s, std::shared_ptr<OpenclDevice> device)
      : DeviceEngine(std::move(device), "vif", 1, !scored_on_host(s.format)),
        setup_(s),
        on_host_(scored_on_host(s.format)) {
    const VideoFormat& f = s.format;
    width_[0] = f.width;
    height_[0] = f.height;
    for (int l = 1; l < kLevels; ++l) {
      width_[size_t(l)] = width_[size_t(l - 1)] / 2;
      height_[size_t(l)] = height_[size_t(l - 1)] / 2;
    }
    if (on_host_) return;
    DeviceContext& dc = context();
    statistic_ =
        dc.kernel(this->device().program(kVifKernelSource, "the vif kernels"), "vif_statistic");
    halve_ = dc.kernel(this->device().program(kVifKernelSource, "the vif kernels"), "vif_halve");
    tile_h_ =
        group_rows(std::min(work_group_size(statistic_.get(), dc.device(), kTileW * kMaxTileH),
                            work_group_size(halve_.get(), dc.device(), kTileW * kMaxTileH)),
                   kTileW, "the vif kernels");
    for (int l = 0; l < kLevels; ++l) {
      const auto t = level_taps(l);
      const std::vector<uint32_t> v(t.begin(), t.end());
      level_taps_[size_t(l)] =
          dc.buffer(v.size() * sizeof(uint32_t), fmt::format("vif level {} taps", l));
      dc.write(level_taps_[size_t(l)].get(), v.size() * sizeof(uint32_t), v.data(),
               fmt::format("upload of vif level {} taps", l));
    }
    table_ = dc.buffer(kLog2Table.size() * sizeof(uint16_t), "vif's log2 table");
    dc.write(table_.get(), kLog2Table.size() * sizeof(uint16_t), kLog2Table.data(),
             "upload of vif's log2 table");
    for (int l = 1; l < kLevels; ++l) {
      const size_t bytes = size_t(width_[size_t(l)]) * size_t(height_[size_t(l)]) * 2;
      ref_[size_t(l)] = dc.buffer(bytes, fmt::format("vif level {} (reference)", l));
      dist_[size_t(l)] = dc.buffer(bytes, fmt::format("vif level {} (distorted)", l));
    }
    size_t words = 0;
    for (int l = 0; l < kLevels; ++l) {
      base_[size_t(l)] = words;
      words += groups_of(size_t(width_[size_t(l)]), kTileW) *
               groups_of(size_t(height_[size_t(l)]), tile_h_) * kWords;
    }
    partial_words_.resize(words);
    partial_ = dc.buffer(words * sizeof(cl_ulong), "vif's work-group sums");
    eps_bits_ = EXACTVQ_VIF_EPS_BITS;
    limit_bits_ = std::bit_cast<uint64_t>(setup_.options.gain_limit);
  }

  void score(std::span<const FramePair> frames, std::span<VifLevelSums> out) override {
    if (!on_host_) return DeviceEngine::score(frames, out);
    for (size_t i = 0; i < frames.size(); ++i)
      out[i] = cpu::vif_simd_level_sums(frames[i].ref->plane(0), frames[i].dist->plane(0),
                                        setup_.format.bitdepth, setup_.options);
  }

 private:
  void score_frame(const DeviceFrame& f, std::span<VifLevelSums> out) override {
    DeviceContext& dc = context();
    const std::array<cl_mem, 2> luma = device().plane(f, 0);
    const int bitdepth = setup_.format.bitdepth;
    cl_mem ref = luma[0], dist = luma[1];
    cl_int bytes = bitdepth == 8;
    std::array<bool, kLevels> scored{};
    for (int l = 0; l < kLevels; ++l) {
      const size_t li = size_t(l);
      if (l > 0 || !setup_.options.skip_scale0) {
        const cl_kernel k = statistic_.get();
        set_args(k, ref, dist, cl_int{width_[li]}, cl_int{height_[li]}, bytes,
                 level_taps_[li].get(), cl_int{half_taps(l)},
                 cl_int{vertical_mean_rounding(l, bitdepth).shift},
                 cl_int{vertical_square_rounding(l, bitdepth).shift}, cl_ulong{eps_bits_},
                 cl_ulong{limit_bits_}, table_, partial_, cl_int(base_[li]));
        const size_t global[2] = {groups_of(size_t(width_[li]), kTileW) * kTileW,
                                  groups_of(size_t(height_[li]), tile_h_) * tile_h_};
        const size_t local[2] = {kTileW, tile_h_};
        dc.run(k, 2, global, local, fmt::format("vif_statistic, level {}", l));
        scored[li] = true;
      }
      if (l + 1 == kLevels) break;
      const cl_kernel k = halve_.get();
      set_args(k, ref, dist, cl_int{width_[li]}, cl_int{height_[li]}, bytes,
               level_taps_[li + 1].get(), cl_int{half_taps(l + 1)},
               cl_int{rounding_by(l == 0 ? bitdepth : 16).shift}, ref_[li + 1], dist_[li + 1]);
      const size_t global[2] = {groups_of(size_t(width_[li + 1]), kTileW) * kTileW,
                                groups_of(size_t(height_[li + 1]), tile_h_) * tile_h_};
      const size_t local[2] = {kTileW, tile_h_};
      dc.run(k, 2, global, local, fmt::format("vif_halve, level {}", l + 1));
      ref = ref_[li + 1].get();
      dist = dist_[li + 1].get();
      bytes = 0;
    }
    dc.read(partial_.get(), partial_words_.size() * sizeof(cl_ulong), partial_words_.data(),
            "vif's work-group sums");
    VifLevelSums sums{};
    for (int l = 0; l < kLevels; ++l) {
      const size_t li = size_t(l);
      if (!scored[li]) continue;
      const size_t end = l + 1 < kLevels ? base_[li + 1] : partial_words_.size();
      // Two's complement words: unsigned sums wrap to the signed ones.
      uint64_t w[kWords] = {};
      for (size_t at = base_[li]; at < end; at += kWords)
        for (size_t k = 0; k < kWords; ++k) w[k] += partial_words_[at + k];
      sums[li].num_log = int64_t(w[0]);
      sums[li].den_log = int64_t(w[1]);
      sums[li].num_non_log = int64_t(w[2]);
      sums[li].den_non_log = int64_t(w[3]);
    }
    out[0] = sums;
  }

  EngineSetup setup_;
  bool on_host_;
  std::array<int, kLevels> width_{}, height_{};
  Handle<cl_kernel> statistic_, halve_;
  size_t tile_h_ = 1;
  Handle<cl_mem> table_, partial_;
  std::array<Handle<cl_mem>, kLevels> ref_, dist_, level_taps_;  // levels 1..3; taps of each level
  std::array<size_t, kLevels> base_{};  // each level's first word in partial_
  std::vector<cl_ulong> partial_words_;
  uint64_t eps_bits_ = 0, limit_bits_ = 0;
};

}  // namespace

std::unique_ptr<Engine> make_engine(Device& device, const EngineSetup& setup) {
  return std::make_unique<OpenclEngine>(setup, OpenclDevice::of(device));
}

}  // namespace exactvq::vif::opencl
