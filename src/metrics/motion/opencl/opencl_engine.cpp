// The motion engine on an OpenCL device: each frame's SAD on the device
// (motion_kernels.cl), on the frame's luma plane as the device holds it for
// every engine of the run. The reference pictures a frame compares with stay on
// the device: a ring of the last frame_distance() of them, refilled in run
// order (a copy on the device after each frame); hold() uploads given ones.
#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "backends/opencl/device_engine.h"
#include "metrics/motion/engine.h"

namespace exactvq::motion::opencl {

using namespace exactvq::opencl;  // the backend's plumbing that every engine uses

extern const char* const kMotionKernelSource;  // motion_kernels.cl, embedded

namespace {

constexpr size_t kTileW = 32;    // MOTION_TILE_W in motion_kernels.cl
constexpr size_t kMaxTileH = 8;  // MOTION_MAX_TILE_H

class OpenclEngine final : public DeviceEngine<Engine> {
 public:
  OpenclEngine(const EngineSetup& s, std::shared_ptr<OpenclDevice> device)
      : DeviceEngine(std::move(device), "motion"), setup_(s), distance_(frame_distance(s.options)) {
    const VideoFormat& f = s.format;
    DeviceContext& dc = context();
    sad_ =
        dc.kernel(this->device().program(kMotionKernelSource, "the motion kernel"), "motion_sad");
    tile_h_ = group_rows(work_group_size(sad_.get(), dc.device(), kTileW * kMaxTileH), kTileW,
                         "the motion kernel");
    plane_bytes_ = size_t(f.width) * size_t(f.height) * (f.bitdepth > 8 ? 2 : 1);
    for (int i = 0; i < distance_; ++i)
      ring_.push_back(dc.buffer(plane_bytes_, "a reference picture motion compares with"));
    groups_ =
        ((size_t(f.width) + kTileW - 1) / kTileW) * ((size_t(f.height) + tile_h_ - 1) / tile_h_);
    partial_words_.resize(groups_);
    partial_ = dc.buffer(groups_ * sizeof(cl_ulong), "motion's work-group sums");
  }

  void hold(std::span<const FramePair> before) override {
    DeviceContext& dc = context();
    held_ = 0;
    oldest_ = 0;
    const size_t first = before.size() > size_t(distance_) ? before.size() - size_t(distance_) : 0;
    for (size_t i = first; i < before.size(); ++i) {
      dc.write_plane(ring_[size_t(held_)].get(), before[i].ref->plane(0), staging_,
                     "upload of a picture motion compares with");
      ++held_;
    }
  }

 private:
  // The SAD against the picture distance_ frames back (0 without one), then
  // this frame's reference picture into the ring in place of the oldest.
  void score_frame(const DeviceFrame& f, std::span<uint64_t> out) override {
    DeviceContext& dc = context();
    const cl_mem cur = device().plane(f, 0)[0];
    uint64_t sum = 0;
    if (held_ == distance_) {
      const VideoFormat& vf = setup_.format;
      const cl_kernel k = sad_.get();
      set_args(k, ring_[size_t(oldest_)].get(), cur, cl_int{vf.width}, cl_int{vf.height},
               cl_int{vf.bitdepth == 8}, cl_int{vf.bitdepth}, partial_);
      const size_t global[2] = {(size_t(vf.width) + kTileW - 1) / kTileW * kTileW,
                                (size_t(vf.height) + tile_h_ - 1) / tile_h_ * tile_h_};
      const size_t local[2] = {kTileW, tile_h_};
      dc.run(k, 2, global, local, "motion_sad");
      dc.read(partial_.get(), groups_ * sizeof(cl_ulong), partial_words_.data(),
              "motion's work-group sums");
      for (const cl_ulong w : partial_words_) sum += w;
    }
    // The ring, oldest first from oldest_: the new picture takes the slot after
    // the newest, which is the oldest's once the ring is full.
    const int slot = held_ == distance_ ? oldest_ : (oldest_ + held_) % distance_;
    dc.copy(cur, ring_[size_t(slot)].get(), 0, plane_bytes_, "a picture motion keeps");
    if (held_ == distance_)
      oldest_ = (oldest_ + 1) % distance_;
    else
      ++held_;
    out[0] = sum;
  }

  EngineSetup setup_;
  int distance_;
  Handle<cl_kernel> sad_;
  size_t tile_h_ = 1;
  size_t plane_bytes_ = 0;
  size_t groups_ = 0;
  std::vector<Handle<cl_mem>> ring_;  // distance_ reference pictures
  int held_ = 0;                      // valid pictures in the ring
  int oldest_ = 0;                    // the ring slot of the oldest
  Handle<cl_mem> partial_;
  std::vector<cl_ulong> partial_words_;
  std::vector<uint8_t> staging_;
};

}  // namespace

std::unique_ptr<Engine> make_engine(Device& device, const EngineSetup& setup) {
  return std::make_unique<OpenclEngine>(setup, OpenclDevice::of(device));
}

}  // namespace exactvq::motion::opencl
