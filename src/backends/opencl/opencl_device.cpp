#include "backends/opencl/opencl_device.h"

#include <algorithm>

#include <fmt/format.h>

#include "backends/opencl/kernel_source.h"
#include "core/error.h"
#include "metrics/adm/engine.h"
#include "metrics/float_ssim/engine.h"
#include "metrics/motion/engine.h"
#include "metrics/psnr/engine.h"
#include "metrics/ssim/engine.h"
#include "metrics/vif/engine.h"

namespace exactvq {

namespace opencl {

OpenclDevice::OpenclDevice(int index, const char* kernel_source, std::optional<Faults> faults) {
  Faults planned = faults ? std::move(*faults) : Faults::from_environment();
  const std::vector<DeviceEntry> devices = list_devices();
  if (devices.empty())
    throw DeviceError("no OpenCL device (the ICD loader found no platform with a device)");
  if (index < 0 || size_t(index) >= devices.size()) {
    std::string names;
    for (size_t i = 0; i < devices.size(); ++i)
      names += fmt::format("{}{}: {} ({})", i ? ", " : "", i, devices[i].name, devices[i].platform_name);
    throw DeviceError(fmt::format("--opencl-device {}: there {} {} OpenCL device{} ({})", index,
                                  devices.size() == 1 ? "is" : "are", devices.size(),
                                  devices.size() == 1 ? "" : "s", names));
  }
  const DeviceEntry& entry = devices[size_t(index)];
  context_ = std::make_unique<DeviceContext>(entry, std::move(planned));
  short_name_ = fmt::format("opencl device {} ({})", index, entry.name);
  ssim_program_ = context_->build(kernel_source ? kernel_source : kSsimKernelSource, "the SSIM kernels");
  description_ = fmt::format("opencl device {}: {} ({})", index, entry.name, entry.platform_name);
}

std::unique_ptr<ssim::Engine> OpenclDevice::ssim_engine(const ssim::EngineSetup& setup) {
  try {
    return ssim::make_opencl_engine(shared_from_this(), setup);
  } catch (const DeviceError& e) {
    throw DeviceError(fmt::format("{}, feature ssim: {}", short_name_, e.what()));
  }
}

std::unique_ptr<psnr::Engine> OpenclDevice::psnr_engine(const psnr::EngineSetup& setup) {
  try {
    return psnr::make_opencl_engine(shared_from_this(), setup);
  } catch (const DeviceError& e) {
    throw DeviceError(fmt::format("{}, feature psnr: {}", short_name_, e.what()));
  }
}

std::unique_ptr<vif::Engine> OpenclDevice::vif_engine(const vif::EngineSetup& setup) {
  try {
    return vif::make_opencl_engine(shared_from_this(), setup);
  } catch (const DeviceError& e) {
    throw DeviceError(fmt::format("{}, feature vif: {}", short_name_, e.what()));
  }
}

std::unique_ptr<motion::Engine> OpenclDevice::motion_engine(const motion::EngineSetup& setup) {
  try {
    return motion::make_opencl_engine(shared_from_this(), setup);
  } catch (const DeviceError& e) {
    throw DeviceError(fmt::format("{}, feature motion: {}", short_name_, e.what()));
  }
}

std::unique_ptr<adm::Engine> OpenclDevice::adm_engine(const adm::EngineSetup& setup) {
  try {
    return adm::make_opencl_engine(shared_from_this(), setup);
  } catch (const DeviceError& e) {
    throw DeviceError(fmt::format("{}, feature adm: {}", short_name_, e.what()));
  }
}

std::unique_ptr<float_ssim::Engine> OpenclDevice::float_ssim_engine(const float_ssim::EngineSetup& setup) {
  const char* name = setup.multiscale ? "float_ms_ssim" : "float_ssim";
  try {
    return float_ssim::make_opencl_engine(shared_from_this(), setup);
  } catch (const DeviceError& e) {
    throw DeviceError(fmt::format("{}, feature {}: {}", short_name_, name, e.what()));
  }
}

cl_program OpenclDevice::float_ssim_program() {
  if (!float_ssim_program_.get())
    float_ssim_program_ = context_->build(kFloatSsimKernelSource, "the float_ssim kernels");
  return float_ssim_program_.get();
}

cl_program OpenclDevice::adm_program() {
  if (!adm_program_.get()) adm_program_ = context_->build(kAdmKernelSource, "the adm kernels");
  return adm_program_.get();
}

cl_program OpenclDevice::raster_sum_program() {
  if (!raster_sum_program_.get())
    raster_sum_program_ = context_->build(kRasterSumKernelSource, "the raster-order sum kernels");
  return raster_sum_program_.get();
}

RasterSums& OpenclDevice::raster_sums() {
  if (!raster_sums_) raster_sums_ = std::make_unique<RasterSums>(*context_, raster_sum_program());
  return *raster_sums_;
}

cl_program OpenclDevice::vif_program() {
  if (!vif_program_.get()) vif_program_ = context_->build(kVifKernelSource, "the vif kernels");
  return vif_program_.get();
}

cl_program OpenclDevice::motion_program() {
  if (!motion_program_.get()) motion_program_ = context_->build(kMotionKernelSource, "the motion kernel");
  return motion_program_.get();
}

cl_program OpenclDevice::psnr_program() {
  if (!psnr_program_.get()) psnr_program_ = context_->build(kPsnrKernelSource, "the PSNR kernel");
  return psnr_program_.get();
}

DeviceFrame OpenclDevice::frame(const Picture& ref, const Picture& dist, std::optional<int64_t> index) {
  DeviceFrame f{&ref, &dist, index ? *index : unnumbered_++, index.has_value()};
  if (!current_.matches(f)) {
    current_.set(f);
    context_->faults().begin_frame(f.number);
  }
  return f;
}

std::array<cl_mem, 2> OpenclDevice::plane(const DeviceFrame& f, int p) {
  const size_t i = size_t(p);
  const PlaneView r = f.ref->plane(p), d = f.dist->plane(p);
  const size_t bytes = size_t(r.width) * size_t(r.height) * size_t(r.bytes_per_sample);
  if (!planes_held_[i].matches(f)) {
    planes_held_[i].valid = false;
    if (plane_bytes_[i] < bytes || !ref_planes_[i].get()) {
      ref_planes_[i].reset();
      dist_planes_[i].reset();
      ref_planes_[i] = context_->buffer(bytes, fmt::format("the reference plane {}", plane_name(p)));
      dist_planes_[i] = context_->buffer(bytes, fmt::format("the distorted plane {}", plane_name(p)));
      plane_bytes_[i] = bytes;
    }
    context_->write_plane(ref_planes_[i].get(), r, staging_,
                          fmt::format("upload of the reference plane {}", plane_name(p)));
    context_->write_plane(dist_planes_[i].get(), d, staging_,
                          fmt::format("upload of the distorted plane {}", plane_name(p)));
    counters_.plane_uploads += 2;
    planes_held_[i].set(f);
  }
  return {ref_planes_[i].get(), dist_planes_[i].get()};
}

std::optional<uint64_t> OpenclDevice::known_sse(const DeviceFrame& f, int p) const {
  for (const KnownSse& k : sse_)
    if (k.held.matches(f)) return k.sse[size_t(p)];
  return std::nullopt;
}

void OpenclDevice::keep_sse(const DeviceFrame& f, int p, uint64_t sse) {
  if (!f.keyed) return;
  constexpr size_t kKeptFrames = 64;
  auto it = std::find_if(sse_.begin(), sse_.end(), [&](const KnownSse& k) { return k.held.matches(f); });
  if (it == sse_.end()) {
    if (sse_.size() == kKeptFrames) sse_.pop_front();
    sse_.emplace_back();
    sse_.back().held.set(f);
    it = sse_.end() - 1;
  }
  it->sse[size_t(p)] = sse;
}

SharedSsim* OpenclDevice::ssim_for(int p) const {
  for (SharedSsim* s : ssim_)
    if (s->covers(p)) return s;
  return nullptr;
}

void OpenclDevice::forget() {
  current_ = Held{};
  for (Held& h : planes_held_) h = Held{};
  sse_.clear();
}

void OpenclDevice::add_ssim(SharedSsim* s) {
  forget();
  ssim_.push_back(s);
}

void OpenclDevice::remove_ssim(SharedSsim* s) {
  forget();
  ssim_.erase(std::remove(ssim_.begin(), ssim_.end(), s), ssim_.end());
}

void OpenclDevice::add_sse_user(int planes) {
  forget();
  for (int p = 0; p < planes; ++p) ++sse_users_[size_t(p)];
}

void OpenclDevice::remove_sse_user(int planes) {
  forget();
  for (int p = 0; p < planes; ++p) --sse_users_[size_t(p)];
}

std::string OpenclDevice::where(const DeviceFrame& f) const {
  return fmt::format("{}, frame {}", short_name_, f.number);
}

}  // namespace opencl

std::shared_ptr<Device> open_opencl_device(const DeviceOptions& o, const VideoFormat&) {
  return std::make_shared<opencl::OpenclDevice>(o.opencl_device);
}

int count_opencl_devices() { return int(opencl::list_devices().size()); }

}  // namespace exactvq
