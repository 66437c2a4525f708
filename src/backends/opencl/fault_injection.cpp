#include "backends/opencl/fault_injection.h"

#include <cstdlib>
#include <optional>
#include <string_view>

#include <fmt/format.h>

#include "core/error.h"
#include "core/fault_spec.h"

namespace exactvq::opencl {

namespace {
constexpr const char* kVariable = "EXACTVQ_OPENCL_FAULT";
}  // namespace

Faults Faults::parse(const char* value) {
  Faults f;
  if (value == nullptr || *value == '\0') return f;
  f.spec_ = value;
  const std::string_view v(value);
  const std::optional<FaultSpec> spec = parse_fault_spec(v);
  const bool numbered = spec && spec->numbered;
  if (spec && spec->name == "build" && spec->n >= 1)
    f.kind_ = Kind::kBuild;
  else if (spec && spec->name == "alloc" && spec->n >= 1)
    f.kind_ = Kind::kAlloc;
  else if (numbered && spec->name == "enqueue")
    f.kind_ = Kind::kEnqueue;
  else if (numbered && spec->name == "lost")
    f.kind_ = Kind::kLost;
  else
    throw DeviceError(fmt::format(
        "{}={}: expected build[@N] or alloc[@N] (the N-th build or allocation, N >= 1), or "
        "enqueue@N or lost@N (N a frame number)",
        kVariable, v));
  f.at_ = spec->n;
  return f;
}

Faults Faults::from_environment() { return parse(std::getenv(kVariable)); }

std::string Faults::note() const {
  return any() ? fmt::format(" (injected by {}={})", kVariable, spec_) : std::string();
}

bool Faults::fail_build() { return kind_ == Kind::kBuild && ++builds_ == at_; }

cl_int Faults::before_alloc() {
  if (lost_) return CL_DEVICE_NOT_AVAILABLE;
  if (kind_ == Kind::kAlloc && ++allocations_ == at_) return CL_MEM_OBJECT_ALLOCATION_FAILURE;
  return CL_SUCCESS;
}

cl_int Faults::before_enqueue() const {
  if (lost_) return CL_DEVICE_NOT_AVAILABLE;
  if (kind_ == Kind::kEnqueue && frame_ == at_) return CL_OUT_OF_RESOURCES;
  return CL_SUCCESS;
}

cl_int Faults::before_transfer() const { return lost_ ? CL_DEVICE_NOT_AVAILABLE : CL_SUCCESS; }

void Faults::begin_frame(int64_t frame) {
  frame_ = frame;
  if (kind_ == Kind::kLost && frame >= at_ && !lost_) {
    lost_ = true;
    lost_at_ = frame;
  }
}

}  // namespace exactvq::opencl
