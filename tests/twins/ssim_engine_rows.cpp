// ssim's engine rows (engine_matrix.h): each scored plane's sum of every frame,
// the exact fixed-point sum (ssim.exact_sums) and libvmaf's raster-order sum
// (ssim.raster_sums), in every chroma format.
#include <span>
#include <vector>

#include "engine_cases.h"
#include "engine_matrix.h"
#include "metrics/ssim/engine.h"
#include "metrics/ssim/reference.h"

namespace exactvq::twins {
namespace {

template <ssim::SumMode kMode>
struct SsimSums {
  using Setup = ssim::EngineSetup;
  static constexpr bool kExact = kMode == ssim::SumMode::kExact;
  static constexpr const char* kName = kExact ? "ssim.exact_sums" : "ssim.raster_sums";
  static std::vector<Case> cases() { return every_format_cases(); }
  static Setup setup(const Case& c) {
    const VideoFormat f = every_format_of(c);
    return Setup{f, f.plane_count(), kMode};
  }
  static void reference(const FramePairs& in, size_t i, const Setup& s,
                        std::span<ssim::PlaneSum> out) {
    for (int p = 0; p < s.planes; ++p) {
      const PlaneView r = in.pairs[i].ref->plane(p), d = in.pairs[i].dist->plane(p);
      if constexpr (kExact)
        out[size_t(p)].exact = ssim::exact_sum(r, d, s.format.bitdepth, ssim::whole(r)).sum_q;
      else
        out[size_t(p)].raster = ssim::raster_sum(r, d, s.format.bitdepth);
    }
  }
  // The sum the mode sets, alone.
  static void put_values(Bytes& out, std::span<const ssim::PlaneSum> v, const Setup&) {
    for (const ssim::PlaneSum& s : v) {
      if constexpr (kExact)
        put(out, &s.exact, 1);
      else
        put(out, &s.raster, 1);
    }
  }
};

EXACTVQ_TWIN_ROWS(ssim_engine_rows) {
  register_engine_rows<SsimSums<ssim::SumMode::kExact>>();
  register_engine_rows<SsimSums<ssim::SumMode::kRaster>>();
}

}  // namespace
}  // namespace exactvq::twins
