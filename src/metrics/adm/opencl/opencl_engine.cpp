// The adm engine on an OpenCL device: each scale's DWT, decoupling (its
// binary64 steps on softfp), CSF and the masking and denominator row sums on
// the device (adm_kernels.cl), on the frame's luma planes as the device holds
// them for every engine of the run; each scored row's rounded sums read back
// once a frame and added here (integers: any order). Every picture the feature
// takes (33x33 and up, adm/reference.h) runs on the device: each stage reads
// only samples an earlier stage of the same frame wrote (the masking's 3x3
// reach stays inside the filter region), so no frame needs the host.
#include <algorithm>
#include <array>
#include <bit>
#include <iterator>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "backends/opencl/device_engine.h"
#include "metrics/adm/csf_factors.h"
#include "metrics/adm/engine.h"

namespace exactvq::adm::opencl {

using namespace exactvq::opencl;  // the backend's plumbing that every engine uses

extern const char* const kAdmKernelSource;  // adm_kernels.cl, embedded

namespace {

constexpr int kScales = 4;
constexpr size_t kTileW = 32, kTileH = 8;  // the per-sample kernels' work-groups
constexpr size_t kRowItems = 64;           // ADM_ROW_ITEMS in adm_kernels.cl
// The row sums of a scale, in this order: den, num, aim_num; 3 words a row.
enum Part { kDen = 0, kNum = 1, kAim = 2 };
constexpr size_t kParts = 3;

size_t round_up(size_t n, size_t to) { return (n + to - 1) / to * to; }
bool empty(const stages::Rect& r) { return r.right <= r.left || r.bottom <= r.top; }

class OpenclEngine final : public DeviceEngine<Engine> {
 public:
  OpenclEngine(const EngineSetup& s, std::shared_ptr<OpenclDevice> device)
      : DeviceEngine(std::move(device), "adm"), setup_(s) {
    const VideoFormat& f = s.format;
    const CsfFactors factors = csf_factors(s.options);
    for (int n = 0; n < kScales; ++n) plans_[size_t(n)] = scale_plan(f.width, f.height, n, factors);
    DeviceContext& dc = context();
    const cl_program program = this->device().program(kAdmKernelSource, "the adm kernels");
    // In the order of enum Kernel.
    const char* const names[] = {"adm_dwt0",           "adm_dwt_s123_from16", "adm_dwt_s123_from32",
                                 "adm_decouple_s0",    "adm_decouple_s123",   "adm_csf_bands_s0",
                                 "adm_csf_bands_s123", "adm_masking_s0",      "adm_masking_s123",
                                 "adm_denominator_s0", "adm_denominator_s123"};
    static_assert(std::size(names) == kKernels);
    for (size_t k = 0; k < kernels_.size(); ++k) kernels_[k] = dc.kernel(program, names[k]);
    // Powers of two: the tiles' heights and the row kernels' tree sums need them.
    size_t tile = kTileW * kTileH, row = kRowItems;
    for (size_t k = 0; k < kernels_.size(); ++k) {
      if (k < kMaskingS0)
        tile = std::min(tile, work_group_size(kernels_[k].get(), dc.device(), kTileW * kTileH));
      else
        row = std::min(row, work_group_size(kernels_[k].get(), dc.device(), kRowItems));
    }
    tile_h_ = group_rows(tile, kTileW, "the adm kernels");
    row_items_ = row;
    for (int n = 0; n < kScales; ++n) {
      const stages::ScalePlan& p = plans_[size_t(n)];
      Scale& b = scale_[size_t(n)];
      b.band = size_t(p.width) * size_t(p.height);
      const size_t bytes = b.band * (n == 0 ? sizeof(int16_t) : sizeof(int32_t));
      b.ref = dc.buffer(4 * bytes, fmt::format("adm scale {} subbands (reference)", n));
      b.dis = dc.buffer(4 * bytes, fmt::format("adm scale {} subbands (distorted)", n));
      b.restored = dc.buffer(3 * bytes, fmt::format("adm scale {} restored bands", n));
      b.additive = dc.buffer(3 * bytes, fmt::format("adm scale {} additive bands", n));
      b.csf = dc.buffer(3 * bytes, fmt::format("adm scale {} CSF bands", n));
      b.flat = dc.buffer(3 * bytes, fmt::format("adm scale {} flattened CSF bands", n));
      b.rows = empty(p.scored) ? 0 : size_t(p.scored.bottom - p.scored.top);
      b.base = words_;
      words_ += kParts * 3 * b.rows;
    }
    row_words_.resize(std::max<size_t>(words_, 1));
    rows_ = dc.buffer(row_words_.size() * sizeof(cl_ulong), "adm's row sums");
    gain_limit_bits_ = std::bit_cast<uint64_t>(s.options.enhn_gain_limit);
  }

 private:
  enum Kernel {
    kDwt0,
    kDwtFrom16,
    kDwtFrom32,
    kDecoupleS0,
    kDecoupleS123,
    kCsfS0,
    kCsfS123,
    kMaskingS0,  // the row kernels from here
    kMaskingS123,
    kDenominatorS0,
    kDenominatorS123,
    kKernels
  };
  // One scale's images: subbands a, h, v, d of ref and dis; the oriented
  // bands h, v, d of the restored and additive parts and of the masker's CSF
  // and its flattened copy. Its rows' sums are words base + 3 * rows * part
  // + 3 * row + orientation of rows_ (part: den, num, aim_num).
  struct Scale {
    Handle<cl_mem> ref, dis, restored, additive, csf, flat;
    size_t band = 0, rows = 0, base = 0;
  };

  // Runs `kernel` over the w x h items of a region in tiles.
  void run_region(Kernel k, int w, int h, const std::string& what) {
    const size_t global[2] = {round_up(size_t(w), kTileW), round_up(size_t(h), tile_h_)};
    const size_t local[2] = {kTileW, tile_h_};
    context().run(kernels_[k].get(), 2, global, local, what);
  }
  // Runs a row kernel, one work-group a row.
  void run_rows(Kernel k, size_t rows, const std::string& what) {
    const size_t global = rows * row_items_, local = row_items_;
    context().run(kernels_[k].get(), 1, &global, &local, what);
  }

  void dwt0(cl_mem plane, cl_mem out, const char* which) {
    const VideoFormat& f = setup_.format;
    const cl_kernel k = kernels_[kDwt0].get();
    const stages::ScalePlan& p = plans_[0];
    set_args(k, plane, cl_int{f.width}, cl_int{f.height}, cl_int{f.bitdepth == 8},
             cl_int{f.bitdepth}, out, cl_int{p.width}, cl_int{p.height});
    run_region(kDwt0, p.width, p.height, fmt::format("adm_dwt0 ({})", which));
  }

  void dwt_s123(int n, cl_mem src, cl_mem out, const char* which) {
    const Kernel kind = n == 1 ? kDwtFrom16 : kDwtFrom32;
    const cl_kernel k = kernels_[kind].get();
    const stages::ScalePlan& prev = plans_[size_t(n - 1)];
    const stages::ScalePlan& p = plans_[size_t(n)];
    set_args(k, src, cl_int{prev.width}, cl_int{prev.height}, cl_int{n}, out, cl_int{p.width},
             cl_int{p.height});
    run_region(kind, p.width, p.height, fmt::format("adm_dwt_s123, scale {} ({})", n, which));
  }

  // The CSF of `src` over the filter region into the scale's csf and flat bands.
  void csf(int n, cl_mem src) {
    const Scale& s = scale_[size_t(n)];
    const stages::ScalePlan& p = plans_[size_t(n)];
    const Kernel kind = n == 0 ? kCsfS0 : kCsfS123;
    const cl_kernel k = kernels_[kind].get();
    set_args(k, src, cl_int{p.width}, cl_ulong{s.band}, cl_int{p.filter.left}, cl_int{p.filter.top},
             cl_int{p.filter.right}, cl_int{p.filter.bottom}, cl_uint{p.factor[0]},
             cl_uint{p.factor[1]}, cl_uint{p.factor[2]}, s.csf, s.flat);
    run_region(kind, p.filter.right - p.filter.left, p.filter.bottom - p.filter.top,
               fmt::format("adm_csf, scale {}", n));
  }

  // The masking row sums of `src` against the scale's csf and flat bands into part `part`.
  void masking(int n, cl_mem src, Part part) {
    const Scale& s = scale_[size_t(n)];
    const stages::ScalePlan& p = plans_[size_t(n)];
    const Kernel kind = n == 0 ? kMaskingS0 : kMaskingS123;
    const cl_kernel k = kernels_[kind].get();
    set_args(k, src, s.csf, s.flat, cl_int{p.width}, cl_int{p.height}, cl_ulong{s.band},
             cl_int{p.scored.left}, cl_int{p.scored.top}, cl_int{p.scored.right},
             cl_uint{p.factor[0]}, cl_uint{p.factor[1]}, cl_uint{p.factor[2]},
             cl_int{p.cube_shift[0]}, cl_int{p.cube_shift[1]}, cl_int{p.cube_shift[2]},
             cl_long{p.cube_round[0]}, cl_long{p.cube_round[1]}, cl_long{p.cube_round[2]},
             cl_long{p.mask_row_round}, cl_int{p.mask_row_shift}, rows_,
             cl_ulong{s.base + 3 * s.rows * size_t(part)});
    run_rows(kind, s.rows, fmt::format("adm_masking, scale {}", n));
  }

  void denominator(int n) {
    const Scale& s = scale_[size_t(n)];
    const stages::ScalePlan& p = plans_[size_t(n)];
    const Kernel kind = n == 0 ? kDenominatorS0 : kDenominatorS123;
    const cl_kernel k = kernels_[kind].get();
    set_args(k, s.ref, cl_int{p.width}, cl_ulong{s.band}, cl_int{p.scored.left},
             cl_int{p.scored.top}, cl_int{p.scored.right});
    cl_uint a = 6;
    if (n > 0) {
      set_arg(k, a++, cl_int{adm_denominator_square_shift(n)});
      set_arg(k, a++, cl_int{p.den_cube_shift});
      set_arg(k, a++, cl_ulong{p.den_cube_round});
    }
    set_arg(k, a++, cl_ulong{p.den_row_round});
    set_arg(k, a++, cl_int{p.den_row_shift});
    set_arg(k, a++, rows_);
    set_arg(k, a, cl_ulong{s.base + 3 * s.rows * size_t(kDen)});
    run_rows(kind, s.rows, fmt::format("adm_denominator, scale {}", n));
  }

  // Scale n's decoupling, denominator, CSF and masking sums (reference.cpp's
  // sums_scale0 and sums_scale_s123, in their order).
  void score_scale(int n) {
    Scale& s = scale_[size_t(n)];
    const stages::ScalePlan& p = plans_[size_t(n)];
    if (!empty(p.filter)) {
      const Kernel kind = n == 0 ? kDecoupleS0 : kDecoupleS123;
      const cl_kernel k = kernels_[kind].get();
      set_args(k, s.ref, s.dis, cl_int{p.width}, cl_ulong{s.band}, cl_int{p.filter.left},
               cl_int{p.filter.top}, cl_int{p.filter.right}, cl_int{p.filter.bottom},
               cl_ulong{gain_limit_bits_}, s.restored, s.additive);
      run_region(kind, p.filter.right - p.filter.left, p.filter.bottom - p.filter.top,
                 fmt::format("adm_decouple, scale {}", n));
    }
    if (s.rows == 0) return;
    denominator(n);
    // Numerator and AIM: each part measured against the other's CSF.
    if (!empty(p.filter)) csf(n, s.additive.get());
    masking(n, s.restored.get(), kNum);
    if (setup_.options.skip_aim) return;
    if (!empty(p.filter)) csf(n, s.restored.get());
    masking(n, s.additive.get(), kAim);
  }

  void score_frame(const DeviceFrame& f, std::span<AdmSums> values) override {
    DeviceContext& dc = context();
    const std::array<cl_mem, 2> luma = device().plane(f, 0);
    // Scale 0's DWT computes every subband even with adm_skip_scale0 (the
    // reference then keeps only a; the others are not read).
    dwt0(luma[0], scale_[0].ref.get(), "reference");
    dwt0(luma[1], scale_[0].dis.get(), "distorted");
    if (!setup_.options.skip_scale0) score_scale(0);
    for (int n = 1; n < kScales; ++n) {
      dwt_s123(n, scale_[size_t(n - 1)].ref.get(), scale_[size_t(n)].ref.get(), "reference");
      dwt_s123(n, scale_[size_t(n - 1)].dis.get(), scale_[size_t(n)].dis.get(), "distorted");
      score_scale(n);
    }
    dc.read(rows_.get(), row_words_.size() * sizeof(cl_ulong), row_words_.data(), "adm's row sums");
    AdmSums sums{};
    for (int n = 0; n < kScales; ++n) {
      const Scale& s = scale_[size_t(n)];
      if (s.rows == 0 || (n == 0 && setup_.options.skip_scale0)) continue;
      std::array<std::array<uint64_t, 3>, kParts> total{};
      for (size_t part = 0; part < kParts; ++part) {
        if (part == kAim && setup_.options.skip_aim) continue;
        const cl_ulong* w = row_words_.data() + s.base + 3 * s.rows * part;
        for (size_t r = 0; r < s.rows; ++r)
          for (size_t b = 0; b < 3; ++b) total[part][b] += w[3 * r + b];  // modulo 2^64
      }
      ScaleSums& out = sums[size_t(n)];
      for (size_t b = 0; b < 3; ++b) {
        out.den[b] = total[kDen][b];
        out.num[b] = int64_t(total[kNum][b]);
        out.aim_num[b] = int64_t(total[kAim][b]);
      }
    }
    values[0] = sums;
  }

  EngineSetup setup_;
  std::array<stages::ScalePlan, kScales> plans_{};
  std::array<Handle<cl_kernel>, kKernels> kernels_;
  size_t tile_h_ = 1, row_items_ = 1;
  std::array<Scale, kScales> scale_;
  Handle<cl_mem> rows_;
  size_t words_ = 0;
  std::vector<cl_ulong> row_words_;
  uint64_t gain_limit_bits_ = 0;
};

}  // namespace

std::unique_ptr<Engine> make_engine(Device& device, const EngineSetup& setup) {
  return std::make_unique<OpenclEngine>(setup, OpenclDevice::of(device));
}

}  // namespace exactvq::adm::opencl
