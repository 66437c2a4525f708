// adm's engine rows (engine_matrix.h): each scale's integer sums of every
// frame's luma plane, the enhancement gain limit 100 (libvmaf's default) or 1.
#include <span>
#include <vector>

#include "engine_cases.h"
#include "engine_matrix.h"
#include "metrics/adm/engine.h"
#include "metrics/adm/reference.h"
#include "metrics/adm/row_kernels.h"

namespace exactvq::twins {
namespace {

struct AdmIntegerSums {
  using Setup = adm::EngineSetup;
  static constexpr const char* kName = "adm.integer_sums";
  static std::vector<Case> cases() {
    static const char* const gain_limits[2] = {", gain limit 100", ", gain limit 1"};
    return luma_cases({{33, 33}, {34, 33}, {35, 37}, {65, 33}, {127, 65}, {161, 90}, {250, 130}},
                      gain_limits);
  }
  static Setup setup(const Case& c) {
    Setup s;
    s.format = luma_format(c);
    if (c.b == 1) s.options.enhn_gain_limit = 1.0;
    return s;
  }
  static void reference(const FramePairs& in, size_t i, const Setup& s,
                        std::span<adm::AdmSums> out) {
    out[0] = adm::adm_integer_sums(in.pairs[i].ref->plane(0), in.pairs[i].dist->plane(0),
                                   s.format.bitdepth, s.options, adm::reference_row_kernels());
  }
};

EXACTVQ_TWIN_ROWS(adm_engine_rows) { register_engine_rows<AdmIntegerSums>(); }

}  // namespace
}  // namespace exactvq::twins
