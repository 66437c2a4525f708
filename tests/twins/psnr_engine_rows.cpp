// psnr's engine rows (engine_matrix.h): each plane's sum of squared errors of
// every frame, in every chroma format.
#include <cstdint>
#include <span>
#include <vector>

#include "engine_cases.h"
#include "engine_matrix.h"
#include "metrics/psnr/engine.h"
#include "metrics/psnr/sse.h"

namespace exactvq::twins {
namespace {

struct PsnrSse {
  using Setup = psnr::EngineSetup;
  static constexpr const char* kName = "psnr.sse";
  static std::vector<Case> cases() { return every_format_cases(); }
  static Setup setup(const Case& c) {
    const VideoFormat f = every_format_of(c);
    return Setup{f, f.plane_count()};
  }
  static void reference(const FramePairs& in, size_t i, const Setup& s, std::span<uint64_t> out) {
    for (int p = 0; p < s.planes; ++p) {
      const PlaneView r = in.pairs[i].ref->plane(p), d = in.pairs[i].dist->plane(p);
      out[size_t(p)] = psnr::sse_reference(r, d, 0, r.height);
    }
  }
};

EXACTVQ_TWIN_ROWS(psnr_engine_rows) { register_engine_rows<PsnrSse>(); }

}  // namespace
}  // namespace exactvq::twins
