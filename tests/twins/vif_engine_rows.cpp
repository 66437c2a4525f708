// vif's engine rows (engine_matrix.h): each pyramid level's integer sums of
// every frame's luma plane, the gain limit 100 (libvmaf's default) or 1.
#include <span>
#include <vector>

#include "engine_cases.h"
#include "engine_matrix.h"
#include "metrics/vif/engine.h"
#include "metrics/vif/reference.h"

namespace exactvq::twins {
namespace {

struct VifLevelSums {
  using Setup = vif::EngineSetup;
  static constexpr const char* kName = "vif.level_sums";
  static std::vector<Case> cases() {
    static const char* const gain_limits[2] = {", gain limit 100", ", gain limit 1"};
    return luma_cases(
        {{16, 16}, {17, 19}, {33, 18}, {64, 64}, {127, 65}, {250, 130}, {15, 40}, {40, 15}},
        gain_limits);
  }
  static Setup setup(const Case& c) {
    Setup s;
    s.format = luma_format(c);
    if (c.b == 1) s.options.gain_limit = 1.0;
    return s;
  }
  static void reference(const FramePairs& in, size_t i, const Setup& s,
                        std::span<vif::VifLevelSums> out) {
    out[0] = vif::vif_level_sums(in.pairs[i].ref->plane(0), in.pairs[i].dist->plane(0),
                                 s.format.bitdepth, s.options, vif::kReferenceStages);
  }
};

EXACTVQ_TWIN_ROWS(vif_engine_rows) { register_engine_rows<VifLevelSums>(); }

}  // namespace
}  // namespace exactvq::twins
