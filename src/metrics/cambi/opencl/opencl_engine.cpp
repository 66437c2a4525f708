// The cambi engine on an OpenCL device: each picture's 10-bit image, mask,
// mode-filtered scales and contrast values on the device (cambi_kernels.cl),
// on the frame's luma as the device holds it for every engine of the run. The
// contrast kernel's work-groups summarise the values in pool records
// (pool_device.h), read back once a picture; each scale's pooled value is
// formed from them on the host where that is provably the reference's
// (device_plan.h), and only the other scales' values (every scale's with
// heatmaps) are read back and pooled on the host (the quick select is
// sequential), side by side on the setup's pool. The program has no binary64
// step at all.
#include <algorithm>
#include <array>
#include <bit>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "backends/opencl/device_engine.h"
#include "core/error.h"
#include "metrics/cambi/device_plan.h"
#include "metrics/cambi/engine.h"
#include "metrics/cambi/reference.h"

namespace exactvq::cambi::opencl {

using namespace exactvq::opencl;  // the backend's plumbing that every engine uses

extern const char* const kCambiKernelSource;  // cambi_kernels.cl, embedded

namespace {

constexpr size_t kGroupW = 16;  // work-groups 16 wide, up to 16 rows (cambi_kernels.cl's
                                // CAMBI_GROUP_ITEMS items)
constexpr int kRun = 32;        // the contrast kernel's samples a work-item

size_t round_up(size_t n, size_t to) { return (n + to - 1) / to * to; }

class OpenclEngine final : public DeviceEngine<Engine> {
 public:
  OpenclEngine(const EngineSetup& s, std::shared_ptr<OpenclDevice> device)
      : DeviceEngine(std::move(device), "cambi", size_t(s.planes)),
        setup_(s),
        layout_(device_layout(setup_.cambi)) {
    DeviceContext& dc = context();
    const cl_program program = this->device().program(kCambiKernelSource, "the cambi kernels");
    const char* const names[kKernels] = {"cambi_ten_bit", "cambi_mask", "cambi_mode_filter",
                                         "cambi_band_codes", "cambi_contrast"};
    size_t items = kGroupW * kGroupW;
    for (int k = 0; k < kKernels; ++k) {
      kernels_[k] = dc.kernel(program, names[k]);
      items = std::min(items, work_group_size(kernels_[k].get(), dc.device(), kGroupW * kGroupW));
    }
    group_h_ = group_rows(items, kGroupW, "the cambi kernels");
    const std::vector<uint32_t> tables = device_tables(setup_.cambi);
    tables_[0] = dc.buffer(kMaxDiffs * sizeof(cl_int), "cambi's thresholds");
    tables_[1] = dc.buffer(kMaxDiffs * sizeof(cl_int), "cambi's contrast weights");
    tables_[2] =
        dc.buffer((tables.size() - kTableReciprocal) * sizeof(cl_float), "cambi's reciprocals");
    dc.write(tables_[0].get(), kMaxDiffs * sizeof(cl_int), tables.data() + kTableTvi,
             "cambi's thresholds");
    dc.write(tables_[1].get(), kMaxDiffs * sizeof(cl_int), tables.data() + kTableWeight,
             "cambi's contrast weights");
    dc.write(tables_[2].get(), (tables.size() - kTableReciprocal) * sizeof(cl_float),
             tables.data() + kTableReciprocal, "cambi's reciprocals");
    for (int i = 0; i < layout_.pictures; ++i) {
      const ImagePlan& plan = *layout_.picture[i].plan;
      // A buffer even where unused (no picks): kernel arguments must be buffers.
      rows_[i] = dc.buffer(std::max<size_t>(1, plan.source_rows.size()) * sizeof(cl_int),
                           "cambi's row picks");
      cols_[i] = dc.buffer(std::max<size_t>(1, plan.source_cols.size()) * sizeof(cl_int),
                           "cambi's column picks");
      if (plan.source_rows.empty()) continue;
      dc.write(rows_[i].get(), plan.source_rows.size() * sizeof(cl_int), plan.source_rows.data(),
               "cambi's row picks");
      dc.write(cols_[i].get(), plan.source_cols.size() * sizeof(cl_int), plan.source_cols.data(),
               "cambi's column picks");
    }
    const size_t samples = layout_.largest_image;
    image_ = dc.buffer(samples * sizeof(cl_ushort), "cambi's 10-bit image");
    mask_ = dc.buffer(samples, "cambi's mask");
    for (auto& half : filtered_) half = dc.buffer(samples * sizeof(cl_ushort), "cambi's scales");
    codes_ = dc.buffer(samples * sizeof(cl_ushort), "cambi's band codes");
    size_t most = 0;
    for (int i = 0; i < layout_.pictures; ++i) most = std::max(most, layout_.picture[i].values);
    values_ = dc.buffer(most * sizeof(cl_float), "cambi's contrast values");
    host_values_.resize(most);
    size_t most_records = 0;
    for (int i = 0; i < layout_.pictures; ++i) {
      records_[i] = pool_records(layout_.picture[i], kRun, int(kGroupW), int(group_h_));
      most_records = std::max(most_records, records_[i].records);
    }
    const size_t record_bytes = most_records * EXACTVQ_CAMBI_POOL_WORDS * sizeof(cl_ulong);
    pool_records_ = dc.buffer(record_bytes, "cambi's pool records");
    host_records_.resize(most_records * EXACTVQ_CAMBI_POOL_WORDS);
  }

  void score(std::span<const FramePair> frames, std::span<double> out) override {
    if (setup_.heatmaps)
      for (const FramePair& f : frames)
        if (f.loose())
          throw UsageError(
              "feature cambi: heatmaps_path needs each frame's place in the run (a loose pair "
              "has none)");
    DeviceEngine::score(frames, out);
  }

 private:
  enum Kernel { kTenBit, kMask, kModeFilter, kBandCodes, kContrast, kKernels };

  void run(Kernel k, int w, int h, const std::string& what) {
    const size_t global[2] = {round_up(size_t(w), kGroupW), round_up(size_t(h), group_h_)};
    const size_t local[2] = {kGroupW, group_h_};
    context().run(kernels_[k].get(), 2, global, local, what);
  }

  // One picture's contrast values, every scale, into values_.
  void picture_values(int which, cl_mem plane) {
    const DevicePicture& p = layout_.picture[which];
    const ImagePlan& plan = *p.plan;
    const VideoFormat& f = setup_.format;
    const char* name = which == 0 ? "distorted" : "reference";
    cl_kernel k = kernels_[kTenBit].get();
    set_args(k, plane, cl_int{f.bitdepth > 8}, cl_int{f.width}, rows_[which], cols_[which],
             cl_int{!plan.source_rows.empty()}, cl_int{layout_.convert.up},
             cl_int{layout_.convert.down}, cl_int{layout_.anti_dither}, cl_int{plan.width},
             cl_int{plan.height}, image_);
    run(kTenBit, plan.width, plan.height, fmt::format("cambi_ten_bit ({})", name));
    k = kernels_[kMask].get();
    set_args(k, image_, cl_int{plan.width}, cl_int{plan.height}, cl_int{p.mask_threshold}, mask_);
    run(kMask, plan.width, plan.height, fmt::format("cambi_mask ({})", name));
    cl_mem src = image_.get();
    int src_width = plan.width;
    for (int n = 0; n < kScales; ++n) {
      const auto [w, h] = p.sizes[size_t(n)];
      const cl_mem filtered = filtered_[n % 2].get();
      k = kernels_[kModeFilter].get();
      set_args(k, src, cl_int{src_width}, cl_int{p.image_step[size_t(n)]}, cl_int{w}, cl_int{h},
               filtered);
      run(kModeFilter, w, h, fmt::format("cambi_mode_filter, scale {} ({})", n, name));
      k = kernels_[kBandCodes].get();
      set_args(k, filtered, cl_int{w}, cl_int{h}, mask_, cl_int{plan.width},
               cl_int{p.mask_step[size_t(n)]}, cl_int{p.contrast.base}, cl_int{p.contrast.band},
               codes_);
      run(kBandCodes, w, h, fmt::format("cambi_band_codes, scale {} ({})", n, name));
      k = kernels_[kContrast].get();
      set_args(k, codes_, cl_int{w}, cl_int{h}, cl_int{kRun}, cl_int{p.contrast.num_diffs},
               cl_int{p.contrast.vlt_luma}, cl_int{p.contrast.pad}, tables_[0], tables_[1],
               tables_[2], values_, cl_ulong{p.offset[size_t(n)]}, pool_records_,
               cl_ulong{records_[which].offset[size_t(n)]});
      run(kContrast, (w + kRun - 1) / kRun, h,
          fmt::format("cambi_contrast, scale {} ({})", n, name));
      src = filtered;
      src_width = w;
    }
  }

  // Picture `which`'s five pooled values from its records where they give
  // them, else from its values read back (all of them with heatmaps).
  void pool(int which, int64_t number, std::span<double> out) {
    const DevicePicture& p = layout_.picture[which];
    const char* name = which == 0 ? "distorted" : "reference";
    DevicePoolCounts* counts = setup_.pool_counts.get();
    const HeatmapFiles* heatmaps = which == 0 ? setup_.heatmaps.get() : nullptr;
    if (heatmaps) {
      context().read(values_.get(), p.values * sizeof(cl_float), host_values_.data(),
                     fmt::format("cambi's contrast values ({})", name));
      pool_picture(std::span<float>(host_values_.data(), p.values), p, setup_.cambi.topk, heatmaps,
                   number, setup_.pool, out);
      if (counts) counts->read_back += kScales;
      return;
    }
    const PoolRecords& r = records_[which];
    context().read(pool_records_.get(), r.records * EXACTVQ_CAMBI_POOL_WORDS * sizeof(cl_ulong),
                   host_records_.data(), fmt::format("cambi's pool records ({})", name));
    const unsigned scales = pool_from_records(host_records_.data(), r, p, setup_.cambi.topk, out);
    for (int n = 0; n < kScales; ++n)
      if (scales >> n & 1u)
        context().read(values_.get(), p.scale_values(n) * sizeof(cl_float),
                       host_values_.data() + p.offset[size_t(n)],
                       fmt::format("cambi's contrast values, scale {} ({})", n, name),
                       p.offset[size_t(n)] * sizeof(cl_float));
    parallel_for(setup_.pool, kScales, [&](int n) {
      if (!(scales >> n & 1u)) return;
      out[size_t(n)] =
          pool_topk(std::span<float>(host_values_.data() + p.offset[size_t(n)], p.scale_values(n)),
                    setup_.cambi.topk);
    });
    if (counts) {
      const int back = std::popcount(scales);
      counts->on_device += kScales - back;
      counts->read_back += back;
    }
  }

  void score_frame(const DeviceFrame& f, std::span<double> out) override {
    const std::array<cl_mem, 2> luma = device().plane(f, 0);
    for (int which = 0; which < layout_.pictures; ++which) {
      picture_values(which, luma[which == 0 ? 1 : 0]);
      pool(which, f.number, out.subspan(size_t(which) * kScales, kScales));
    }
  }

  EngineSetup setup_;
  DeviceLayout layout_;
  std::array<Handle<cl_kernel>, kKernels> kernels_;
  size_t group_h_ = 1;
  std::array<Handle<cl_mem>, 3> tables_;  // thresholds, weights, reciprocals
  std::array<Handle<cl_mem>, 2> rows_, cols_;
  Handle<cl_mem> image_, mask_, codes_, values_, pool_records_;
  PoolRecords records_[2];              // each picture's pool records
  std::vector<uint64_t> host_records_;  // a picture's, read back
  std::array<Handle<cl_mem>, 2> filtered_;
  std::vector<float> host_values_;
};

}  // namespace

std::unique_ptr<Engine> make_engine(Device& device, const EngineSetup& setup) {
  return std::make_unique<OpenclEngine>(setup, OpenclDevice::of(device));
}

}  // namespace exactvq::cambi::opencl
