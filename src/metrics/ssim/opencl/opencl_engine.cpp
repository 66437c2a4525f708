// The ssim engine on an OpenCL device: the horizontal pass (with the plane's SSE
// where the device's psnr engine wants it), then the vertical pass and the term
// through softfp, summed exactly per work-group, or in raster mode kept on the
// device and summed there in raster order (backends/opencl/raster_sum.h): only the
// sums come back. Bit for bit the CPU reference.
#include <algorithm>
#include <array>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "backends/opencl/device_engine.h"
#include "core/error.h"
#include "metrics/ssim/engine.h"
#include "metrics/ssim/fixed_point.h"
#include "metrics/ssim/opencl/fused_sse.h"
#include "metrics/ssim/term.h"

namespace exactvq::ssim::opencl {

using namespace exactvq::opencl;  // the backend's plumbing that every engine uses

extern const char* const kSsimKernelSource;  // ssim_kernels.cl, embedded

namespace {

constexpr size_t kMaxGroup = 256;  // SSIM_GROUP in ssim_kernels.cl

uint64_t bits_of(double v) {
  uint64_t b;
  std::memcpy(&b, &v, sizeof b);
  return b;
}

size_t round_up(size_t v, size_t m) { return (v + m - 1) / m * m; }

class OpenclEngine final : public DeviceEngine<Engine>, public FusedSse::Scorer {
 public:
  OpenclEngine(const EngineSetup& s, std::shared_ptr<OpenclDevice> device)
      : DeviceEngine(std::move(device), "ssim", size_t(s.planes)),
        mode_(s.mode),
        format_(s.format),
        fused_(this->device().state<FusedSse>()),
        planes_(s.planes) {
    DeviceContext& dc = context();
    const VideoFormat& format = s.format;
    const cl_program program = this->device().program(kSsimKernelSource, "the SSIM kernels");
    horizontal_ = dc.kernel(program, "ssim_horizontal");
    horizontal_sse_ = dc.kernel(program, "ssim_horizontal_sse");
    terms_ = dc.kernel(program, "ssim_terms");

    // Work-groups of the term kernel and of the horizontal pass with SSE: a
    // power of two up to kMaxGroup, 16 wide.
    const size_t group = work_group_size(terms_.get(), dc.device(), kMaxGroup);
    local_[0] = std::min<size_t>(16, group);
    local_[1] = group / local_[0];
    const size_t h_group = work_group_size(horizontal_sse_.get(), dc.device(), kMaxGroup);
    h_local_[0] = std::min<size_t>(16, h_group);
    h_local_[1] = h_group / h_local_[0];

    const size_t w = size_t(format.plane_width(0)), h = size_t(format.plane_height(0));
    const size_t samples = w * h;
    hm_ = dc.buffer(samples * sizeof(cl_uint), "horizontal moments");
    hn_ = dc.buffer(samples * sizeof(cl_uint), "horizontal moments");
    hxx_ = dc.buffer(samples * sizeof(cl_ulong), "horizontal moments");
    hxy_ = dc.buffer(samples * sizeof(cl_ulong), "horizontal moments");
    hyy_ = dc.buffer(samples * sizeof(cl_ulong), "horizontal moments");
    term_bits_ =
        dc.buffer(mode_ == SumMode::kRaster ? samples * sizeof(cl_ulong) : 1, "term plane");
    if (mode_ == SumMode::kRaster) {
      raster_sums_ = &this->device().raster_sums();
      RasterSumLayout largest;  // plane 0's; the others are no larger
      largest.array[0].count = int64_t(samples);
      raster_workspace_ = dc.buffer(exactvq::opencl::raster_sum_workspace_bytes(largest),
                                    "raster-order sum workspace");
      raster_sum_ = dc.buffer(sizeof(cl_ulong), "raster-order sum");
    }
    const size_t groups = round_up(w, local_[0]) / local_[0] * (round_up(h, local_[1]) / local_[1]);
    partial_ = dc.buffer(groups * 2 * sizeof(cl_ulong), "work-group sums");
    const size_t h_groups =
        round_up(w, h_local_[0]) / h_local_[0] * (round_up(h, h_local_[1]) / h_local_[1]);
    sse_partial_ = dc.buffer(h_groups * sizeof(cl_ulong), "work-group squared errors");
    invalid_ = dc.buffer(sizeof(cl_int), "status flag");
    partial_host_.resize(groups * 2);
    sse_host_.resize(h_groups);

    const TermConstants k = term_constants(format.bitdepth);
    mm_k1_bits_ = bits_of(k.mm_k1);
    mm_k2_bits_ = bits_of(k.mm_k2);
    fused_.add_scorer(this);
  }

  ~OpenclEngine() override { fused_.remove_scorer(this); }

  bool covers(int plane) const override { return plane < planes_; }

  bool yet_to_score(const DeviceFrame& f) const override {
    if (!f.keyed || (last_scored_ && f.number <= *last_scored_)) return false;
    return std::none_of(early_.begin(), early_.end(),
                        [&](const Early& e) { return e.held.matches(f); });
  }

  void score_early(const DeviceFrame& f) override {
    Early e;
    score_planes(f, true, e.scores);
    e.held.set(f);
    early_.push_back(e);
  }

 private:
  using Scores = std::array<PlaneSum, 3>;
  using Held = HeldFrame;

  struct Early {
    Held held;
    Scores scores = {};
  };

  // The pair's planes: numbered pairs shared with the device's psnr engine
  // (their sums perhaps scored early), loose ones on their own.
  void score_frame(const DeviceFrame& f, std::span<PlaneSum> out) override {
    try {
      Scores s;
      if (!f.keyed) {
        score_planes(f, false, s);
      } else {
        if (!take_early(f, s)) score_planes(f, true, s);
        last_scored_ = f.number;
      }
      std::copy_n(s.begin(), out.size(), out.begin());
    } catch (const DeviceError&) {
      // What was scored early went with the device's frames (score_pair forgets them).
      early_.clear();
      last_scored_.reset();
      throw;
    }
  }

  // A frame's scores if score_early made them; frames before it are dropped.
  bool take_early(const DeviceFrame& f, Scores& s) {
    bool found = false;
    std::vector<Early> kept;
    for (const Early& e : early_) {
      if (e.held.matches(f)) {
        s = e.scores;
        found = true;
      } else if (e.held.number > f.number) {
        kept.push_back(e);
      }
    }
    early_ = std::move(kept);
    return found;
  }

  // Sums every plane; with `share`, also the SSE of the planes a psnr engine on
  // the device wants and does not have yet.
  void score_planes(const DeviceFrame& f, bool share, Scores& s) {
    for (int p = 0; p < planes_ && p < int(s.size()); ++p) {
      const bool sse = share && f.keyed && fused_.wanted(p) && !fused_.known(f, p);
      s[size_t(p)] = score_plane(f, p, sse);
    }
  }

  PlaneSum score_plane(const DeviceFrame& f, int plane, bool want_sse) {
    DeviceContext& dc = context();
    const std::array<cl_mem, 2> planes = device().plane(f, plane);
    const int width = format_.plane_width(plane), height = format_.plane_height(plane);
    const std::string pn = plane_name(plane);
    const cl_int zero = 0;
    dc.write(invalid_.get(), sizeof zero, &zero, "status flag");

    const cl_kernel h = want_sse ? horizontal_sse_.get() : horizontal_.get();
    const cl_int wide = format_.bytes_per_sample() == 2;
    set_args(h, planes[0], planes[1], cl_int{width}, cl_int{height}, wide, hm_, hn_, hxx_, hxy_,
             hyy_);
    size_t h_groups = 0;
    if (want_sse) {
      set_arg(h, 10, sse_partial_);
      const size_t global[2] = {round_up(size_t(width), h_local_[0]),
                                round_up(size_t(height), h_local_[1])};
      h_groups = global[0] / h_local_[0] * (global[1] / h_local_[1]);
      dc.run(h, 2, global, h_local_, "ssim_horizontal_sse, plane " + pn);
    } else {
      const size_t global[2] = {size_t(width), size_t(height)};
      dc.run(h, 2, global, nullptr, "ssim_horizontal, plane " + pn);
    }

    const bool raster = mode_ == SumMode::kRaster;
    const cl_kernel t = terms_.get();
    set_args(t, hm_, hn_, hxx_, hxy_, hyy_, cl_int{width}, cl_int{height}, cl_ulong{mm_k1_bits_},
             cl_ulong{mm_k2_bits_}, cl_int{raster}, term_bits_, partial_, invalid_);
    const size_t t_global[2] = {round_up(size_t(width), local_[0]),
                                round_up(size_t(height), local_[1])};
    dc.run(t, 2, t_global, local_, "ssim_terms, plane " + pn);
    if (raster) {  // queued behind the terms: the plane never leaves the device
      RasterSumLayout layout;
      layout.terms = term_bits_.get();
      layout.array[0].count = int64_t(width) * int64_t(height);
      raster_sums_->enqueue(layout, raster_sum_.get(), raster_workspace_.get());
    }

    if (want_sse) {
      dc.read(sse_partial_.get(), h_groups * sizeof(cl_ulong), sse_host_.data(),
              "squared errors, plane " + pn);
      uint64_t sum = 0;
      for (size_t g = 0; g < h_groups; ++g) sum += sse_host_[g];
      fused_.keep(f, plane, sum);
      ++fused_.counters().fused;
    }

    cl_int invalid = 0;
    dc.read(invalid_.get(), sizeof invalid, &invalid, "status flag, plane " + pn);
    if (invalid)
      throw DeviceError(
          fmt::format("OpenCL: the emulated SSIM term left the binary64 range on plane {}", pn));

    PlaneSum sum;
    if (raster) {
      dc.read(raster_sum_.get(), sizeof sum.raster, &sum.raster, "raster-order sum, plane " + pn);
      return sum;
    }
    const size_t groups = t_global[0] / local_[0] * (t_global[1] / local_[1]);
    dc.read(partial_.get(), groups * 2 * sizeof(cl_ulong), partial_host_.data(),
            "work-group sums, plane " + pn);
    for (size_t g = 0; g < groups; ++g)
      sum.exact += static_cast<int128>((static_cast<uint128>(partial_host_[2 * g + 1]) << 64) |
                                       partial_host_[2 * g]);
    return sum;
  }

  SumMode mode_;
  VideoFormat format_;
  FusedSse& fused_;  // the device's
  int planes_ = 1;
  Handle<cl_kernel> horizontal_, horizontal_sse_, terms_;
  size_t local_[2] = {16, 16}, h_local_[2] = {16, 16};
  Handle<cl_mem> hm_, hn_, hxx_, hxy_, hyy_, term_bits_, partial_, sse_partial_, invalid_;
  Handle<cl_mem> raster_workspace_, raster_sum_;  // raster mode
  RasterSums* raster_sums_ = nullptr;             // the device's, in raster mode
  std::vector<cl_ulong> partial_host_, sse_host_;
  std::vector<Early> early_;
  std::optional<int64_t> last_scored_;  // the last numbered frame returned
  uint64_t mm_k1_bits_ = 0, mm_k2_bits_ = 0;
};

}  // namespace

std::unique_ptr<Engine> make_engine(Device& device, const EngineSetup& setup) {
  return std::make_unique<OpenclEngine>(setup, OpenclDevice::of(device));
}

}  // namespace exactvq::ssim::opencl
