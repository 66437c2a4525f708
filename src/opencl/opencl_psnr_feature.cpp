#include "opencl/opencl_psnr_feature.h"

#include <algorithm>

#include "opencl/opencl_device.h"

namespace exactvq::opencl {

namespace {

constexpr size_t kMaxGroup = 256;  // PSNR_GROUP in psnr_kernels.cl
constexpr size_t kMaxGroups = 64;  // work-groups per plane: enough to fill a device

class OpenclPsnrFeature final : public Feature {
 public:
  OpenclPsnrFeature(const PsnrOptions& o, const VideoFormat& format, std::shared_ptr<OpenclDevice> device)
      : scorer_(o, format), device_(std::move(device)) {
    const DeviceContext& dc = device_->context();
    sse_ = dc.kernel(device_->psnr_program(), "psnr_sse");
    group_ = work_group_size(sse_.get(), dc.device(), kMaxGroup);
    const size_t bytes = size_t(format.plane_width(0)) * size_t(format.plane_height(0)) *
                         size_t(format.bytes_per_sample());
    ref_ = dc.buffer(bytes, "the reference plane");
    dist_ = dc.buffer(bytes, "the distorted plane");
    partial_ = dc.buffer(kMaxGroups * sizeof(cl_ulong), "work-group sums");
  }

  const std::vector<std::string>& outputs() const override { return scorer_.outputs(); }

  void extract(const Picture& ref, const Picture& dist, std::span<double> out) override {
    uint64_t sse[3] = {};
    for (int p = 0; p < scorer_.planes(); ++p) sse[p] = plane_sse(ref.plane(p), dist.plane(p));
    scorer_.score_frame(sse, out);
  }

  std::vector<std::pair<std::string, double>> aggregates() const override {
    return scorer_.aggregates();
  }
  std::vector<AggregateWord> aggregate_state() const override { return scorer_.state(); }
  std::vector<std::pair<std::string, double>> aggregates_of(
      std::span<const AggregateWord> state) const override {
    return scorer_.aggregates_of(state);
  }

 private:
  uint64_t plane_sse(const PlaneView& ref, const PlaneView& dist) {
    const cl_command_queue q = device_->context().queue();
    write_plane(q, ref_.get(), ref, staging_);
    write_plane(q, dist_.get(), dist, staging_);
    const cl_ulong count = cl_ulong(ref.width) * cl_ulong(ref.height);
    const size_t groups = std::clamp<size_t>((count + group_ - 1) / group_, 1, kMaxGroups);
    const cl_kernel k = sse_.get();
    set_arg(k, 0, ref_);
    set_arg(k, 1, dist_);
    set_arg(k, 2, count);
    set_arg(k, 3, cl_int{ref.bytes_per_sample == 2});
    set_arg(k, 4, partial_);
    const size_t global = groups * group_;
    check(clEnqueueNDRangeKernel(q, k, 1, nullptr, &global, &group_, 0, nullptr, nullptr),
          "clEnqueueNDRangeKernel (psnr_sse)");
    cl_ulong partial[kMaxGroups];
    check(clEnqueueReadBuffer(q, partial_.get(), CL_TRUE, 0, groups * sizeof(cl_ulong), partial, 0,
                              nullptr, nullptr),
          "clEnqueueReadBuffer (sums)");
    uint64_t sum = 0;
    for (size_t g = 0; g < groups; ++g) sum += partial[g];
    return sum;
  }

  PsnrScorer scorer_;
  std::shared_ptr<OpenclDevice> device_;
  Handle<cl_kernel> sse_;
  size_t group_ = 1;
  Handle<cl_mem> ref_, dist_, partial_;
  std::vector<uint8_t> staging_;
};

}  // namespace

std::unique_ptr<Feature> make_opencl_psnr_feature(const PsnrOptions& options,
                                                  const VideoFormat& format,
                                                  std::shared_ptr<OpenclDevice> device) {
  return std::make_unique<OpenclPsnrFeature>(options, format, std::move(device));
}

}  // namespace exactvq::opencl
