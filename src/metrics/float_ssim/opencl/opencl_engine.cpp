// The float_ssim engine on an OpenCL device: on the frame's luma planes as the
// device holds them for every engine of the run, the conversion, the
// downscaling (float_ssim's box filter, MS-SSIM's halvings), each scale's
// window passes and terms (float_ssim_kernels.cl: binary64 steps on softfp)
// and the raster-order sums of the terms (backends/opencl/raster_sum.h) run on
// the device; a frame's term planes lie as device_term_layout.h says (a chunk
// of one frame), one raster-sum pass adds them all, and only the sums come
// back. Pictures whose (downscaled) plane fits no window need no pixels: their
// means are the definition's constants.
#include <algorithm>
#include <array>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "backends/opencl/device_engine.h"
#include "core/error.h"
#include "metrics/float_ssim/device_term_layout.h"
#include "metrics/float_ssim/engine.h"

namespace exactvq::float_ssim::opencl {

using namespace exactvq::opencl;  // the backend's plumbing that every engine uses

extern const char* const kFloatSsimKernelSource;  // float_ssim_kernels.cl, embedded

namespace {

constexpr int kQuantities = 5;  // FS_QUANTITIES in float_ssim_kernels.cl
// Work-groups of a fixed shape (16 x 8, or fewer rows where the device allows
// fewer items), the grid rounded up to them: an implementation that compiles a
// kernel for each group shape (PoCL) compiles it once, not once a picture size.
constexpr size_t kGroupWidth = 16, kGroupHeight = 8;

size_t round_up(size_t v, size_t m) { return (v + m - 1) / m * m; }

using Scale = ScaleGeometry;

// A term plane's offset in binary64 terms, or -1 where not wanted.
cl_long term_offset(size_t bytes) {
  return bytes == DeviceTermLayout::kNone ? cl_long{-1} : cl_long(bytes / sizeof(double));
}

// The conversion's kind and scale for integer samples (float_ssim_kernels.cl's fs_sample).
cl_int sample_kind(int bitdepth) { return bitdepth == 8 ? 1 : 2; }
cl_float sample_scale(int bitdepth) {
  return bitdepth == 10   ? 0.25f
         : bitdepth == 12 ? 1.0f / 16.0f
         : bitdepth == 16 ? 1.0f / 256.0f
                          : 1.0f;
}

// Only float_ssim can meet a plane no window fits (MS-SSIM refuses sides under 176).
bool no_window_fits(const std::vector<Scale>& scales) {
  return scales[0].ow <= 0 || scales[0].oh <= 0;
}

const char* feature_name(const EngineSetup& s) {
  return s.multiscale ? "float_ms_ssim" : "float_ssim";
}

class OpenclEngine final : public DeviceEngine<Engine> {
 public:
  OpenclEngine(const EngineSetup& s, std::shared_ptr<OpenclDevice> device)
      : DeviceEngine(std::move(device), feature_name(s), 1, !no_window_fits(scale_geometry(s))),
        setup_(s),
        scales_(scale_geometry(s)),
        no_window_(no_window_fits(scales_)) {
    if (no_window_) return;
    DeviceContext& dc = context();
    // The kernels' binary32 products and sums must keep subnormals as the CPU does.
    cl_device_fp_config fp32 = 0;
    exactvq::opencl::check(
        clGetDeviceInfo(dc.device(), CL_DEVICE_SINGLE_FP_CONFIG, sizeof fp32, &fp32, nullptr),
        "clGetDeviceInfo(CL_DEVICE_SINGLE_FP_CONFIG)");
    if (!(fp32 & CL_FP_DENORM))
      throw DeviceError(
          "the device flushes binary32 subnormals (no CL_FP_DENORM), which float_ssim's windows "
          "keep");
    const cl_program program =
        this->device().program(kFloatSsimKernelSource, "the float_ssim kernels");
    convert_ = dc.kernel(program, "fs_convert");
    decimate_ = dc.kernel(program, "fs_decimate");
    horizontal_ = dc.kernel(program, "fs_horizontal");
    terms_ = dc.kernel(program, "fs_terms");
    size_t group = kGroupWidth * kGroupHeight;
    for (const auto* k : {&convert_, &decimate_, &horizontal_, &terms_})
      group = std::min(group, exactvq::opencl::work_group_size(k->get(), dc.device(),
                                                               kGroupWidth * kGroupHeight));
    local_[0] = kGroupWidth;
    local_[1] = exactvq::opencl::group_rows(group, kGroupWidth, "the float_ssim kernels");
    linear_local_ = group;

    window_ = upload_floats(std::vector<float>(kWindowTaps.begin(), kWindowTaps.end()),
                            "float_ssim's window taps");
    if (s.multiscale) {
      const LowPassTable& t = low_pass_table();
      low_pass_ = upload_floats(std::vector<float>(&t[0][0], &t[0][0] + kLowPass * kLowPass),
                                "float_ms_ssim's low-pass taps");
    } else if (s.factor > 1) {
      box_ = upload_floats(
          std::vector<float>(size_t(s.factor * s.factor), 1.0f / float(s.factor * s.factor)),
          "float_ssim's box taps");
    }
    for (size_t sc = 0; sc < scales_.size(); ++sc) {
      const size_t bytes = size_t(scales_[sc].width) * size_t(scales_[sc].height) * sizeof(float);
      ref_[sc] = dc.buffer(bytes, fmt::format("float_ssim scale {} (reference)", sc));
      dist_[sc] = dc.buffer(bytes, fmt::format("float_ssim scale {} (distorted)", sc));
    }
    // Scale 0's horizontal pass is the largest.
    across_ = dc.buffer(
        size_t(kQuantities) * size_t(scales_[0].ow) * size_t(scales_[0].height) * sizeof(float),
        "float_ssim's horizontal window pass");
    std::vector<DeviceTermLayout::Positions> positions;
    for (const Scale& sc : scales_) positions.push_back({sc.ow, sc.oh});
    layout_.emplace(positions, s.ssim_mean, s.lcs_means, 1);
    term_planes_ = dc.buffer(layout_->chunk_bytes(), "float_ssim's term planes");
    raster_sums_ = &this->device().raster_sums();
    const exactvq::opencl::RasterSumLayout sums =
        raster_layout<cl_mem>(layout_->sum_layout(1), nullptr);
    raster_workspace_ =
        dc.buffer(exactvq::opencl::raster_sum_workspace_bytes(sums), "raster-order sum workspace");
    sums_host_.resize(layout_->sums_per_frame());
    sums_ = dc.buffer(sums_host_.size() * sizeof(double), "float_ssim's sums");
  }

  void score(std::span<const FramePair> frames, std::span<FrameMeans> out) override {
    if (!no_window_) return DeviceEngine::score(frames, out);
    const Scale& sc = scales_[0];
    for (size_t i = 0; i < frames.size(); ++i)
      out[i].scales[0] = means_of_sums(0.0, 0.0, 0.0, 0.0, sc.ow, sc.oh);
  }

 private:
  Handle<cl_mem> upload_floats(const std::vector<float>& v, const std::string& what) {
    DeviceContext& dc = context();
    Handle<cl_mem> b = dc.buffer(v.size() * sizeof(float), what);
    dc.write(b.get(), v.size() * sizeof(float), v.data(), "upload of " + what);
    return b;
  }

  void score_frame(const DeviceFrame& f, std::span<FrameMeans> out) override {
    DeviceContext& dc = context();
    const std::array<cl_mem, 2> luma = device().plane(f, 0);
    const VideoFormat& format = setup_.format;
    const cl_int kind = sample_kind(format.bitdepth);
    const cl_float scale = sample_scale(format.bitdepth);
    // Scale 0: the converted plane, or float_ssim's box-filtered one.
    if (!setup_.multiscale && setup_.factor > 1) {
      decimate(luma[0], luma[1], format.width, format.height, kind, scale, box_.get(),
               setup_.factor, setup_.factor, 0);
    } else {
      const cl_kernel k = convert_.get();
      const cl_int count = cl_int(format.width * format.height);
      set_args(k, luma[0], luma[1], count, kind, scale, ref_[0], dist_[0]);
      const size_t global[1] = {round_up(size_t(count), linear_local_)};
      dc.run(k, 1, global, &linear_local_, "fs_convert");
    }
    for (size_t sc = 0; sc < scales_.size(); ++sc) {
      const Scale& s = scales_[sc];
      if (sc + 1 < scales_.size())
        decimate(ref_[sc].get(), dist_[sc].get(), s.width, s.height, 0, 1.0f, low_pass_.get(),
                 kLowPass, 2, sc + 1);
      const cl_kernel h = horizontal_.get();
      set_args(h, ref_[sc], dist_[sc], cl_int{s.width}, cl_int{s.height}, window_, across_);
      dc.run(h, 2, grid(s.ow, s.height).data(), local_, fmt::format("fs_horizontal, scale {}", sc));
      const DeviceTermLayout::ScalePlanes where = layout_->planes(int(sc));
      const SsimConstants c = ssim_constants();
      const cl_kernel t = terms_.get();
      set_args(t, across_, cl_int{s.ow}, cl_int{s.height}, window_, cl_float{c.c1}, cl_float{c.c2},
               cl_float{c.c3}, term_planes_, term_offset(where.lcs), term_offset(where.l),
               term_offset(where.c), term_offset(where.s));
      dc.run(t, 2, grid(s.ow, s.oh).data(), local_, fmt::format("fs_terms, scale {}", sc));
    }
    // Every term plane of the frame summed in raster order, queued behind the terms.
    raster_sums_->enqueue(raster_layout(layout_->sum_layout(1), term_planes_.get()), sums_.get(),
                          raster_workspace_.get());
    dc.read(sums_.get(), sums_host_.size() * sizeof(double), sums_host_.data(),
            "float_ssim's sums");
    out[0].scales = layout_->means(sums_host_.data());
  }

  // Decimates a plane of width x height (integer samples of `kind`, or
  // binary32 with kind 0) into scale `out`'s planes.
  void decimate(cl_mem ref, cl_mem dist, int width, int height, cl_int kind, cl_float scale,
                cl_mem taps, int size, int factor, size_t out) {
    const cl_kernel k = decimate_.get();
    const Scale& o = scales_[out];
    set_args(k, ref, dist, cl_int{width}, cl_int{height}, kind, scale, taps, cl_int{size},
             cl_int{factor}, cl_int{o.width}, cl_int{o.height}, ref_[out], dist_[out]);
    context().run(k, 2, grid(o.width, o.height).data(), local_,
                  fmt::format("fs_decimate, to scale {}", out));
  }

  // The 2-D grid of work-groups covering width x height items.
  std::array<size_t, 2> grid(int width, int height) const {
    return {round_up(size_t(width), local_[0]), round_up(size_t(height), local_[1])};
  }

  EngineSetup setup_;
  std::vector<Scale> scales_;
  bool no_window_;
  size_t local_[2] = {kGroupWidth, kGroupHeight}, linear_local_ = kGroupWidth * kGroupHeight;
  Handle<cl_kernel> convert_, decimate_, horizontal_, terms_;
  Handle<cl_mem> window_, low_pass_, box_, across_, term_planes_, raster_workspace_, sums_;
  std::array<Handle<cl_mem>, kScales> ref_, dist_;  // each scale's binary32 planes
  std::optional<DeviceTermLayout> layout_;  // where the frame's terms lie (not with no_window_)
  exactvq::opencl::RasterSums* raster_sums_ = nullptr;  // the device's
  std::vector<double> sums_host_;                       // a frame's, [term][scale]
};

}  // namespace

std::unique_ptr<Engine> make_engine(Device& device, const EngineSetup& setup) {
  return std::make_unique<OpenclEngine>(setup, OpenclDevice::of(device));
}

}  // namespace exactvq::float_ssim::opencl
