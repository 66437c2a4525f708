// The SpEED engines on a CUDA device: on the frames the device's runner
// uploads once for every engine of the run, each pair of planes scored by
// speed_kernels.h's kernels (the conversion, speed_temporal's difference, the
// prescale, the filters, the window means and covariance sums, each block's solution,
// variance and entropy, each block's term of the score), with the 25 x 25
// matrix's eigenvalues and QR decomposition and the sum of the terms on the
// host between them (device_plan.h): a chunk's stream is waited for at each of
// those steps. Binary64 steps native or, under fp64=emulate (or auto on a card
// with slow fp64), on softfp: the same bits. speed_temporal keeps the run's
// last luma pair on the device (hold() uploads given ones), so a run's bits do
// not depend on how its frames are batched or chunked.
#include <algorithm>
#include <array>
#include <bit>
#include <optional>
#include <vector>

#include <fmt/format.h>

#include "backends/cuda/cuda_device.h"
#include "backends/cuda/runner_engine.h"
#include "core/error.h"
#include "metrics/speed/cuda/speed_kernels.h"
#include "metrics/speed/device_plan.h"
#include "metrics/speed/engine.h"

namespace exactvq::speed {

namespace {

using namespace exactvq::cuda;  // the backend's plumbing that every engine uses
using speed::cuda::SpeedShape;
using speed::cuda::SpeedSide;

// The buffers and steps that score pairs of one plane size on a device.
class PairScorer {
 public:
  PairScorer(const DevicePlan& plan, bool emulate_fp64, const char* feature)
      : plan_(plan), emulate_(emulate_fp64), feature_(feature) {
    const Dimensions& d = plan.dim;
    const size_t plane = size_t(plan.width) * size_t(plan.height);
    const size_t down = size_t(d.operating_width) * size_t(d.operating_height);
    const size_t blocks = size_t(d.blocks);
    const size_t floats = plane + 2 * down + kBlockElements * (2 + 2 * kBlockElements) + 2 * blocks;
    for (int i = 0; i < 2; ++i) {
      float_storage_[i] = DeviceBuffer(floats * sizeof(float));
      word_storage_[i] = DeviceBuffer(kCovariancePairs * sizeof(uint64_t));
      flag_storage_[i] = DeviceBuffer(blocks * sizeof(int));
      float* f = float_storage_[i].get<float>();
      SpeedSide& s = sides_[i];
      s.plane = f;
      s.down = s.plane + plane;
      s.residual = s.down + down;
      s.means = s.residual + down;
      s.qt = s.means + kBlockElements;
      s.r = s.qt + kBlockElements * kBlockElements;
      s.eigenvalues = s.r + kBlockElements * kBlockElements;
      s.entropy = s.eigenvalues + kBlockElements;
      s.variance = s.entropy + blocks;
      s.sums = word_storage_[i].get<uint64_t>();
      s.invalid = flag_storage_[i].get<int>();
    }
    taps_ = DeviceBuffer(2 * sizeof plan.antialias.taps);
    check(cudaMemcpy(taps_.get<float>(), plan.antialias.taps, sizeof plan.antialias.taps,
                     cudaMemcpyHostToDevice),
          "upload of SpEED's filter taps");
    check(cudaMemcpy(taps_.get<float>() + 128, plan.local_mean.taps, sizeof plan.local_mean.taps,
                     cudaMemcpyHostToDevice),
          "upload of SpEED's filter taps");
    if (plan.resample) {
      source_ =
          DeviceBuffer(size_t(plan.source_width) * size_t(plan.source_height) * sizeof(float));
      const auto upload = [](DeviceBuffer& b, const auto& v) {
        b = DeviceBuffer(v.size() * sizeof v[0]);
        check(cudaMemcpy(b.get(), v.data(), v.size() * sizeof v[0], cudaMemcpyHostToDevice),
              "upload of SpEED's prescale tables");
      };
      upload(column_index_, plan.columns.index);
      upload(column_weight_, plan.columns.weight);
      upload(row_index_, plan.rows.index);
      upload(row_weight_, plan.rows.weight);
      shape_.source = source_.get<float>();
      shape_.resample_method = plan.method;
      shape_.resample_taps = plan.columns.taps;
      shape_.column_index = column_index_.get<int>();
      shape_.column_weight = column_weight_.get<float>();
      shape_.row_index = row_index_.get<int>();
      shape_.row_weight = row_weight_.get<float>();
    }
    // Pageable copies may still be in flight when cudaMemcpy returns, and the lanes'
    // non-blocking streams do not wait for the default stream: wait here, once.
    check(cudaDeviceSynchronize(), "upload of SpEED's filter taps");
    shape_.source_width = plan.source_width;
    shape_.source_height = plan.source_height;
    terms_ = DeviceBuffer(blocks * sizeof(float));
    term_flags_ = DeviceBuffer(blocks * sizeof(int));
    terms_host_.resize(blocks);
    flags_host_.resize(blocks);
    shape_.width = plan.width;
    shape_.height = plan.height;
    shape_.dw = d.operating_width;
    shape_.dh = d.operating_height;
    shape_.sub_w = d.submatrix_width;
    shape_.sub_h = d.submatrix_height;
    shape_.blocks_horizontal = d.blocks_horizontal;
    shape_.blocks = d.blocks;
    shape_.antialias = taps_.get<float>();
    shape_.antialias_count = plan.antialias.count;
    shape_.local_mean = taps_.get<float>() + 128;
    shape_.local_mean_count = plan.local_mean.count;
    shape_.window_count = plan.window_count;
    shape_.sigma_nn = plan.sigma_nn;
    shape_.log2_2pie_bits = plan.log2_2pie_bits;
  }

  // The score of the pair (a_ref [- b_ref], a_dis [- b_dis]) of `bitdepth`-bit
  // planes `src_w` samples a row; b_* null: no difference. Waits for `stream`.
  PairScore score(const void* a_ref, const void* b_ref, const void* a_dis, const void* b_dis,
                  int src_w, int bitdepth, cudaStream_t stream) {
    BlockSolver solvers[2];
    std::array<uint64_t, kCovariancePairs> sum_bits;
    std::array<double, kCovariancePairs> sums;
    const void* as[2] = {a_ref, a_dis};
    const void* bs[2] = {b_ref, b_dis};
    for (int i = 0; i < 2; ++i) {
      const SpeedSide& s = sides_[i];
      speed::cuda::launch_speed_load(as[i], bs[i], bitdepth, src_w, shape_, s, stream);
      speed::cuda::launch_speed_filters(shape_, s, stream);
      speed::cuda::launch_speed_covariance(shape_, s, emulate_, stream);
      read(sum_bits.data(), s.sums, sizeof sum_bits, stream, "read-back of SpEED's sums");
      for (int p = 0; p < kCovariancePairs; ++p)
        sums[size_t(p)] = std::bit_cast<double>(sum_bits[size_t(p)]);
      const Dimensions& d = plan_.dim;
      solve_for_blocks(sums.data(), d.submatrix_width, d.submatrix_height, solvers[i]);
      const BlockSolver& b = solvers[i];
      write(s.qt, b.qt, sizeof b.qt, stream);
      write(s.r, b.r, sizeof b.r, stream);
      write(s.eigenvalues, b.eigenvalues, sizeof b.eigenvalues, stream);
      speed::cuda::launch_speed_blocks(shape_, s, b.singular, emulate_, stream);
    }
    if (solvers[0].singular != solvers[1].singular)
      return pair_score(nullptr, 0, solvers[0].singular, solvers[1].singular);
    if (emulate_)
      for (const SpeedSide& s : sides_) check_flags(s.invalid, stream, "a block's entropy");
    speed::cuda::launch_speed_terms(shape_, sides_[0], sides_[1], plan_.base_entropy,
                                    plan_.weight_var_mode, terms_.get<float>(),
                                    term_flags_.get<int>(), emulate_, stream);
    if (emulate_) check_flags(term_flags_.get<int>(), stream, "a block's variance weight");
    read(terms_host_.data(), terms_.get<float>(), terms_host_.size() * sizeof(float), stream,
         "read-back of SpEED's block terms");
    return pair_score(terms_host_.data(), plan_.dim.blocks, solvers[0].singular,
                      solvers[1].singular);
  }

 private:
  static void read(void* host, const void* device, size_t bytes, cudaStream_t stream,
                   const char* what) {
    check(cudaMemcpyAsync(host, device, bytes, cudaMemcpyDeviceToHost, stream), what);
    check(cudaStreamSynchronize(stream), what);
  }

  static void write(void* device, const void* host, size_t bytes, cudaStream_t stream) {
    check(cudaMemcpyAsync(device, host, bytes, cudaMemcpyHostToDevice, stream),
          "upload of SpEED's solver");
    check(cudaStreamSynchronize(stream), "upload of SpEED's solver");
  }

  // softfp has no -inf or NaN: where libvmaf takes log2 of a value that is not
  // positive, the emulation has no value to give.
  void check_flags(const int* flags, cudaStream_t stream, const char* what) {
    read(flags_host_.data(), flags, flags_host_.size() * sizeof(int), stream,
         "read-back of SpEED's block flags");
    for (const int f : flags_host_)
      if (f != 0)
        throw DeviceError(fmt::format(
            "{}: {} takes log2 of a value that is not positive (libvmaf's -inf or NaN), which "
            "fp64=emulate does not represent; use fp64=native",
            feature_, what));
  }

  DevicePlan plan_;
  bool emulate_;
  const char* feature_;
  SpeedShape shape_;
  SpeedSide sides_[2];
  DeviceBuffer float_storage_[2], word_storage_[2], flag_storage_[2];
  DeviceBuffer taps_, terms_, term_flags_;
  DeviceBuffer source_, column_index_, column_weight_, row_index_, row_weight_;
  std::vector<float> terms_host_;
  std::vector<int> flags_host_;
};

// A frame's PairScores, kept on the host as the chunks are scored; the words
// read back are unused (one a frame).
using Word = uint32_t;

}  // namespace

namespace chroma::cuda {

namespace {

class CudaEngine final : public RunnerEngine<Engine, Word> {
 public:
  CudaEngine(const EngineSetup& s, CudaDevice& device)
      : RunnerEngine(device, s.format, 3, 2, "the SpEED scores"),
        setup_(s),
        plan_(make_device_plan(chroma_width(s.format), chroma_height(s.format), s.options)),
        emulate_(emulates_fp64(s.options.fp64, device.emulate_by_default())) {
    join(1);
  }

 private:
  void allocate() override { scorer_.emplace(plan_, emulate_, "speed_chroma"); }

  void enqueue(const FrameUploader::Chunk& chunk, size_t) override {
    if (pending_.size() < size_t(chunk.start + chunk.count) * 2)
      pending_.resize(size_t(chunk.start + chunk.count) * 2);
    for (int i = 0; i < chunk.count; ++i)
      for (int p = 1; p <= 2; ++p) {
        const DevicePlanes& planes = chunk.planes[p];
        const auto* ref =
            static_cast<const unsigned char*>(planes.ref) + size_t(i) * planes.frame_stride;
        const auto* dist =
            static_cast<const unsigned char*>(planes.dist) + size_t(i) * planes.frame_stride;
        pending_[size_t(chunk.start + i) * 2 + size_t(p - 1)] = scorer_->score(
            ref, nullptr, dist, nullptr, planes.width, setup_.format.bitdepth, chunk.stream);
      }
  }

  void to_values(const Word*, size_t count, PairScore* out) override {
    std::copy_n(pending_.begin(), count * 2, out);
  }

  EngineSetup setup_;
  DevicePlan plan_;
  bool emulate_;
  std::optional<PairScorer> scorer_;
  std::vector<PairScore> pending_;  // the batch's, two a frame
};

}  // namespace

std::unique_ptr<Engine> make_engine(Device& device, const EngineSetup& setup) {
  return std::make_unique<CudaEngine>(setup, CudaDevice::of(device));
}

}  // namespace chroma::cuda

namespace temporal::cuda {

namespace {

class CudaEngine final : public RunnerEngine<Engine, Word> {
 public:
  CudaEngine(const EngineSetup& s, CudaDevice& device)
      : RunnerEngine(device, s.format, 1, 1, "the SpEED scores"),
        setup_(s),
        plan_(make_device_plan(s.format.width, s.format.height, s.options)),
        emulate_(emulates_fp64(s.options.fp64, device.emulate_by_default())) {
    const VideoFormat& f = s.format;
    plane_bytes_ = size_t(f.width) * size_t(f.height) * (f.bitdepth > 8 ? 2 : 1);
    join(1);
  }

  void hold(std::span<const FramePair> before) override {
    check(cudaSetDevice(runner().ordinal()), "cudaSetDevice");
    ensure_buffers();
    held_ = false;
    if (before.empty()) return;
    const size_t row_bytes = size_t(setup_.format.width) * (setup_.format.bitdepth > 8 ? 2 : 1);
    const PlaneView r = before.back().ref->plane(0), d = before.back().dist->plane(0);
    check(cudaMemcpy2D(previous_.get(), row_bytes, r.data, size_t(r.stride), row_bytes,
                       size_t(r.height), cudaMemcpyDefault),
          "upload of the pictures speed_temporal compares with");
    check(cudaMemcpy2D(previous_.get() + plane_bytes_, row_bytes, d.data, size_t(d.stride),
                       row_bytes, size_t(d.height), cudaMemcpyDefault),
          "upload of the pictures speed_temporal compares with");
    held_ = true;
  }

 private:
  void allocate() override { previous_ = DeviceBuffer(2 * plane_bytes_); }
  // The kept pair is the run's previous frame: each frame once, in order.
  bool joins_others() const override { return false; }

  // Frame i against frame i - 1 of the chunk, the first against the pair kept
  // from the run's previous frame; the chunk's last pair is kept then.
  void enqueue(const FrameUploader::Chunk& chunk, size_t) override {
    if (pending_.size() < size_t(chunk.start + chunk.count))
      pending_.resize(size_t(chunk.start + chunk.count));
    const DevicePlanes& luma = chunk.planes[0];
    const auto ref = [&](int i) -> const void* {
      return i < 0 ? previous_.get()
                   : static_cast<const unsigned char*>(luma.ref) + size_t(i) * luma.frame_stride;
    };
    const auto dist = [&](int i) -> const void* {
      return i < 0 ? previous_.get() + plane_bytes_
                   : static_cast<const unsigned char*>(luma.dist) + size_t(i) * luma.frame_stride;
    };
    for (int i = 0; i < chunk.count; ++i) {
      PairScore& out = pending_[size_t(chunk.start + i)];
      out = PairScore{};
      if (i == 0 && !held_) continue;
      if (!scorer_) scorer_.emplace(plan_, emulate_, "speed_temporal");
      out = scorer_->score(ref(i - 1), ref(i), dist(i - 1),
                           setup_.options.use_ref_diff ? ref(i) : dist(i), luma.width,
                           setup_.format.bitdepth, chunk.stream);
    }
    const int last = chunk.count - 1;
    check(cudaMemcpyAsync(previous_.get(), ref(last), plane_bytes_, cudaMemcpyDeviceToDevice,
                          chunk.stream),
          "a picture speed_temporal keeps");
    check(cudaMemcpyAsync(previous_.get() + plane_bytes_, dist(last), plane_bytes_,
                          cudaMemcpyDeviceToDevice, chunk.stream),
          "a picture speed_temporal keeps");
    // The next chunk (perhaps on another stream) reads the kept pair.
    check(cudaStreamSynchronize(chunk.stream), "a picture speed_temporal keeps");
    held_ = true;
  }

  void to_values(const Word*, size_t count, PairScore* out) override {
    std::copy_n(pending_.begin(), count, out);
  }

  EngineSetup setup_;
  DevicePlan plan_;
  bool emulate_;
  size_t plane_bytes_ = 0;
  bool held_ = false;
  DeviceBuffer previous_;             // the last reference luma, then the last distorted luma
  std::optional<PairScorer> scorer_;  // made with the first score (the plane is scoreable then)
  std::vector<PairScore> pending_;
};

}  // namespace

std::unique_ptr<Engine> make_engine(Device& device, const EngineSetup& setup) {
  return std::make_unique<CudaEngine>(setup, CudaDevice::of(device));
}

}  // namespace temporal::cuda

}  // namespace exactvq::speed
