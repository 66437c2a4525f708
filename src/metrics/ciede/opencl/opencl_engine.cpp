// The ciede engine on an OpenCL device: each pixel's delta E on softfp
// (ciede_kernels.cl), kept on the device and added there in raster order
// (backends/opencl/raster_sum.h); only the frame's sum comes back. libm's
// tables are uploaded once (softfp_tables.h).
#include <bit>
#include <cstdint>
#include <vector>

#include "backends/opencl/device_engine.h"
#include "backends/opencl/raster_sum.h"
#include "metrics/ciede/engine.h"
#include "metrics/ciede/reference.h"
#include "metrics/ciede/softfp_tables.h"

namespace exactvq::ciede::opencl {

using namespace exactvq::opencl;  // the backend's plumbing that every engine uses

extern const char* const kCiedeKernelSource;  // ciede_kernels.cl, embedded

namespace {

constexpr size_t kMaxGroup = 64;

class OpenclEngine final : public DeviceEngine<Engine> {
 public:
  OpenclEngine(const EngineSetup& s, std::shared_ptr<OpenclDevice> device)
      : DeviceEngine(std::move(device), "ciede"),
        format_(s.format),
        reading_(chroma_reading(s.format)),
        pixels_(size_t(s.format.width) * size_t(s.format.height)) {
    DeviceContext& dc = context();
    kernel_ =
        dc.kernel(this->device().program(kCiedeKernelSource, "the ciede kernel"), "ciede_delta_e");
    group_ = work_group_size(kernel_.get(), dc.device(), kMaxGroup);
    const std::vector<uint64_t> words = softfp_table_words();
    tables_ = dc.buffer(words.size() * sizeof(uint64_t), "libm tables");
    dc.write(tables_.get(), words.size() * sizeof(uint64_t), words.data(), "libm tables");
    terms_ = dc.buffer(pixels_ * sizeof(cl_ulong), "delta E terms");
    raster_sums_ = &this->device().raster_sums();
    workspace_ = dc.buffer(raster_sum_workspace_bytes(layout()), "raster-order sum workspace");
    sum_ = dc.buffer(sizeof(cl_ulong), "raster-order sum");
  }

 private:
  RasterSumLayout layout() const {
    RasterSumLayout l;
    l.terms = terms_.get();
    l.array[0].count = int64_t(pixels_);
    return l;
  }

  void score_frame(const DeviceFrame& f, std::span<double> out) override {
    DeviceContext& dc = context();
    const std::array<cl_mem, 2> y = device().plane(f, 0), u = device().plane(f, 1),
                                v = device().plane(f, 2);
    const cl_kernel k = kernel_.get();
    set_args(k, y[0], y[1], u[0], u[1], v[0], v[1], cl_int{format_.width}, cl_int{format_.height},
             cl_int{format_.plane_width(1)}, cl_int{reading_.kind}, cl_long{reading_.padded_half},
             cl_int{format_.bitdepth}, tables_, terms_);
    const size_t global = (pixels_ + group_ - 1) / group_ * group_;
    dc.run(k, 1, &global, &group_, "ciede_delta_e");
    raster_sums_->enqueue(layout(), sum_.get(), workspace_.get());
    uint64_t bits = 0;
    dc.read(sum_.get(), sizeof bits, &bits, "raster-order sum of delta E");
    out[0] = std::bit_cast<double>(bits);
  }

  VideoFormat format_;
  ChromaReading reading_;
  size_t pixels_;
  size_t group_ = 1;
  Handle<cl_kernel> kernel_;
  Handle<cl_mem> tables_, terms_, workspace_, sum_;
  RasterSums* raster_sums_ = nullptr;  // the device's
};

}  // namespace

std::unique_ptr<Engine> make_engine(Device& device, const EngineSetup& setup) {
  return std::make_unique<OpenclEngine>(setup, OpenclDevice::of(device));
}

}  // namespace exactvq::ciede::opencl
