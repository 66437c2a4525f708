#include "backends/cuda/fault_injection.h"

#include <cstdlib>
#include <optional>
#include <string_view>

#include <fmt/format.h>

#include "core/error.h"
#include "core/fault_spec.h"

namespace exactvq::cuda {

namespace {
thread_local Faults* t_current = nullptr;
constexpr const char* kVariable = "EXACTVQ_CUDA_FAULT";
}  // namespace

Faults Faults::parse(const char* value) {
  Faults f;
  if (value == nullptr || *value == '\0') return f;
  f.spec_ = value;
  const std::string_view v(value);
  const std::optional<FaultSpec> spec = parse_fault_spec(v);
  const bool numbered = spec && spec->numbered;
  if (spec && !numbered && spec->name == "open")
    f.kind_ = Kind::kOpen;
  else if (numbered && spec->name == "alloc" && spec->n >= 1)
    f.kind_ = Kind::kAlloc;
  else if (numbered && spec->name == "launch")
    f.kind_ = Kind::kLaunch;
  else if (numbered && spec->name == "lost")
    f.kind_ = Kind::kLost;
  else
    throw DeviceError(
        fmt::format("{}={}: expected open, alloc@N (N >= 1), launch@N or lost@N", kVariable, v));
  if (numbered) f.at_ = spec->n;
  return f;
}

Faults Faults::from_environment() { return parse(std::getenv(kVariable)); }

void Faults::at_open(int ordinal) const {
  if (kind_ == Kind::kOpen)
    throw DeviceError(fmt::format(
        "CUDA device {} cannot be opened: cudaErrorDevicesUnavailable (injected by {}={})", ordinal,
        kVariable, spec_));
}

void Faults::before_alloc(size_t bytes) {
  if (kind_ != Kind::kAlloc) return;
  if (++allocations_ == at_)
    throw DeviceError(fmt::format(
        "CUDA cudaMalloc of {} bytes: cudaErrorMemoryAllocation (out of memory; injected by {}={})",
        bytes, kVariable, spec_));
}

void Faults::before_launch(int ordinal, int64_t first_frame, int frames, const char* what) const {
  check_alive(ordinal);
  if (kind_ == Kind::kLaunch && first_frame <= at_ && at_ < first_frame + frames)
    throw DeviceError(fmt::format(
        "CUDA {} for frame {} on device {}: cudaErrorLaunchFailure (unspecified launch failure; "
        "injected by {}={})",
        what, at_, ordinal, kVariable, spec_));
}

void Faults::before_frame(int ordinal, int64_t frame) {
  check_alive(ordinal);
  if (kind_ == Kind::kLost && frame >= at_) {
    lost_ = true;
    lost_at_ = frame;
    check_alive(ordinal);
  }
}

void Faults::check_alive(int ordinal) const {
  if (lost_)
    throw DeviceError(fmt::format(
        "CUDA device {} was lost before frame {}: cudaErrorDevicesUnavailable (injected by {}={})",
        ordinal, lost_at_, kVariable, spec_));
}

FaultScope::FaultScope(Faults* faults) : previous_(t_current) { t_current = faults; }
FaultScope::~FaultScope() { t_current = previous_; }

Faults* current_faults() { return t_current; }

}  // namespace exactvq::cuda
