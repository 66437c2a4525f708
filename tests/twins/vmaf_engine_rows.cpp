// Rows of VMAF's per-pixel engines on CUDA with their binary64 steps native
// and emulated (fp64=native, fp64=emulate): vif's level sums and adm's integer
// sums. Each case is a batch of frame pairs, numbered as a run numbers them,
// and its first pair again alone (a loose pair), compared with the scalar
// reference's sums. Without a GPU the rows are unavailable (no CI time).
#include <memory>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "backends/device.h"
#include "core/error.h"
#include "core/thread_pool.h"
#include "cuda_twin_device.h"
#include "frame_pairs.h"
#include "metrics/adm/engine.h"
#include "metrics/adm/reference.h"
#include "metrics/adm/row_kernels.h"
#include "metrics/vif/engine.h"
#include "metrics/vif/reference.h"
#include "twin_table.h"

namespace exactvq::twins {
namespace {

ThreadPool& pool() {
  static ThreadPool p(2);
  return p;
}

// What differs between vif and adm: the engine, its sums, the reference.
struct VifTraits {
  using Options = vif::VifOptions;
  using Sums = vif::VifLevelSums;
  static constexpr const char* kName = "vif.level_sums";
  static Options options(bool gain_limit_1) {
    Options o;
    if (gain_limit_1) o.gain_limit = 1.0;
    return o;
  }
  static void engine_sums(Device& d, const VideoFormat& f, const Options& o, std::span<const FramePair> pairs,
                          std::vector<Sums>& out) {
    vif::make_engine(d, vif::EngineSetup{f, o, &pool()})->score(pairs, out);
  }
  static Sums reference(const FramePair& p, int bits, const Options& o) {
    return vif::vif_level_sums(p.ref->plane(0), p.dist->plane(0), bits, o, vif::kReferenceStages);
  }
  static std::vector<std::pair<int, int>> sizes() {
    return {{16, 16}, {17, 19}, {33, 18}, {64, 64}, {127, 65}, {250, 130}, {15, 40}, {40, 15}};
  }
};

struct AdmTraits {
  using Options = adm::AdmOptions;
  using Sums = adm::AdmSums;
  static constexpr const char* kName = "adm.integer_sums";
  static Options options(bool gain_limit_1) {
    Options o;
    if (gain_limit_1) o.enhn_gain_limit = 1.0;
    return o;
  }
  static void engine_sums(Device& d, const VideoFormat& f, const Options& o, std::span<const FramePair> pairs,
                          std::vector<Sums>& out) {
    adm::make_engine(d, adm::EngineSetup{f, o, &pool()})->score(pairs, out);
  }
  static Sums reference(const FramePair& p, int bits, const Options& o) {
    return adm::adm_integer_sums(p.ref->plane(0), p.dist->plane(0), bits, o, adm::reference_row_kernels());
  }
  static std::vector<std::pair<int, int>> sizes() {
    return {{33, 33}, {34, 33}, {35, 37}, {65, 33}, {127, 65}, {161, 90}, {250, 130}};
  }
};

// Sizes at 8, 10, 12 and 16 bits, three frames each, the gain limit 100 or 1
// in turn; then 1080p at 8 and 10 bits, two frames (timed).
template <typename Traits>
std::vector<Case> cases() {
  std::vector<Case> all;
  auto add = [&](int w, int h, int bits, int frames, bool timed) {
    Case c;
    c.seed = case_seed(0x7a1f'0e64, all.size());
    c.width = w;
    c.height = h;
    c.bits = bits;
    c.a = frames;
    c.b = int(all.size() % 2);  // 1: gain limit 1
    c.timed = timed;
    c.what = fmt::format("{} frames of {}x{} {}-bit, gain limit {}", frames, w, h, bits, c.b ? 1 : 100);
    all.push_back(c);
  };
  for (const auto& [w, h] : Traits::sizes())
    for (const int bits : {8, 10, 12, 16}) add(w, h, bits, 3, false);
  for (const int bits : {8, 10}) add(1920, 1080, bits, 2, true);
  return all;
}

template <typename Traits>
Row engine_row(Fp64Mode fp64) {
  Row r;
  const bool emulate = fp64 == Fp64Mode::kEmulate;
  r.name = std::string(Traits::kName) + (emulate ? "/cuda-emulate" : "/cuda-native");
  r.reference_key = Traits::kName;
  r.unavailable = [] { return cuda_device().why; };
  r.cases = cases<Traits>;
  r.prepare = [fp64](const Case& c) {
    const VideoFormat f{c.width, c.height, ChromaFormat::kMono, c.bits};
    auto in = std::make_shared<FramePairs>(f, c.a, c.seed);
    typename Traits::Options o = Traits::options(c.b == 1);
    Prepared p;
    p.twin = [in, o, fp64] {
      typename Traits::Options with_mode = o;
      with_mode.fp64 = fp64;
      Bytes out;
      std::vector<typename Traits::Sums> sums(in->pairs.size());
      Traits::engine_sums(*cuda_device().device, in->format, with_mode, in->pairs, sums);
      put(out, sums);
      const FramePair loose{in->pairs[0].ref, in->pairs[0].dist, FramePair::kLoose};
      std::vector<typename Traits::Sums> one(1);
      Traits::engine_sums(*cuda_device().device, in->format, with_mode, {&loose, 1}, one);
      put(out, one);
      return out;
    };
    p.reference = [in, o] {
      Bytes out;
      std::vector<typename Traits::Sums> sums;
      for (const FramePair& pair : in->pairs) sums.push_back(Traits::reference(pair, in->format.bitdepth, o));
      sums.push_back(sums[0]);  // the loose pair
      put(out, sums);
      return out;
    };
    return p;
  };
  r.work = [](const Case& c) { return double(c.width) * c.height * (c.a + 1); };  // batch and loose pair
  return r;
}

EXACTVQ_TWIN_ROWS(vmaf_engine_rows) {
  for (const Fp64Mode mode : {Fp64Mode::kNative, Fp64Mode::kEmulate}) {
    register_row(engine_row<VifTraits>(mode));
    register_row(engine_row<AdmTraits>(mode));
  }
}

}  // namespace
}  // namespace exactvq::twins
