#include "backends/opencl/opencl_device.h"

#include <algorithm>

#include <fmt/format.h>

#include "backends/opencl/kernel_source.h"
#include "core/error.h"

namespace exactvq {

namespace opencl {

namespace {

// Built when a device opens: checks that the device's compiler works.
constexpr const char* kProbeSource = "__kernel void exactvq_probe(__global int* p) { p[0] = 0; }";

}  // namespace

OpenclDevice::OpenclDevice(int index, const char* source_override, std::optional<Faults> faults)
    : source_override_(source_override) {
  Faults planned = faults ? std::move(*faults) : Faults::from_environment();
  const std::vector<DeviceEntry> devices = list_devices();
  if (devices.empty())
    throw DeviceError("no OpenCL device (the ICD loader found no platform with a device)");
  if (index < 0 || size_t(index) >= devices.size()) {
    std::string names;
    for (size_t i = 0; i < devices.size(); ++i)
      names +=
          fmt::format("{}{}: {} ({})", i ? ", " : "", i, devices[i].name, devices[i].platform_name);
    throw DeviceError(fmt::format("--opencl-device {}: there {} {} OpenCL device{} ({})", index,
                                  devices.size() == 1 ? "is" : "are", devices.size(),
                                  devices.size() == 1 ? "" : "s", names));
  }
  const DeviceEntry& entry = devices[size_t(index)];
  context_ = std::make_unique<DeviceContext>(entry, std::move(planned));
  short_name_ = fmt::format("opencl device {} ({})", index, entry.name);
  if (source_override_)
    programs_.push_back(
        {nullptr, {}, context_->build(source_override_, "the kernel source given")});
  else
    context_->build(kProbeSource, "a probe kernel");
  description_ = fmt::format("opencl device {}: {} ({})", index, entry.name, entry.platform_name);
}

std::string OpenclDevice::failure_in(std::string_view feature, std::string_view message) const {
  return fmt::format("{}, feature {}: {}", short_name_, feature, message);
}

std::shared_ptr<OpenclDevice> OpenclDevice::of(Device& device) {
  if (device.kind() != DeviceKind::kOpenCL)
    throw DeviceError(fmt::format("{} is not an OpenCL device", device.description()));
  return static_cast<OpenclDevice&>(device).shared_from_this();
}

cl_program OpenclDevice::program(const char* source, std::string_view what,
                                 std::string_view options) {
  if (source_override_) return programs_.front().handle.get();
  for (const Program& p : programs_)
    if (p.source == source && p.options == options) return p.handle.get();
  Handle<cl_program> built = context_->build(source, std::string(what), std::string(options));
  programs_.push_back({source, std::string(options), std::move(built)});
  return programs_.back().handle.get();
}

cl_program OpenclDevice::raster_sum_program() {
  return program(kRasterSumKernelSource, "the raster-order sum kernels");
}

RasterSums& OpenclDevice::raster_sums() {
  if (!raster_sums_) raster_sums_ = std::make_unique<RasterSums>(*context_, raster_sum_program());
  return *raster_sums_;
}

DeviceFrame OpenclDevice::frame(const Picture& ref, const Picture& dist,
                                std::optional<int64_t> index) {
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
      ref_planes_[i] =
          context_->buffer(bytes, fmt::format("the reference plane {}", plane_name(p)));
      dist_planes_[i] =
          context_->buffer(bytes, fmt::format("the distorted plane {}", plane_name(p)));
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

void OpenclDevice::forget() {
  current_ = Held{};
  for (Held& h : planes_held_) h = Held{};
  for (const auto& state : states_) state->forget();
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
