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
  using Engine = adm::Engine;
  using Setup = adm::EngineSetup;
  static constexpr const char* kName = "adm.integer_sums";
  static constexpr bool kFp64Option = true;
  static std::vector<Case> cases() {
    static const char* const gain_limits[2] = {", gain limit 100", ", gain limit 1"};
    return luma_cases({{33, 33}, {34, 33}, {35, 37}, {65, 33}, {127, 65}, {161, 90}, {250, 130}}, gain_limits);
  }
  static Setup setup(const Case& c, Fp64Mode fp64, ThreadPool* pool) {
    Setup s{VideoFormat{c.width, c.height, ChromaFormat::kMono, c.bits}, {}, pool};
    if (c.b == 1) s.options.enhn_gain_limit = 1.0;
    s.options.fp64 = fp64;
    return s;
  }
  static size_t per_frame(const Setup&) { return 1; }
  static bool scores(const Setup&) { return true; }
  static void reference(const FramePairs& in, size_t i, const Setup& s, std::span<adm::AdmSums> out) {
    out[0] = adm::adm_integer_sums(in.pairs[i].ref->plane(0), in.pairs[i].dist->plane(0), s.format.bitdepth,
                                   s.options, adm::reference_row_kernels());
  }
  static void put_values(Bytes& out, std::span<const adm::AdmSums> v, const Setup&) { put(out, v.data(), v.size()); }
};

EXACTVQ_TWIN_ROWS(adm_engine_rows) { register_engine_rows<AdmIntegerSums>(); }

}  // namespace
}  // namespace exactvq::twins
