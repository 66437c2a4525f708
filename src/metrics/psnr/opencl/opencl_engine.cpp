// The psnr engine on an OpenCL device: each plane's sum of squared errors, from
// the SSIM pass over the same frame where one is due, else from the psnr kernel.

#include <algorithm>
#include <array>
#include <optional>
#include <string>

#include <fmt/format.h>

#include "backends/opencl/device_engine.h"
#include "core/error.h"
#include "metrics/psnr/engine.h"
#include "metrics/ssim/opencl/fused_sse.h"

namespace exactvq::psnr::opencl {

using namespace exactvq::opencl;  // the backend's plumbing that every engine uses
using ssim::opencl::FusedSse;

extern const char* const kPsnrKernelSource;  // psnr_kernels.cl, embedded

namespace {

constexpr size_t kMaxGroup = 256;  // PSNR_GROUP in psnr_kernels.cl
constexpr size_t kMaxGroups = 64;  // work-groups per plane: enough to fill a device

class OpenclEngine final : public DeviceEngine<Engine> {
 public:
  OpenclEngine(const EngineSetup& s, std::shared_ptr<OpenclDevice> device)
      : DeviceEngine(std::move(device), "psnr", size_t(s.planes)),
        planes_(s.planes),
        fused_(this->device().state<FusedSse>()) {
    DeviceContext& dc = context();
    sse_ = dc.kernel(this->device().program(kPsnrKernelSource, "the PSNR kernel"), "psnr_sse");
    group_ = work_group_size(sse_.get(), dc.device(), kMaxGroup);
    partial_ = dc.buffer(kMaxGroups * sizeof(cl_ulong), "work-group sums");
    fused_.add_user(planes_);
  }

  ~OpenclEngine() override { fused_.remove_user(planes_); }

 private:
  void score_frame(const DeviceFrame& f, std::span<uint64_t> out) override {
    for (size_t p = 0; p < out.size(); ++p) out[p] = plane_sse(f, int(p));
  }

  // The plane's SSE: computed by an SSIM pass over the same frame where one is
  // due (asking the ssim feature to score the frame early when psnr comes first),
  // else by the psnr kernel on the frame the device holds.
  uint64_t plane_sse(const DeviceFrame& f, int p) {
    if (f.keyed) {
      if (auto known = fused_.known(f, p)) return *known;
      if (FusedSse::Scorer* s = fused_.scorer_for(p); s && s->yet_to_score(f)) {
        s->score_early(f);
        if (auto known = fused_.known(f, p)) return *known;
      }
    }
    DeviceContext& dc = context();
    const std::array<cl_mem, 2> planes = device().plane(f, p);
    const PlaneView r = f.ref->plane(p);
    const cl_ulong count = cl_ulong(r.width) * cl_ulong(r.height);
    const size_t groups = std::clamp<size_t>((count + group_ - 1) / group_, 1, kMaxGroups);
    const cl_kernel k = sse_.get();
    set_args(k, planes[0], planes[1], count, cl_int{r.bytes_per_sample == 2}, partial_);
    const size_t global = groups * group_;
    const std::string pn = plane_name(p);
    dc.run(k, 1, &global, &group_, "psnr_sse, plane " + pn);
    cl_ulong partial[kMaxGroups];
    dc.read(partial_.get(), groups * sizeof(cl_ulong), partial, "work-group sums, plane " + pn);
    uint64_t sum = 0;
    for (size_t g = 0; g < groups; ++g) sum += partial[g];
    fused_.keep(f, p, sum);
    ++fused_.counters().separate;
    return sum;
  }

  int planes_ = 1;
  FusedSse& fused_;  // the device's
  Handle<cl_kernel> sse_;
  size_t group_ = 1;
  Handle<cl_mem> partial_;
};

}  // namespace

std::unique_ptr<Engine> make_engine(Device& device, const EngineSetup& setup) {
  return std::make_unique<OpenclEngine>(setup, OpenclDevice::of(device));
}

}  // namespace exactvq::psnr::opencl
