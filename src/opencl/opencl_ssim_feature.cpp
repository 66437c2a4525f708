#include "opencl/opencl_ssim_feature.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "core/error.h"
#include "opencl/opencl_device.h"
#include "ssim/decibels.h"
#include "ssim/fixed_point.h"
#include "ssim/taps.h"
#include "ssim/term.h"

namespace exactvq::opencl {

namespace {

constexpr size_t kMaxGroup = 256;  // SSIM_GROUP in ssim_kernels.cl

uint64_t bits_of(double v) {
  uint64_t b;
  std::memcpy(&b, &v, sizeof b);
  return b;
}

size_t round_up(size_t v, size_t m) { return (v + m - 1) / m * m; }

class OpenclSsimFeature final : public Feature {
 public:
  OpenclSsimFeature(const SsimOptions& o, const VideoFormat& format, std::shared_ptr<OpenclDevice> device)
      : options_(o), format_(format), device_(std::move(device)) {
    const DeviceContext& dc = device_->context();
    planes_ = o.chroma ? 3 : 1;
    static const char* const kNames[] = {"ssim", "ssim_cb", "ssim_cr"};
    for (int p = 0; p < planes_; ++p) {
      names_.emplace_back(kNames[p]);
      max_db_[p] = o.clip_db ? ssim::clip_db_limit(format.max_sample(), format.plane_width(p),
                                                   format.plane_height(p))
                             : std::numeric_limits<double>::infinity();
    }
    horizontal_ = dc.kernel(device_->ssim_program(), "ssim_horizontal");
    terms_ = dc.kernel(device_->ssim_program(), "ssim_terms");

    // Work-group of the term kernel: a power of two up to kMaxGroup, 16 wide.
    const size_t group = work_group_size(terms_.get(), dc.device(), kMaxGroup);
    local_[0] = std::min<size_t>(16, group);
    local_[1] = group / local_[0];

    const size_t samples = size_t(format.plane_width(0)) * size_t(format.plane_height(0));
    const size_t bytes_per_sample = size_t(format.bytes_per_sample());
    ref_ = dc.buffer(samples * bytes_per_sample, "the reference plane");
    dist_ = dc.buffer(samples * bytes_per_sample, "the distorted plane");
    hm_ = dc.buffer(samples * sizeof(cl_uint), "horizontal moments");
    hn_ = dc.buffer(samples * sizeof(cl_uint), "horizontal moments");
    hxx_ = dc.buffer(samples * sizeof(cl_ulong), "horizontal moments");
    hxy_ = dc.buffer(samples * sizeof(cl_ulong), "horizontal moments");
    hyy_ = dc.buffer(samples * sizeof(cl_ulong), "horizontal moments");
    term_bits_ = dc.buffer(o.mode == SumMode::kRaster ? samples * sizeof(cl_ulong) : 1, "term plane");
    const size_t groups = round_up(size_t(format.plane_width(0)), local_[0]) / local_[0] *
                          (round_up(size_t(format.plane_height(0)), local_[1]) / local_[1]);
    partial_ = dc.buffer(groups * 2 * sizeof(cl_ulong), "work-group sums");
    invalid_ = dc.buffer(sizeof(cl_int), "status flag");
    partial_host_.resize(groups * 2);

    const ssim::TermConstants k = ssim::term_constants(format.bitdepth);
    mm_k1_bits_ = bits_of(k.mm_k1);
    mm_k2_bits_ = bits_of(k.mm_k2);
  }

  const std::vector<std::string>& outputs() const override { return names_; }

  void extract(const Picture& ref, const Picture& dist, std::span<double> out) override {
    for (int p = 0; p < planes_; ++p) {
      out[size_t(p)] = score_plane(ref.plane(p), dist.plane(p), p);
      if (options_.enable_db) out[size_t(p)] = ssim::to_db(out[size_t(p)], max_db_[p]);
    }
  }

 private:
  void upload(const Handle<cl_mem>& buffer, const PlaneView& plane) {
    write_plane(device_->context().queue(), buffer.get(), plane, staging_);
  }

  double score_plane(const PlaneView& ref, const PlaneView& dist, int plane) {
    const cl_command_queue q = device_->context().queue();
    const int width = ref.width, height = ref.height;
    upload(ref_, ref);
    upload(dist_, dist);
    const cl_int zero = 0;
    check(clEnqueueWriteBuffer(q, invalid_.get(), CL_TRUE, 0, sizeof zero, &zero, 0, nullptr, nullptr),
          "clEnqueueWriteBuffer (flag)");

    const cl_kernel h = horizontal_.get();
    const cl_int wide = ref.bytes_per_sample == 2;
    set_arg(h, 0, ref_);
    set_arg(h, 1, dist_);
    set_arg(h, 2, cl_int{width});
    set_arg(h, 3, cl_int{height});
    set_arg(h, 4, wide);
    set_arg(h, 5, hm_);
    set_arg(h, 6, hn_);
    set_arg(h, 7, hxx_);
    set_arg(h, 8, hxy_);
    set_arg(h, 9, hyy_);
    const size_t h_global[2] = {size_t(width), size_t(height)};
    check(clEnqueueNDRangeKernel(q, h, 2, nullptr, h_global, nullptr, 0, nullptr, nullptr),
          "clEnqueueNDRangeKernel (ssim_horizontal)");

    const bool raster = options_.mode == SumMode::kRaster;
    const cl_kernel t = terms_.get();
    set_arg(t, 0, hm_);
    set_arg(t, 1, hn_);
    set_arg(t, 2, hxx_);
    set_arg(t, 3, hxy_);
    set_arg(t, 4, hyy_);
    set_arg(t, 5, cl_int{width});
    set_arg(t, 6, cl_int{height});
    set_arg(t, 7, cl_ulong{mm_k1_bits_});
    set_arg(t, 8, cl_ulong{mm_k2_bits_});
    set_arg(t, 9, cl_int{raster});
    set_arg(t, 10, term_bits_);
    set_arg(t, 11, partial_);
    set_arg(t, 12, invalid_);
    const size_t t_global[2] = {round_up(size_t(width), local_[0]), round_up(size_t(height), local_[1])};
    check(clEnqueueNDRangeKernel(q, t, 2, nullptr, t_global, local_, 0, nullptr, nullptr),
          "clEnqueueNDRangeKernel (ssim_terms)");

    cl_int invalid = 0;
    check(clEnqueueReadBuffer(q, invalid_.get(), CL_TRUE, 0, sizeof invalid, &invalid, 0, nullptr, nullptr),
          "clEnqueueReadBuffer (flag)");
    if (invalid)
      throw DeviceError(fmt::format("OpenCL: the emulated SSIM term left the binary64 range on plane {}",
                                    plane_name(plane)));

    // Weights per column and row: w(x, y) = kept_weight(x) * kept_weight(y).
    if (raster) {
      const size_t n = size_t(width) * size_t(height);
      terms_host_.resize(n);
      check(clEnqueueReadBuffer(q, term_bits_.get(), CL_TRUE, 0, n * sizeof(cl_ulong),
                                terms_host_.data(), 0, nullptr, nullptr),
            "clEnqueueReadBuffer (terms)");
      // libvmaf's sequential binary64 sums, in raster order.
      double sum = 0.0, sum_w = 0.0;
      size_t i = 0;
      for (int y = 0; y < height; ++y) {
        const uint64_t wy = ssim::kept_weight(y, height);
        for (int x = 0; x < width; ++x, ++i) {
          double term;
          std::memcpy(&term, &terms_host_[i], sizeof term);
          sum += term;
          sum_w += static_cast<double>(wy * ssim::kept_weight(x, width));
        }
      }
      return sum / sum_w;
    }
    const size_t groups = t_global[0] / local_[0] * (t_global[1] / local_[1]);
    check(clEnqueueReadBuffer(q, partial_.get(), CL_TRUE, 0, groups * 2 * sizeof(cl_ulong),
                              partial_host_.data(), 0, nullptr, nullptr),
          "clEnqueueReadBuffer (sums)");
    ssim::ExactSum total;
    for (size_t g = 0; g < groups; ++g)
      total.sum_q += static_cast<ssim::int128>(
          (static_cast<ssim::uint128>(partial_host_[2 * g + 1]) << 64) | partial_host_[2 * g]);
    uint64_t wx = 0, wy = 0;
    for (int x = 0; x < width; ++x) wx += ssim::kept_weight(x, width);
    for (int y = 0; y < height; ++y) wy += ssim::kept_weight(y, height);
    total.sum_w = wx * wy;
    return total.score();
  }

  SsimOptions options_;
  VideoFormat format_;
  std::shared_ptr<OpenclDevice> device_;
  int planes_ = 1;
  std::vector<std::string> names_;
  double max_db_[3] = {};
  Handle<cl_kernel> horizontal_, terms_;
  size_t local_[2] = {16, 16};
  Handle<cl_mem> ref_, dist_, hm_, hn_, hxx_, hxy_, hyy_, term_bits_, partial_, invalid_;
  std::vector<cl_ulong> partial_host_, terms_host_;
  std::vector<uint8_t> staging_;
  uint64_t mm_k1_bits_ = 0, mm_k2_bits_ = 0;
};

}  // namespace

std::unique_ptr<Feature> make_opencl_ssim_feature(const SsimOptions& options,
                                                  const VideoFormat& format,
                                                  std::shared_ptr<OpenclDevice> device) {
  return std::make_unique<OpenclSsimFeature>(options, format, std::move(device));
}

}  // namespace exactvq::opencl
