// psnr_hvs's engine rows (engine_matrix.h): each plane's binary32 error sum of
// every frame, in 4:2:0, 4:2:2 and 4:4:4 up to 12 bits (the feature refuses
// monochrome and deeper input before an engine is made): every SIMD target,
// three CPU devices as one, /cuda (binary64 square root native; psnr_hvs has no
// fp64 option) and /opencl (its divisions and square root the device's where it
// rounds them correctly on request, as PoCL does, else softfp's; both programs:
// tests/metrics/psnr_hvs/device_test.cpp).
#include <span>
#include <vector>

#include "engine_cases.h"
#include "engine_matrix.h"
#include "metrics/psnr_hvs/engine.h"
#include "metrics/psnr_hvs/reference.h"

namespace exactvq::twins {
namespace {

struct PsnrHvsErrorSums {
  using Setup = psnr_hvs::EngineSetup;
  static constexpr const char* kName = "psnr_hvs.error_sums";
  static std::vector<Case> cases() {
    std::vector<Case> all = every_format_cases();
    std::erase_if(all, [](const Case& c) {
      return c.bits > psnr_hvs::kMaxBitdepth || kChromas[c.fill] == ChromaFormat::kMono;
    });
    return all;
  }
  static Setup setup(const Case& c) { return Setup{every_format_of(c), 3}; }
  static void reference(const FramePairs& in, size_t i, const Setup& s, std::span<float> out) {
    for (int p = 0; p < s.planes; ++p)
      out[size_t(p)] = psnr_hvs::plane_error_sum_reference(in.pairs[i].ref->plane(p),
                                                           in.pairs[i].dist->plane(p), p);
  }
};

EXACTVQ_TWIN_ROWS(psnr_hvs_engine_rows) { register_engine_rows<PsnrHvsErrorSums>(); }

}  // namespace
}  // namespace exactvq::twins
