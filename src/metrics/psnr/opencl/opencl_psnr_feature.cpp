#include "metrics/psnr/opencl/opencl_psnr_feature.h"

#include <algorithm>
#include <array>
#include <optional>
#include <string>

#include <fmt/format.h>

#include "core/error.h"

#include "backends/opencl/opencl_device.h"

namespace exactvq::opencl {

namespace {

constexpr size_t kMaxGroup = 256;  // PSNR_GROUP in psnr_kernels.cl
constexpr size_t kMaxGroups = 64;  // work-groups per plane: enough to fill a device

class OpenclPsnrFeature final : public PsnrScoringFeature {
 public:
  OpenclPsnrFeature(const PsnrOptions& o, const VideoFormat& format, std::shared_ptr<OpenclDevice> device)
      : PsnrScoringFeature(o, format), device_(std::move(device)) {
    DeviceContext& dc = device_->context();
    sse_ = dc.kernel(device_->psnr_program(), "psnr_sse");
    group_ = work_group_size(sse_.get(), dc.device(), kMaxGroup);
    partial_ = dc.buffer(kMaxGroups * sizeof(cl_ulong), "work-group sums");
    device_->add_sse_user(scorer_.planes());
  }

  ~OpenclPsnrFeature() override { device_->remove_sse_user(scorer_.planes()); }

  void extract(const Picture& ref, const Picture& dist, std::span<double> out) override {
    score(ref, dist, std::nullopt, out);
  }

  void extract_batch(std::span<const FramePair> frames, std::span<double> out) override {
    const size_t n = scorer_.outputs().size();
    for (size_t i = 0; i < frames.size(); ++i)
      score(*frames[i].ref, *frames[i].dist, frames[i].index, out.subspan(i * n, n));
  }

 private:
  void score(const Picture& ref, const Picture& dist, std::optional<int64_t> index, std::span<double> out) {
    DeviceFrame f;
    uint64_t sse[3] = {};
    try {
      f = device_->frame(ref, dist, index);
      for (int p = 0; p < scorer_.planes(); ++p) sse[p] = plane_sse(f, p);
    } catch (const DeviceError& e) {
      device_->forget();
      if (!f.ref) throw;
      throw DeviceError(fmt::format("{}, psnr: {}", device_->where(f), e.what()));
    }
    scorer_.score_frame(sse, out);  // only once every plane is known: apsnr adds the frame
  }

  // The plane's SSE: computed by an SSIM pass over the same frame where one is
  // due (asking the ssim feature to score the frame early when psnr comes first),
  // else by the psnr kernel on the frame the device holds.
  uint64_t plane_sse(const DeviceFrame& f, int p) {
    if (f.keyed) {
      if (auto known = device_->known_sse(f, p)) return *known;
      if (SharedSsim* s = device_->ssim_for(p); s && s->yet_to_score(f)) {
        s->score_early(f);
        if (auto known = device_->known_sse(f, p)) return *known;
      }
    }
    DeviceContext& dc = device_->context();
    const std::array<cl_mem, 2> planes = device_->plane(f, p);
    const PlaneView r = f.ref->plane(p);
    const cl_ulong count = cl_ulong(r.width) * cl_ulong(r.height);
    const size_t groups = std::clamp<size_t>((count + group_ - 1) / group_, 1, kMaxGroups);
    const cl_kernel k = sse_.get();
    set_arg(k, 0, planes[0]);
    set_arg(k, 1, planes[1]);
    set_arg(k, 2, count);
    set_arg(k, 3, cl_int{r.bytes_per_sample == 2});
    set_arg(k, 4, partial_);
    const size_t global = groups * group_;
    const std::string pn = plane_name(p);
    dc.run(k, 1, &global, &group_, "psnr_sse, plane " + pn);
    cl_ulong partial[kMaxGroups];
    dc.read(partial_.get(), groups * sizeof(cl_ulong), partial, "work-group sums, plane " + pn);
    uint64_t sum = 0;
    for (size_t g = 0; g < groups; ++g) sum += partial[g];
    device_->keep_sse(f, p, sum);
    ++device_->counters().separate_sse;
    return sum;
  }

  std::shared_ptr<OpenclDevice> device_;
  Handle<cl_kernel> sse_;
  size_t group_ = 1;
  Handle<cl_mem> partial_;
};

}  // namespace

std::unique_ptr<Feature> make_opencl_psnr_feature(const PsnrOptions& options,
                                                  const VideoFormat& format,
                                                  std::shared_ptr<OpenclDevice> device) {
  return std::make_unique<OpenclPsnrFeature>(options, format, std::move(device));
}

}  // namespace exactvq::opencl
