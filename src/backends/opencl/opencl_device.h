// The OpenCL backend: one device chosen by --opencl-device N (an index over
// every platform's devices), on which the metrics' OpenCL engines
// (metrics/<metric>/opencl/) run, their programs built on first use from the
// source each embeds and kept by the device.
//
// The engines of a run share the device (FeatureContext::device) and through it
// each frame pair: the device uploads a plane of a pair once, whichever engine
// asks first. Engines that share results of their own (a metric computing
// another's values on the way) keep them in a DeviceState of the device, which
// the device forgets with its frames.
//
// A pair is recognised by FramePair::index (unique and increasing in a run)
// together with its pictures' addresses; a loose pair always uploads. One device
// object serves one run at a time; making or destroying an engine on it forgets
// what it holds. Nothing is shared between device objects, so one device may be
// opened several times in a process.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "backends/device.h"
#include "core/error.h"
#include "backends/opencl/fault_injection.h"
#include "backends/opencl/opencl_runtime.h"
#include "backends/opencl/raster_sum.h"

namespace exactvq::opencl {

// A frame pair being scored on the device.
struct DeviceFrame {
  const Picture* ref = nullptr;
  const Picture* dist = nullptr;
  int64_t number = 0;  // FramePair::index, or the device's count for unnumbered frames
  bool keyed = false;  // number is the run's FramePair::index: features share the frame
};

// Which numbered frame something held belongs to (nothing for unnumbered frames).
struct HeldFrame {
  bool valid = false;
  int64_t number = 0;
  const Picture* ref = nullptr;
  const Picture* dist = nullptr;
  bool matches(const DeviceFrame& f) const {
    return valid && f.keyed && number == f.number && ref == f.ref && dist == f.dist;
  }
  void set(const DeviceFrame& f) { *this = HeldFrame{f.keyed, f.number, f.ref, f.dist}; }
};

// Something the engines of a run keep on a device beside its frames, which the
// device forgets with them (after a failure, or when the engines change).
class DeviceState {
 public:
  virtual ~DeviceState() = default;
  virtual void forget() = 0;
};

class OpenclDevice final : public Device, public std::enable_shared_from_this<OpenclDevice> {
 public:
  // Opens device `index` with `faults` planned (fault_injection.h; by default
  // those of EXACTVQ_OPENCL_FAULT), and builds a probe program, so that a device
  // that cannot build fails here rather than in the first frame. With
  // `source_override` (tests: a broken or an empty source), that source is built
  // instead, and every program the engines ask for is that one. Throws
  // DeviceError on a missing device, a failed build or a bad EXACTVQ_OPENCL_FAULT.
  explicit OpenclDevice(int index, const char* source_override = nullptr,
                        std::optional<Faults> faults = std::nullopt);

  std::string description() const override { return description_; }
  DeviceKind kind() const override { return DeviceKind::kOpenCL; }
  // "opencl device 0 (NAME), feature F: message".
  std::string failure_in(std::string_view feature, std::string_view message) const override;
  // `device`, which is of kind kOpenCL (a metric's OpenCL engine factory).
  static std::shared_ptr<OpenclDevice> of(Device& device);

  DeviceContext& context() { return *context_; }
  // The program of the OpenCL C `source` (one of the embedded sources, which
  // live as long as the process) built with `options`, on first use: runs without a
  // metric do not pay for its compilation. `what` names it in errors ("the vif kernels").
  cl_program program(const char* source, std::string_view what, std::string_view options = {});
  // The raster-order sum's kernels (raster_sum.h), made on first use, and their program.
  RasterSums& raster_sums();
  cl_program raster_sum_program();

  // The engines' DeviceState of type T (one per device), made on first use.
  template <typename T>
  T& state() {
    for (const auto& s : states_)
      if (auto* t = dynamic_cast<T*>(s.get())) return *t;
    states_.push_back(std::make_unique<T>());
    return static_cast<T&>(*states_.back());
  }

  // --- Shared frames, for the features ---
  // The pair as the device knows it: numbered pairs (`index` given) may be held
  // already; a pair without a number is a new frame each time.
  DeviceFrame frame(const Picture& ref, const Picture& dist, std::optional<int64_t> index);
  // Scores one pair by `score(frame)` on its frame() (numbered unless loose). On a
  // DeviceError the device forgets what it holds, and the error, once the frame is
  // known, names the device, the frame and `feature`.
  template <typename Score>
  void score_pair(const FramePair& pair, std::string_view feature, Score&& score) {
    DeviceFrame f;
    try {
      f = frame(*pair.ref, *pair.dist,
                pair.loose() ? std::nullopt : std::optional<int64_t>(pair.index));
      score(f);
    } catch (const DeviceError& e) {
      forget();
      if (!f.ref) throw;
      throw DeviceError(fmt::format("{}, {}: {}", where(f), feature, e.what()));
    }
  }
  // Plane p of the frame on the device (reference, distorted), tightly packed;
  // uploaded unless the device holds them already.
  std::array<cl_mem, 2> plane(const DeviceFrame& frame, int p);
  // Forgets every frame and state held: after a failure, or when the engines change.
  void forget();
  // Counts of what the device did, for the tests of sharing.
  struct Counters {
    int64_t plane_uploads = 0;  // planes written (a pair's reference and distorted: 2)
  };
  const Counters& counters() const { return counters_; }
  Counters& counters() { return counters_; }

  // A prefix for errors: "opencl device 0 (NAME), frame 3".
  std::string where(const DeviceFrame& frame) const;

 private:
  using Held = HeldFrame;

  std::unique_ptr<DeviceContext> context_;
  struct Program {
    const char* source;
    std::string options;
    Handle<cl_program> handle;
  };
  std::vector<Program> programs_;
  const char* source_override_ = nullptr;
  std::unique_ptr<RasterSums> raster_sums_;
  std::string description_, short_name_;
  // Frames: the last one begun and the planes held.
  Held current_;
  int64_t unnumbered_ = 0;
  std::array<Held, 3> planes_held_;
  std::array<Handle<cl_mem>, 3> ref_planes_, dist_planes_;
  std::array<size_t, 3> plane_bytes_ = {};
  std::vector<uint8_t> staging_;
  std::vector<std::unique_ptr<DeviceState>> states_;
  Counters counters_;
};

}  // namespace exactvq::opencl
