// The adm engine on a CUDA device: each scale's DWT, decoupling, CSF and the
// masking and denominator row sums on the GPU, on the frames the device's
// runner uploads once for every engine of the run; the sums read back once a
// batch. Every picture the feature takes (33x33 and up, adm/reference.h) runs
// on the GPU: each stage reads only samples an earlier stage of the same frame
// wrote (the masking's 3x3 reach stays inside the filter region), so no frame
// needs the host. The decoupling's binary64 steps run in native fp64 or
// emulated on integers (the fp64 option; the same bits).
#include <algorithm>
#include <array>
#include <vector>

#include "backends/cuda/cuda_device.h"
#include "backends/cuda/runner_engine.h"
#include "metrics/adm/csf_factors.h"
#include "metrics/adm/cuda/adm_kernels.h"
#include "metrics/adm/engine.h"

namespace exactvq::adm::cuda {

using namespace exactvq::cuda;  // the backend's plumbing that every engine uses

namespace {

constexpr int kScales = 4;
constexpr size_t kScaleWords = 9;  // den[3], num[3], aim_num[3]
constexpr size_t kFrameWords = kScales * kScaleWords;

// Sums [frame of the batch][scale][word].
class CudaEngine final : public RunnerEngine<Engine, uint64_t> {
 public:
  CudaEngine(const EngineSetup& s, CudaDevice& device)
      : RunnerEngine(device, s.format, 1, 1, "the adm sums"),
        setup_(s),
        emulate_(emulates_fp64(s.options.fp64, device.emulate_by_default())) {
    const VideoFormat& f = s.format;
    const CsfFactors factors = csf_factors(s.options);
    for (int n = 0; n < kScales; ++n) {
      plans_[size_t(n)] = scale_plan(f.width, f.height, n, factors);
      width_[size_t(n)] = plans_[size_t(n)].width;
      height_[size_t(n)] = plans_[size_t(n)].height;
    }
    join(kFrameWords);
  }

 private:
  // One scale's images, chunk_frames() frames each: subbands a, h, v, d of ref and
  // dis; the oriented bands h, v, d of the restored and additive parts and of
  // the masker's CSF and its flattened copy.
  struct ScaleBuffers {
    DeviceBuffer ref, dis, restored, additive, csf, flat;
  };
  struct Lane {
    std::array<ScaleBuffers, kScales> scale;
  };

  size_t band_samples(int n) const {
    return size_t(width_[size_t(n)]) * size_t(height_[size_t(n)]);
  }
  size_t sample_bytes(int n) const { return n == 0 ? sizeof(int16_t) : sizeof(int32_t); }

  AdmBands bands_of(const DeviceBuffer& b, int n) const {
    AdmBands out;
    out.base = b.get();
    out.frame_stride = band_samples(n);
    out.band_stride = band_samples(n) * size_t(chunk_frames());
    out.width = width_[size_t(n)];
    out.height = height_[size_t(n)];
    return out;
  }

  void allocate() override {
    std::vector<std::unique_ptr<Lane>> lanes;
    for (int l = 0; l < FrameUploader::kLanes; ++l) {
      auto lane = std::make_unique<Lane>();
      for (int n = 0; n < kScales; ++n) {
        const size_t band = band_samples(n) * size_t(chunk_frames()) * sample_bytes(n);
        ScaleBuffers& b = lane->scale[size_t(n)];
        b.ref = DeviceBuffer(4 * band);
        b.dis = DeviceBuffer(4 * band);
        b.restored = DeviceBuffer(3 * band);
        b.additive = DeviceBuffer(3 * band);
        b.csf = DeviceBuffer(3 * band);
        b.flat = DeviceBuffer(3 * band);
      }
      lanes.push_back(std::move(lane));
    }
    lanes_ = std::move(lanes);
  }

  // Scale n's decoupling, denominator, CSF and masking sums (reference.cpp's
  // sums_scale0 and sums_scale_s123, in their order).
  void score_scale(const Lane& lane, int n, int frames, uint64_t* sums, cudaStream_t stream) const {
    const ScaleBuffers& b = lane.scale[size_t(n)];
    const bool s0 = n == 0;
    const stages::ScalePlan& p = plans_[size_t(n)];
    const AdmBands ref = bands_of(b.ref, n), dis = bands_of(b.dis, n);
    const AdmBands restored = bands_of(b.restored, n), additive = bands_of(b.additive, n);
    const AdmBands csf = bands_of(b.csf, n), flat = bands_of(b.flat, n);
    launch_adm_decouple(s0, ref, dis, p, setup_.options.enhn_gain_limit, emulate_, frames, restored,
                        additive, stream);
    launch_adm_denominator(n, ref, p, frames, sums, kFrameWords, stream);
    // Numerator and AIM: each part measured against the other's CSF.
    launch_adm_csf(s0, additive, p, frames, csf, flat, stream);
    launch_adm_masking(s0, restored, csf, flat, p, frames, sums + 3, kFrameWords, stream);
    if (setup_.options.skip_aim) return;
    launch_adm_csf(s0, restored, p, frames, csf, flat, stream);
    launch_adm_masking(s0, additive, csf, flat, p, frames, sums + 6, kFrameWords, stream);
  }

  void enqueue(const FrameUploader::Chunk& chunk, size_t) override {
    uint64_t* sums = cleared_rows(chunk);
    const Lane& lane = *lanes_[size_t(chunk.lane)];
    const VideoFormat& f = setup_.format;
    const auto& plane = chunk.planes[0];
    // Scale 0's DWT computes every subband even with adm_skip_scale0 (the
    // reference then keeps only a; the others are not read).
    launch_adm_dwt0(plane.ref, plane.frame_stride, f.bitdepth == 8, f.width, f.height, f.bitdepth,
                    chunk.count, bands_of(lane.scale[0].ref, 0), chunk.stream);
    launch_adm_dwt0(plane.dist, plane.frame_stride, f.bitdepth == 8, f.width, f.height, f.bitdepth,
                    chunk.count, bands_of(lane.scale[0].dis, 0), chunk.stream);
    if (!setup_.options.skip_scale0) score_scale(lane, 0, chunk.count, sums, chunk.stream);
    for (int n = 1; n < kScales; ++n) {
      const ScaleBuffers& prev = lane.scale[size_t(n - 1)];
      const ScaleBuffers& cur = lane.scale[size_t(n)];
      launch_adm_dwt_s123(bands_of(prev.ref, n - 1), n == 1, n, chunk.count, bands_of(cur.ref, n),
                          chunk.stream);
      launch_adm_dwt_s123(bands_of(prev.dis, n - 1), n == 1, n, chunk.count, bands_of(cur.dis, n),
                          chunk.stream);
      score_scale(lane, n, chunk.count, sums + size_t(n) * kScaleWords, chunk.stream);
    }
  }

  void to_values(const uint64_t* words, size_t count, AdmSums* out) override {
    for (size_t fr = 0; fr < count; ++fr)
      for (size_t n = 0; n < size_t(kScales); ++n) {
        const uint64_t* w = words + fr * kFrameWords + n * kScaleWords;
        ScaleSums& s = out[fr][n];
        for (int b = 0; b < 3; ++b) {
          s.den[b] = w[b];
          s.num[b] = int64_t(w[3 + b]);
          s.aim_num[b] = int64_t(w[6 + b]);
        }
      }
  }

  EngineSetup setup_;
  bool emulate_;  // the decoupling's binary64 steps through softfp/
  std::array<stages::ScalePlan, kScales> plans_{};
  std::array<int, kScales> width_{}, height_{};  // each scale's bands
  std::vector<std::unique_ptr<Lane>> lanes_;
};

}  // namespace

std::unique_ptr<Engine> make_engine(Device& device, const EngineSetup& setup) {
  return std::make_unique<CudaEngine>(setup, CudaDevice::of(device));
}

}  // namespace exactvq::adm::cuda
