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

// One side's buffers (reference or distorted).
struct Side {
  Handle<cl_mem> plane, down, residual, means, sums, qt, r, eigenvalues, entropy, variance, invalid;
};

// The kernels and buffers that score pairs of one plane size on a device.
class PairScorer {
 public:
  PairScorer(OpenclDevice& device, const DevicePlan& plan, const char* feature)
      : device_(device), plan_(plan), feature_(feature) {
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
    for (Side* s : {&sides_[0], &sides_[1]}) {
      s->plane = dc.buffer(plane * sizeof(float), "a SpEED plane");
      s->down = dc.buffer(down * sizeof(float), "SpEED's decimated plane");
      s->residual = dc.buffer(down * sizeof(float), "SpEED's residual plane");
      s->means = dc.buffer(kBlockElements * sizeof(float), "SpEED's window means");
      s->sums = dc.buffer(kCovariancePairs * sizeof(cl_ulong), "SpEED's covariance sums");
      s->qt = dc.buffer(kBlockElements * kBlockElements * sizeof(float), "SpEED's Q^T");
      s->r = dc.buffer(kBlockElements * kBlockElements * sizeof(float), "SpEED's R");
      s->eigenvalues = dc.buffer(kBlockElements * sizeof(float), "SpEED's eigenvalues");
      s->entropy = dc.buffer(blocks * sizeof(float), "SpEED's block entropies");
      s->variance = dc.buffer(blocks * sizeof(float), "SpEED's block variances");
      s->invalid = dc.buffer(blocks * sizeof(cl_int), "SpEED's block flags");
    }
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
    terms_buffer_ = dc.buffer(blocks * sizeof(float), "SpEED's block terms");
    term_invalid_ = dc.buffer(blocks * sizeof(cl_int), "SpEED's term flags");
    terms_host_.resize(blocks);
    flags_host_.resize(blocks);
  }

  // The score of the pair (a_ref [- b_ref], a_dis [- b_dis]) of `bitdepth`-bit
  // planes `src_w` samples a row; b_* null: no difference.
  PairScore score(cl_mem a_ref, cl_mem b_ref, cl_mem a_dis, cl_mem b_dis, int src_w, int bitdepth) {
    DeviceContext& dc = device_.context();
    const Dimensions& d = plan_.dim;
    BlockSolver solvers[2];
    std::array<cl_ulong, kCovariancePairs> sum_bits;
    std::array<double, kCovariancePairs> sums;
    const cl_mem as[2] = {a_ref, a_dis}, bs[2] = {b_ref, b_dis};
    for (int i = 0; i < 2; ++i) {
      Side& s = sides_[i];
      run_2d(load_.get(), plan_.source_width, plan_.source_height, "speed_load", as[i],
             bs[i] ? bs[i] : as[i], cl_int{bs[i] != nullptr}, cl_int{bitdepth},
             cl_int{plan_.source_width}, cl_int{plan_.source_height}, cl_int{src_w},
             plan_.resample ? source_ : s.plane);
      if (plan_.resample)
        run_2d(resample_.get(), plan_.width, plan_.height, "speed_resample", source_,
               cl_int{plan_.source_width}, cl_int{plan_.method}, cl_int{plan_.columns.taps},
               column_index_, column_weight_, row_index_, row_weight_, cl_int{plan_.width},
               cl_int{plan_.height}, s.plane);
      run_2d(decimate_.get(), d.operating_width, d.operating_height, "speed_decimate", s.plane,
             cl_int{plan_.width}, cl_int{plan_.height}, antialias_, cl_int{plan_.antialias.count},
             cl_int{d.operating_width}, cl_int{d.operating_height}, s.down);
      run_2d(residual_.get(), d.operating_width, d.operating_height, "speed_residual", s.down,
             cl_int{d.operating_width}, cl_int{d.operating_height}, local_mean_,
             cl_int{plan_.local_mean.count}, s.residual);
      run_1d(means_.get(), kBlockElements, "speed_means", s.residual, cl_int{d.operating_width},
             cl_int{d.submatrix_width}, cl_int{d.submatrix_height}, cl_float{plan_.window_count},
             s.means);
      run_1d(covariance_.get(), kCovariancePairs, "speed_covariance", s.residual,
             cl_int{d.operating_width}, cl_int{d.submatrix_width}, cl_int{d.submatrix_height},
             s.means, s.sums);
      dc.read(s.sums.get(), sizeof sum_bits, sum_bits.data(), "SpEED's covariance sums");
      for (int p = 0; p < kCovariancePairs; ++p)
        sums[size_t(p)] = std::bit_cast<double>(uint64_t(sum_bits[size_t(p)]));
      solve_for_blocks(sums.data(), d.submatrix_width, d.submatrix_height, solvers[i]);
      const BlockSolver& b = solvers[i];
      dc.write(s.qt.get(), sizeof b.qt, b.qt, "SpEED's Q^T");
      dc.write(s.r.get(), sizeof b.r, b.r, "SpEED's R");
      dc.write(s.eigenvalues.get(), sizeof b.eigenvalues, b.eigenvalues, "SpEED's eigenvalues");
      run_1d(blocks_.get(), size_t(d.blocks), "speed_blocks", s.residual, cl_int{d.operating_width},
             cl_int{d.blocks_horizontal}, cl_int{d.blocks}, s.qt, s.r, s.eigenvalues,
             cl_int{b.singular}, cl_float{plan_.sigma_nn}, cl_ulong{plan_.log2_2pie_bits},
             s.entropy, s.variance, s.invalid);
    }
    if (solvers[0].singular != solvers[1].singular)
      return pair_score(nullptr, 0, solvers[0].singular, solvers[1].singular);
    for (const Side& s : sides_) check_flags(s.invalid.get(), "a block's entropy");
    run_1d(terms_.get(), size_t(d.blocks), "speed_terms", sides_[0].entropy, sides_[0].variance,
           sides_[1].entropy, sides_[1].variance, cl_int{d.blocks}, cl_float{plan_.base_entropy},
           cl_int{plan_.weight_var_mode}, terms_buffer_, term_invalid_);
    check_flags(term_invalid_.get(), "a block's variance weight");
    dc.read(terms_buffer_.get(), terms_host_.size() * sizeof(float), terms_host_.data(),
            "SpEED's block terms");
    return pair_score(terms_host_.data(), d.blocks, solvers[0].singular, solvers[1].singular);
  }

 private:
  // Runs `k` over w x h items (or n), its arguments `args` in order.
  template <typename... Args>
  void run_2d(cl_kernel k, int w, int h, const char* what, const Args&... args) {
    set_args(k, args...);
    const size_t global[2] = {round_up(size_t(w), local_[0]), round_up(size_t(h), local_[1])};
    device_.context().run(k, 2, global, local_, what);
  }

  template <typename... Args>
  void run_1d(cl_kernel k, size_t n, const char* what, const Args&... args) {
    set_args(k, args...);
    const size_t global = round_up(n, linear_);
    device_.context().run(k, 1, &global, &linear_, what);
  }

  // softfp has no -inf or NaN: where libvmaf takes log2 of a value that is not
  // positive (its result -inf or NaN), the device has no value to give.
  void check_flags(cl_mem flags, const char* what) {
    device_.context().read(flags, flags_host_.size() * sizeof(cl_int), flags_host_.data(),
                           "SpEED's block flags");
    for (const cl_int f : flags_host_)
      if (f != 0)
        throw DeviceError(fmt::format(
            "{}: {} takes log2 of a value that is not positive (libvmaf's -inf or NaN), which "
            "the device's binary64 emulation does not represent; use --backend cpu",
            feature_, what));
  }

  OpenclDevice& device_;
  DevicePlan plan_;
  const char* feature_;
  Handle<cl_kernel> load_, resample_, decimate_, residual_, means_, covariance_, blocks_, terms_;
  size_t local_[2] = {kGroupWidth, kGroupHeight};
  size_t linear_ = kLinearGroup;
  Side sides_[2];
  Handle<cl_mem> antialias_, local_mean_, terms_buffer_, term_invalid_;
  Handle<cl_mem> source_, column_index_, column_weight_, row_index_, row_weight_;
  std::vector<float> terms_host_;
  std::vector<cl_int> flags_host_;
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
                "speed_chroma") {}

 private:
  void score_frame(const DeviceFrame& f, std::span<PairScore> out) override {
    for (int p = 1; p <= 2; ++p) {
      const std::array<cl_mem, 2> planes = device().plane(f, p);
      out[size_t(p - 1)] = scorer_.score(planes[0], nullptr, planes[1], nullptr,
                                         f.ref->plane(p).width, setup_.format.bitdepth);
    }
  }

  EngineSetup setup_;
  PairScorer scorer_;
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
      if (!scorer_) scorer_.emplace(device(), plan_, "speed_temporal");
      out[0] = scorer_->score(prev_ref_.get(), cur[0], prev_dist_.get(),
                              setup_.options.use_ref_diff ? cur[0] : cur[1], setup_.format.width,
                              setup_.format.bitdepth);
    }
    dc.copy(cur[0], prev_ref_.get(), 0, plane_bytes_, "a picture speed_temporal keeps");
    dc.copy(cur[1], prev_dist_.get(), 0, plane_bytes_, "a picture speed_temporal keeps");
    held_ = true;
  }

  EngineSetup setup_;
  DevicePlan plan_;
  std::optional<PairScorer> scorer_;  // made with the first score (the plane is scoreable then)
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
