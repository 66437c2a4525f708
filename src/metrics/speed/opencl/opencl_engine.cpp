// The SpEED engines on an OpenCL device: each pair of planes scored by
// speed_kernels.cl on the planes as the device holds them for every engine of
// the run (the conversion, speed_temporal's difference, the prescale, the anti-alias filter
// and decimation, the local mean, the window means and covariance sums, each
// block's solution, variance and entropy, each block's term of the score), the
// 25 x 25 matrix's eigenvalues and QR decomposition and the sum of the terms on
// the host (device_plan.h). speed_temporal keeps the previous frame's luma
// planes on the device (a copy after each frame; hold() uploads given ones),
// so a run's bits do not depend on how its frames are batched.
#include <algorithm>
#include <array>
#include <bit>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "backends/opencl/device_engine.h"
#include "core/error.h"
#include "metrics/speed/device_plan.h"
#include "metrics/speed/engine.h"

namespace exactvq::speed {

namespace opencl {
extern const char* const kSpeedKernelSource;  // speed_kernels.cl, embedded
}

namespace {

using namespace exactvq::opencl;  // the backend's plumbing that every engine uses

constexpr size_t kGroupWidth = 16, kGroupHeight = 8, kLinearGroup = 64;

size_t round_up(size_t v, size_t m) { return (v + m - 1) / m * m; }

// One side's buffers (reference or distorted) from its first stage to its
// second.
struct Side {
  Handle<cl_mem> residual, means, sums, qt, r, eigenvalues, entropy, variance, invalid;
};

// A pair's: its sides', its blocks' terms and their flags.
struct Pair {
  Side sides[2];
  Handle<cl_mem> terms, term_invalid;
};

// One pair's planes: (a_ref [- b_ref], a_dis [- b_dis]); b_* null: no difference.
struct PairPlanes {
  cl_mem a_ref = nullptr, b_ref = nullptr, a_dis = nullptr, b_dis = nullptr;
};

// The kernels and buffers that score a frame's pairs (at most `pairs`) of one
// plane size on a device, in two stages: every pair's planes up to their
// covariance sums, read back together; every side's solver found on the host
// side by side (solve_pairs); then every pair's blocks and terms, read back
// together. The queue is waited for twice a frame.
class FrameScorer {
 public:
  FrameScorer(OpenclDevice& device, const DevicePlan& plan, const char* feature, size_t pairs)
      : device_(device), plan_(plan), feature_(feature), pairs_(pairs) {
    DeviceContext& dc = device.context();
    cl_device_fp_config fp32 = 0;
    exactvq::opencl::check(
        clGetDeviceInfo(dc.device(), CL_DEVICE_SINGLE_FP_CONFIG, sizeof fp32, &fp32, nullptr),
        "clGetDeviceInfo(CL_DEVICE_SINGLE_FP_CONFIG)");
    if (!(fp32 & CL_FP_DENORM))
      throw DeviceError(
          "the device flushes binary32 subnormals (no CL_FP_DENORM), which SpEED's filters keep");
    const cl_program program =
        device.program(speed::opencl::kSpeedKernelSource, "the SpEED kernels");
    load_ = dc.kernel(program, "speed_load");
    resample_ = dc.kernel(program, "speed_resample");
    decimate_ = dc.kernel(program, "speed_decimate");
    residual_ = dc.kernel(program, "speed_residual");
    means_ = dc.kernel(program, "speed_means");
    covariance_ = dc.kernel(program, "speed_covariance");
    blocks_ = dc.kernel(program, "speed_blocks");
    terms_ = dc.kernel(program, "speed_terms");
    size_t group = kGroupWidth * kGroupHeight;
    for (const auto* k : {&load_, &resample_, &decimate_, &residual_})
      group = std::min(group, work_group_size(k->get(), dc.device(), kGroupWidth * kGroupHeight));
    local_[0] = kGroupWidth;
    local_[1] = group_rows(group, kGroupWidth, "the SpEED kernels");
    linear_ = kLinearGroup;
    for (const auto* k : {&means_, &covariance_, &blocks_, &terms_})
      linear_ = std::min(linear_, work_group_size(k->get(), dc.device(), kLinearGroup));

    const Dimensions& d = plan.dim;
    const size_t plane = size_t(plan.width) * size_t(plan.height);
    const size_t down = size_t(d.operating_width) * size_t(d.operating_height);
    const size_t blocks = size_t(d.blocks);
    // The planes of one side at a time (the queue is in order).
    plane_ = dc.buffer(plane * sizeof(float), "a SpEED plane");
    down_ = dc.buffer(down * sizeof(float), "SpEED's decimated plane");
    pairs_buffers_.resize(pairs);
    for (Pair& p : pairs_buffers_) {
      for (Side& s : p.sides) {
        s.residual = dc.buffer(down * sizeof(float), "SpEED's residual plane");
        s.means = dc.buffer(kBlockElements * sizeof(float), "SpEED's window means");
        s.sums = dc.buffer(kCovariancePairs * sizeof(cl_ulong), "SpEED's covariance sums");
        s.qt = dc.buffer(kBlockElements * kBlockElements * sizeof(float), "SpEED's Q^T");
        s.r = dc.buffer(kBlockElements * kBlockElements * sizeof(float), "SpEED's R");
        s.eigenvalues = dc.buffer(kBlockElements * sizeof(float), "SpEED's eigenvalues");
        s.entropy = dc.buffer(blocks * sizeof(float), "SpEED's block entropies");
        s.variance = dc.buffer(blocks * sizeof(float), "SpEED's block variances");
        s.invalid = dc.buffer(blocks * sizeof(cl_int), "SpEED's block flags");
      }
      p.terms = dc.buffer(blocks * sizeof(float), "SpEED's block terms");
      p.term_invalid = dc.buffer(blocks * sizeof(cl_int), "SpEED's term flags");
    }
    sum_bits_.resize(2 * pairs * kCovariancePairs);
    solvers_.resize(2 * pairs * kSolverFloats);
    singular_ = std::make_unique<bool[]>(2 * pairs);
    active_ = std::make_unique<bool[]>(pairs);
    terms_host_.resize(pairs * blocks);
    flags_host_.resize(3 * pairs * blocks);
    if (plan.resample) {
      source_ = dc.buffer(size_t(plan.source_width) * size_t(plan.source_height) * sizeof(float),
                          "SpEED's plane before the prescale");
      const auto upload = [&](const auto& v, const char* what) {
        Handle<cl_mem> b = dc.buffer(v.size() * sizeof v[0], what);
        dc.write(b.get(), v.size() * sizeof v[0], v.data(), what);
        return b;
      };
      column_index_ = upload(plan.columns.index, "SpEED's prescale columns");
      column_weight_ = upload(plan.columns.weight, "SpEED's prescale columns");
      row_index_ = upload(plan.rows.index, "SpEED's prescale rows");
      row_weight_ = upload(plan.rows.weight, "SpEED's prescale rows");
    }
    antialias_ = dc.buffer(sizeof plan.antialias.taps, "SpEED's anti-alias taps");
    dc.write(antialias_.get(), sizeof plan.antialias.taps, plan.antialias.taps,
             "SpEED's anti-alias taps");
    local_mean_ = dc.buffer(sizeof plan.local_mean.taps, "SpEED's local-mean taps");
    dc.write(local_mean_.get(), sizeof plan.local_mean.taps, plan.local_mean.taps,
             "SpEED's local-mean taps");
  }

  // The scores of `pairs` of `bitdepth`-bit planes `src_w` samples a row into
  // `out`; `pool` (may be null) solves the sides side by side.
  void score(std::span<const PairPlanes> pairs, int src_w, int bitdepth, ThreadPool* pool,
             std::span<PairScore> out) {
    if (pairs.size() > pairs_) throw DeviceError("SpEED: a frame has more pairs than its buffers");
    try {
      score_pairs(pairs, src_w, bitdepth, pool, out);
    } catch (...) {
      // No queued read may fill, nor write read, the host's buffers later.
      try {
        device_.context().finish("SpEED's scores");
      } catch (const DeviceError&) {}
      throw;
    }
  }

 private:
  void score_pairs(std::span<const PairPlanes> pairs, int src_w, int bitdepth, ThreadPool* pool,
                   std::span<PairScore> out) {
    DeviceContext& dc = device_.context();
    const Dimensions& d = plan_.dim;
    const size_t n = pairs.size(), blocks = size_t(d.blocks);
    for (size_t p = 0; p < n; ++p) {
      const cl_mem as[2] = {pairs[p].a_ref, pairs[p].a_dis};
      const cl_mem bs[2] = {pairs[p].b_ref, pairs[p].b_dis};
      for (int i = 0; i < 2; ++i) {
        const Side& s = pairs_buffers_[p].sides[i];
        enqueue_sums(as[i], bs[i], src_w, bitdepth, s);
        dc.enqueue_read(s.sums.get(), kCovariancePairs * sizeof(cl_ulong),
                        sum_bits_.data() + (2 * p + size_t(i)) * kCovariancePairs,
                        "SpEED's covariance sums");
      }
      active_[p] = true;
    }
    dc.finish("SpEED's covariance sums");
    solve_pairs(sum_bits_.data(), active_.get(), n, d, pool, solvers_.data(), singular_.get());
    for (size_t p = 0; p < n; ++p) {
      Pair& pair = pairs_buffers_[p];
      for (int i = 0; i < 2; ++i) {
        const size_t side = 2 * p + size_t(i);
        enqueue_blocks(pair.sides[i], solvers_.data() + side * kSolverFloats, singular_[side]);
      }
      // One side alone singular: no terms (the score is 0).
      if (singular_[2 * p] != singular_[2 * p + 1]) continue;
      run_1d(terms_.get(), blocks, "speed_terms", [&](cl_kernel k) {
        set_args(k, pair.sides[0].entropy, pair.sides[0].variance, pair.sides[1].entropy,
                 pair.sides[1].variance, cl_int{d.blocks}, cl_float{plan_.base_entropy},
                 cl_int{plan_.weight_var_mode}, pair.terms, pair.term_invalid);
      });
      const cl_mem flags[3] = {pair.sides[0].invalid.get(), pair.sides[1].invalid.get(),
                               pair.term_invalid.get()};
      for (size_t k = 0; k < 3; ++k)
        dc.enqueue_read(flags[k], blocks * sizeof(cl_int),
                        flags_host_.data() + (3 * p + k) * blocks, "SpEED's block flags");
      dc.enqueue_read(pair.terms.get(), blocks * sizeof(float), terms_host_.data() + p * blocks,
                      "SpEED's block terms");
    }
    dc.finish("SpEED's block terms");
    for (size_t p = 0; p < n; ++p) {
      active_[p] = false;
      const bool ref = singular_[2 * p], dis = singular_[2 * p + 1];
      if (ref != dis) {
        out[p] = pair_score(nullptr, 0, ref, dis);
        continue;
      }
      // The entropies' flags (both sides), then the terms'.
      const char* what[3] = {"a block's entropy", "a block's entropy", "a block's variance weight"};
      for (size_t k = 0; k < 3; ++k)
        check_flags(flags_host_.data() + (3 * p + k) * blocks, what[k]);
      out[p] = pair_score(terms_host_.data() + p * blocks, d.blocks, ref, dis);
    }
  }

  // A side's first stage: its plane a [- b] through to its covariance sums.
  void enqueue_sums(cl_mem a, cl_mem b, int src_w, int bitdepth, const Side& s) {
    const Dimensions& d = plan_.dim;
    run_2d(load_.get(), plan_.source_width, plan_.source_height, "speed_load", [&](cl_kernel k) {
      set_args(k, a, b ? b : a, cl_int{b != nullptr}, cl_int{bitdepth}, cl_int{plan_.source_width},
               cl_int{plan_.source_height}, cl_int{src_w}, plan_.resample ? source_ : plane_);
    });
    if (plan_.resample)
      run_2d(resample_.get(), plan_.width, plan_.height, "speed_resample", [&](cl_kernel k) {
        set_args(k, source_, cl_int{plan_.source_width}, cl_int{plan_.method},
                 cl_int{plan_.columns.taps}, column_index_, column_weight_, row_index_, row_weight_,
                 cl_int{plan_.width}, cl_int{plan_.height}, plane_);
      });
    run_2d(decimate_.get(), d.operating_width, d.operating_height, "speed_decimate",
           [&](cl_kernel k) {
             set_args(k, plane_, cl_int{plan_.width}, cl_int{plan_.height}, antialias_,
                      cl_int{plan_.antialias.count}, cl_int{d.operating_width},
                      cl_int{d.operating_height}, down_);
           });
    run_2d(residual_.get(), d.operating_width, d.operating_height, "speed_residual",
           [&](cl_kernel k) {
             set_args(k, down_, cl_int{d.operating_width}, cl_int{d.operating_height}, local_mean_,
                      cl_int{plan_.local_mean.count}, s.residual);
           });
    run_1d(means_.get(), kBlockElements, "speed_means", [&](cl_kernel k) {
      set_args(k, s.residual, cl_int{d.operating_width}, cl_int{d.submatrix_width},
               cl_int{d.submatrix_height}, cl_float{plan_.window_count}, s.means);
    });
    run_1d(covariance_.get(), kCovariancePairs, "speed_covariance", [&](cl_kernel k) {
      set_args(k, s.residual, cl_int{d.operating_width}, cl_int{d.submatrix_width},
               cl_int{d.submatrix_height}, s.means, s.sums);
    });
  }

  // A side's second stage from its solver (kSolverFloats: Q^T, R, the
  // eigenvalues), which stays in place until the queue is finished.
  void enqueue_blocks(const Side& s, const float* solver, bool singular) {
    DeviceContext& dc = device_.context();
    const Dimensions& d = plan_.dim;
    constexpr size_t kMatrix = kBlockElements * kBlockElements;
    dc.enqueue_write(s.qt.get(), kMatrix * sizeof(float), solver, "SpEED's Q^T");
    dc.enqueue_write(s.r.get(), kMatrix * sizeof(float), solver + kMatrix, "SpEED's R");
    dc.enqueue_write(s.eigenvalues.get(), kBlockElements * sizeof(float), solver + 2 * kMatrix,
                     "SpEED's eigenvalues");
    run_1d(blocks_.get(), size_t(d.blocks), "speed_blocks", [&](cl_kernel k) {
      set_args(k, s.residual, cl_int{d.operating_width}, cl_int{d.blocks_horizontal},
               cl_int{d.blocks}, s.qt, s.r, s.eigenvalues, cl_int{singular},
               cl_float{plan_.sigma_nn}, cl_ulong{plan_.log2_2pie_bits}, s.entropy, s.variance,
               s.invalid);
    });
  }

  template <typename Args>
  void run_2d(cl_kernel k, int w, int h, const char* what, Args&& args) {
    args(k);
    const size_t global[2] = {round_up(size_t(w), local_[0]), round_up(size_t(h), local_[1])};
    device_.context().run(k, 2, global, local_, what);
  }

  template <typename Args>
  void run_1d(cl_kernel k, size_t n, const char* what, Args&& args) {
    args(k);
    const size_t global = round_up(n, linear_);
    device_.context().run(k, 1, &global, &linear_, what);
  }

  // softfp has no -inf or NaN: where libvmaf takes log2 of a value that is not
  // positive (its result -inf or NaN), the device has no value to give.
  void check_flags(const cl_int* flags, const char* what) const {
    for (size_t b = 0; b < size_t(plan_.dim.blocks); ++b)
      if (flags[b] != 0)
        throw DeviceError(fmt::format(
            "{}: {} takes log2 of a value that is not positive (libvmaf's -inf or NaN), which "
            "the device's binary64 emulation does not represent; use --backend cpu",
            feature_, what));
  }

  OpenclDevice& device_;
  DevicePlan plan_;
  const char* feature_;
  size_t pairs_;
  Handle<cl_kernel> load_, resample_, decimate_, residual_, means_, covariance_, blocks_, terms_;
  size_t local_[2] = {kGroupWidth, kGroupHeight};
  size_t linear_ = kLinearGroup;
  Handle<cl_mem> plane_, down_;
  std::vector<Pair> pairs_buffers_;
  Handle<cl_mem> antialias_, local_mean_;
  Handle<cl_mem> source_, column_index_, column_weight_, row_index_, row_weight_;
  // The host's side of the transfers, in place while the queue may use them.
  std::vector<uint64_t> sum_bits_;  // a side's sums after another's
  std::vector<float> solvers_;      // kSolverFloats a side
  std::unique_ptr<bool[]> singular_, active_;
  std::vector<float> terms_host_;   // a pair's after another's
  std::vector<cl_int> flags_host_;  // a pair's: the two sides' entropy flags, the terms' flags
};

}  // namespace

namespace chroma::opencl {

namespace {

class OpenclEngine final : public DeviceEngine<Engine> {
 public:
  OpenclEngine(const EngineSetup& s, std::shared_ptr<OpenclDevice> device)
      : DeviceEngine(std::move(device), "speed_chroma", 2),
        setup_(s),
        scorer_(this->device(),
                make_device_plan(chroma_width(s.format), chroma_height(s.format), s.options),
                "speed_chroma", 2) {}

 private:
  // U and V together.
  void score_frame(const DeviceFrame& f, std::span<PairScore> out) override {
    PairPlanes pairs[2];
    for (int p = 1; p <= 2; ++p) {
      const std::array<cl_mem, 2> planes = device().plane(f, p);
      pairs[p - 1].a_ref = planes[0];
      pairs[p - 1].a_dis = planes[1];
    }
    scorer_.score(pairs, f.ref->plane(1).width, setup_.format.bitdepth, setup_.pool, out);
  }

  EngineSetup setup_;
  FrameScorer scorer_;
};

}  // namespace

std::unique_ptr<Engine> make_engine(Device& device, const EngineSetup& setup) {
  return std::make_unique<OpenclEngine>(setup, OpenclDevice::of(device));
}

}  // namespace chroma::opencl

namespace temporal::opencl {

namespace {

class OpenclEngine final : public DeviceEngine<Engine> {
 public:
  OpenclEngine(const EngineSetup& s, std::shared_ptr<OpenclDevice> device)
      : DeviceEngine(std::move(device), "speed_temporal"),
        setup_(s),
        plan_(make_device_plan(s.format.width, s.format.height, s.options)) {
    DeviceContext& dc = context();
    plane_bytes_ =
        size_t(s.format.width) * size_t(s.format.height) * (s.format.bitdepth > 8 ? 2 : 1);
    prev_ref_ = dc.buffer(plane_bytes_, "the previous reference picture speed_temporal keeps");
    prev_dist_ = dc.buffer(plane_bytes_, "the previous distorted picture speed_temporal keeps");
  }

  void hold(std::span<const FramePair> before) override {
    held_ = false;
    if (before.empty()) return;
    DeviceContext& dc = context();
    dc.write_plane(prev_ref_.get(), before.back().ref->plane(0), staging_,
                   "upload of a picture speed_temporal compares with");
    dc.write_plane(prev_dist_.get(), before.back().dist->plane(0), staging_,
                   "upload of a picture speed_temporal compares with");
    held_ = true;
  }

 private:
  // The score of (previous - current) reference luma against the distorted
  // one's (previous distorted - current reference with use_ref_diff), then this
  // frame's planes kept in place of the previous ones.
  void score_frame(const DeviceFrame& f, std::span<PairScore> out) override {
    DeviceContext& dc = context();
    const std::array<cl_mem, 2> cur = device().plane(f, 0);
    out[0] = PairScore{};
    if (held_) {
      if (!scorer_) scorer_.emplace(device(), plan_, "speed_temporal", 1);
      const PairPlanes pair{prev_ref_.get(), cur[0], prev_dist_.get(),
                            setup_.options.use_ref_diff ? cur[0] : cur[1]};
      scorer_->score(std::span(&pair, 1), setup_.format.width, setup_.format.bitdepth, setup_.pool,
                     out.first(1));
    }
    dc.copy(cur[0], prev_ref_.get(), 0, plane_bytes_, "a picture speed_temporal keeps");
    dc.copy(cur[1], prev_dist_.get(), 0, plane_bytes_, "a picture speed_temporal keeps");
    held_ = true;
  }

  EngineSetup setup_;
  DevicePlan plan_;
  std::optional<FrameScorer> scorer_;  // made with the first score (the plane is scoreable then)
  size_t plane_bytes_ = 0;
  Handle<cl_mem> prev_ref_, prev_dist_;
  bool held_ = false;
  std::vector<uint8_t> staging_;
};

}  // namespace

std::unique_ptr<Engine> make_engine(Device& device, const EngineSetup& setup) {
  return std::make_unique<OpenclEngine>(setup, OpenclDevice::of(device));
}

}  // namespace temporal::opencl

}  // namespace exactvq::speed
