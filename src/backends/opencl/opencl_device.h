// The OpenCL backend: one device chosen by --opencl-device N (an index over
// every platform's devices), making the engines of the metrics it computes
// (metrics/<metric>/opencl/): ssim, psnr, vif, motion, adm and float_ssim (with
// float_ms_ssim), with the SSIM program
// built once when it opens and the others on first use.
//
// The engines of a run share the device (FeatureContext::device) and through it
// each frame pair: the device uploads a plane of a pair once, whichever engine
// asks first, and keeps each plane's sum of squared errors once it is known.
// Where the psnr engine needs the SSE of a plane that the ssim engine also
// scores, the SSIM pass computes it on the way (the samples are read once); when
// psnr comes first in the run, it asks the ssim engine to score that frame
// early, so the order of the features does not matter.
//
// A pair is recognised by FramePair::index (unique and increasing in a run)
// together with its pictures' addresses; a loose pair always uploads. One device
// object serves one run at a time; making or destroying an engine on it forgets
// what it holds. Nothing is shared between device objects, so one device may be
// opened several times in a process.
#pragma once

#include <array>
#include <cstdint>
#include <deque>
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

// The ssim engine on the device, as the device's other engines see it.
class SharedSsim {
 public:
  virtual ~SharedSsim() = default;
  // Whether the engine scores plane p.
  virtual bool covers(int plane) const = 0;
  // Whether the engine has yet to score `frame` (a numbered one): it has not
  // scored it early, nor a frame at or after its number.
  virtual bool yet_to_score(const DeviceFrame& frame) const = 0;
  // Scores `frame` now (computing the SSE of its planes where a psnr engine
  // wants them), keeping the sums until the engine is asked for that frame.
  virtual void score_early(const DeviceFrame& frame) = 0;
};

class OpenclDevice final : public Device, public std::enable_shared_from_this<OpenclDevice> {
 public:
  // Opens device `index` and builds `kernel_source` (the embedded one by default;
  // tests pass broken ones) with `faults` planned (fault_injection.h; by default
  // those of EXACTVQ_OPENCL_FAULT). Throws DeviceError on a missing device, a
  // failed build or a bad EXACTVQ_OPENCL_FAULT.
  explicit OpenclDevice(int index, const char* kernel_source = nullptr,
                        std::optional<Faults> faults = std::nullopt);

  std::string description() const override { return description_; }
  // The engines; a failure to make one names the device and the feature.
  std::unique_ptr<ssim::Engine> ssim_engine(const ssim::EngineSetup& setup) override;
  std::unique_ptr<psnr::Engine> psnr_engine(const psnr::EngineSetup& setup) override;
  std::unique_ptr<vif::Engine> vif_engine(const vif::EngineSetup& setup) override;
  std::unique_ptr<motion::Engine> motion_engine(const motion::EngineSetup& setup) override;
  std::unique_ptr<adm::Engine> adm_engine(const adm::EngineSetup& setup) override;
  std::unique_ptr<float_ssim::Engine> float_ssim_engine(const float_ssim::EngineSetup& setup) override;

  DeviceContext& context() { return *context_; }
  cl_program ssim_program() const { return ssim_program_.get(); }
  // Built on first use: runs without the metric do not pay for its compilation.
  cl_program psnr_program();
  cl_program vif_program();
  cl_program motion_program();
  cl_program adm_program();
  cl_program raster_sum_program();
  cl_program float_ssim_program();
  // The raster-order sum's kernels (raster_sum.h), made on first use.
  RasterSums& raster_sums();

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
      f = frame(*pair.ref, *pair.dist, pair.loose() ? std::nullopt : std::optional<int64_t>(pair.index));
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
  // SSE of plane p of a frame, once a feature has computed it.
  std::optional<uint64_t> known_sse(const DeviceFrame& frame, int p) const;
  void keep_sse(const DeviceFrame& frame, int p, uint64_t sse);
  // Whether a psnr engine on this device scores plane p.
  bool sse_wanted(int p) const { return sse_users_[size_t(p)] > 0; }
  // The ssim engine scoring plane p, or null.
  SharedSsim* ssim_for(int p) const;
  // Forgets every frame and SSE held: after a failure, or when the engines change.
  void forget();
  // Counts of what the device did, for the tests of sharing.
  struct Counters {
    int64_t plane_uploads = 0;  // planes written (a pair's reference and distorted: 2)
    int64_t fused_sse = 0;      // plane SSEs computed by the SSIM pass
    int64_t separate_sse = 0;   // plane SSEs computed by the psnr kernel
  };
  const Counters& counters() const { return counters_; }
  Counters& counters() { return counters_; }

  // Engines register while they live.
  void add_ssim(SharedSsim* s);
  void remove_ssim(SharedSsim* s);
  void add_sse_user(int planes);
  void remove_sse_user(int planes);
  // A prefix for errors: "opencl device 0 (NAME), frame 3".
  std::string where(const DeviceFrame& frame) const;

 private:
  using Held = HeldFrame;

  std::unique_ptr<DeviceContext> context_;
  Handle<cl_program> ssim_program_;
  Handle<cl_program> psnr_program_;
  Handle<cl_program> vif_program_;
  Handle<cl_program> motion_program_;
  Handle<cl_program> adm_program_;
  Handle<cl_program> raster_sum_program_;
  Handle<cl_program> float_ssim_program_;
  std::unique_ptr<RasterSums> raster_sums_;
  std::string description_, short_name_;
  // Frames: the last one begun, the planes held and their known SSE.
  Held current_;
  int64_t unnumbered_ = 0;
  std::array<Held, 3> planes_held_;
  std::array<Handle<cl_mem>, 3> ref_planes_, dist_planes_;
  std::array<size_t, 3> plane_bytes_ = {};
  // Known SSE of recent frames (a batch's worth is enough; more are dropped).
  struct KnownSse {
    Held held;
    std::array<std::optional<uint64_t>, 3> sse;
  };
  std::deque<KnownSse> sse_;
  std::vector<uint8_t> staging_;
  // Registered engines.
  std::vector<SharedSsim*> ssim_;
  std::array<int, 3> sse_users_ = {};
  Counters counters_;
};

}  // namespace exactvq::opencl
