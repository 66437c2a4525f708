// The psnr_hvs engine on an OpenCL device: on the frame's planes as the device
// holds them for every engine of the run, each plane's block terms in parallel
// (psnr_hvs_kernels.cl: block_terms.h; its divisions and square root the
// device's where it rounds them correctly on request, else on softfp), then each
// plane's sequential binary32 sum of them; only the three sums come back.
#include <algorithm>
#include <array>
#include <memory>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "backends/opencl/device_engine.h"
#include "core/error.h"
#include "metrics/psnr_hvs/engine.h"
#include "metrics/psnr_hvs/reference.h"

namespace exactvq::psnr_hvs::opencl {

using namespace exactvq::opencl;  // the backend's plumbing that every engine uses

extern const char* const kPsnrHvsKernelSource;  // psnr_hvs_kernels.cl, embedded

namespace {

// Work-groups of a fixed size, the grid rounded up to them: an implementation
// that compiles a kernel for each group shape (PoCL) compiles it once.
constexpr size_t kGroup = 64;

size_t round_up(size_t v, size_t m) { return (v + m - 1) / m * m; }

class OpenclEngine final : public DeviceEngine<Engine> {
 public:
  OpenclEngine(const EngineSetup& s, std::shared_ptr<OpenclDevice> device)
      : DeviceEngine(std::move(device), "psnr_hvs", size_t(s.planes)), setup_(s) {
    DeviceContext& dc = context();
    // The device's binary32 `/` and sqrt give the definition's bits only when correctly
    // rounded (block_terms.h), which OpenCL promises only under the build option.
    const bool ieee = !s.softfp_divide_sqrt && dc.rounds_divide_sqrt_correctly();
    const cl_program program = this->device().program(
        kPsnrHvsKernelSource, "the psnr_hvs kernels",
        ieee ? fmt::format("{} -DPSNR_HVS_IEEE_DIVIDE_SQRT", kCorrectlyRoundedDivideSqrt) : "");
    block_terms_ = dc.kernel(program, "psnr_hvs_block_terms_kernel");
    plane_sums_ = dc.kernel(program, "psnr_hvs_plane_sums_kernel");
    group_ = work_group_size(block_terms_.get(), dc.device(), kGroup);
    std::vector<float> w;
    for (int p = 0; p < s.planes; ++p) {
      const PlaneWeights pw = plane_weights(p);
      w.insert(w.end(), pw.csf, pw.csf + kCoefficients);
      w.insert(w.end(), pw.mask, pw.mask + kCoefficients);
    }
    weights_ = dc.buffer(w.size() * sizeof(float), "psnr_hvs's weights");
    dc.write(weights_.get(), w.size() * sizeof(float), w.data(), "upload of psnr_hvs's weights");
    size_t total = 0;
    for (int p = 0; p < s.planes; ++p) {
      across_[size_t(p)] = blocks_along(s.format.plane_width(p));
      blocks_[size_t(p)] = across_[size_t(p)] * blocks_along(s.format.plane_height(p));
      offsets_[size_t(p)] = cl_long(total);
      total += size_t(blocks_[size_t(p)]) * kCoefficients;
    }
    terms_ = dc.buffer(std::max<size_t>(total, 1) * sizeof(float), "psnr_hvs's block terms");
    sums_ = dc.buffer(3 * sizeof(float), "psnr_hvs's error sums");
  }

 private:
  void score_frame(const DeviceFrame& f, std::span<float> out) override {
    DeviceContext& dc = context();
    const int planes = setup_.planes;
    for (int p = 0; p < planes; ++p) {
      if (blocks_[size_t(p)] == 0) continue;
      const std::array<cl_mem, 2> plane = device().plane(f, p);
      const cl_kernel k = block_terms_.get();
      set_args(k, plane[0], plane[1], cl_int{setup_.format.plane_width(p)},
               cl_int{setup_.format.bitdepth > 8}, cl_int{across_[size_t(p)]},
               cl_int{blocks_[size_t(p)]}, weights_, cl_int{p}, cl_float{kBlockVarianceScale},
               cl_float{kQuarterVarianceScale}, terms_, cl_long{offsets_[size_t(p)]});
      const size_t global = round_up(size_t(blocks_[size_t(p)]), group_);
      dc.run(k, 1, &global, &group_,
             std::string("psnr_hvs_block_terms_kernel, plane ") + plane_name(p));
    }
    // Each plane's terms (offset, count); none for planes not scored.
    const auto offset = [&](int p) { return cl_long{p < planes ? offsets_[size_t(p)] : 0}; };
    const auto count = [&](int p) {
      return cl_long{p < planes ? cl_long(blocks_[size_t(p)]) * kCoefficients : 0};
    };
    const cl_kernel s = plane_sums_.get();
    set_args(s, terms_, offset(0), count(0), offset(1), count(1), offset(2), count(2),
             cl_int{planes}, sums_);
    const size_t global = size_t(planes), local = 1;
    dc.run(s, 1, &global, &local, "psnr_hvs_plane_sums_kernel");
    std::array<float, 3> sums{};
    dc.read(sums_.get(), size_t(planes) * sizeof(float), sums.data(), "psnr_hvs's error sums");
    std::copy_n(sums.begin(), out.size(), out.begin());
  }

  EngineSetup setup_;
  Handle<cl_kernel> block_terms_, plane_sums_;
  size_t group_ = kGroup;
  Handle<cl_mem> weights_, terms_, sums_;
  std::array<int, 3> across_{}, blocks_{};  // blocks a row, and in all, plane by plane
  std::array<cl_long, 3> offsets_{};        // where each plane's terms start in terms_
};

}  // namespace

std::unique_ptr<Engine> make_engine(Device& device, const EngineSetup& setup) {
  return std::make_unique<OpenclEngine>(setup, OpenclDevice::of(device));
}

}  // namespace exactvq::psnr_hvs::opencl
