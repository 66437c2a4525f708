// cambi's engine rows (engine_matrix.h): each frame's five pooled scale
// values of the distorted picture, and of the reference with full_ref
// (case.b), on every device: the CPU's targets, three CPUs as one, CUDA
// (one row: nothing on a device is binary64, so there is no fp64 option)
// and OpenCL; the 1080p cases with the high-resolution speed-up. Banded
// pictures under every option are device_test.cpp's. cambi.scale_scores_topk:
// the same at topk 1 (k = n: every scale pools from the device's pool
// records) and 0.0001 (k of 1 to 18: scales with more positive values read
// their values back), the device pooling's two paths.
#include <span>
#include <vector>

#include "engine_cases.h"
#include "engine_matrix.h"
#include "metrics/cambi/engine.h"
#include "metrics/cambi/reference.h"

namespace exactvq::twins {
namespace {

const char* const kFullRef[2] = {"", ", full_ref"};

struct CambiScales {
  using Setup = cambi::EngineSetup;
  static constexpr const char* kName = "cambi.scale_scores";
  static std::vector<Case> cases() {
    return luma_cases({{216, 216}, {300, 217}, {217, 40}, {333, 250}}, kFullRef, 3, 1);
  }
  static Setup setup(const Case& c) {
    cambi::CambiOptions o;
    o.full_ref = c.b == 1;
    // The 1920x1080 cases with the speed-up (as vmaf_v1.0.16_3d0h asks), which halves scale 0
    // and takes the mask decimated (at 10 bits, from the picture itself).
    if (c.width == 1920) o.high_res_speedup = 1080;
    const VideoFormat f = luma_format(c);
    const cambi::CambiSetup s = cambi::make_cambi_setup(o, f);
    return Setup{f, s, nullptr, o.full_ref ? 2 * cambi::kScales : cambi::kScales};
  }
  static void reference(const FramePairs& in, size_t i, const Setup& s, std::span<double> out) {
    const auto dist = cambi::scale_scores(in.pairs[i].dist->plane(0), s.cambi, s.cambi.distorted);
    std::copy(dist.begin(), dist.end(), out.begin());
    if (!s.cambi.full_ref) return;
    const auto ref = cambi::scale_scores(in.pairs[i].ref->plane(0), s.cambi, s.cambi.source);
    std::copy(ref.begin(), ref.end(), out.begin() + cambi::kScales);
  }
};

const char* const kTopk[2] = {", topk 1", ", topk 0.0001"};

struct CambiScalesTopk : CambiScales {
  static constexpr const char* kName = "cambi.scale_scores_topk";
  static std::vector<Case> cases() {
    return luma_cases({{216, 216}, {333, 250}, {640, 360}}, kTopk, 2, 1);
  }
  static Setup setup(const Case& c) {
    cambi::CambiOptions o;
    o.full_ref = true;
    o.topk = c.b == 0 ? 1.0 : 0.0001;
    if (c.width == 1920) o.high_res_speedup = 1080;
    const VideoFormat f = luma_format(c);
    const cambi::CambiSetup s = cambi::make_cambi_setup(o, f);
    return Setup{f, s, nullptr, 2 * cambi::kScales};
  }
};

EXACTVQ_TWIN_ROWS(cambi_engine_rows) {
  register_engine_rows<CambiScales>();
  register_engine_rows<CambiScalesTopk>();
}

}  // namespace
}  // namespace exactvq::twins
