// float_ssim's engine rows (engine_matrix.h): every mean of every scale of
// every frame, all four means asked for (float_ssim.means: one scale, box
// filtered as the size asks; float_ms_ssim.means: five), at each depth libvmaf
// converts (others, and MS-SSIM under 176, have no value: no bytes).
#include <span>
#include <vector>

#include <fmt/format.h>

#include "engine_matrix.h"
#include "metrics/float_ssim/engine.h"
#include "metrics/float_ssim/reference.h"

namespace exactvq::twins {
namespace {

// Small sizes at every depth; MS-SSIM's sizes (176 and more) at fewer, to keep
// the scalar reference's time in CI to seconds.
std::vector<Case> float_ssim_cases() {
  struct Size {
    int w, h;
    std::vector<int> depths;
  };
  const std::vector<int> every = {8, 10, 12, 16};
  const Size sizes[] = {{1, 1, every},       {18, 10, every}, {10, 18, every},  {11, 11, every},
                        {17, 9, every},      {33, 31, every}, {129, 33, every}, {176, 176, every},
                        {203, 181, {8, 12}}, {390, 385, {10}}};
  std::vector<Case> all;
  for (const Size& s : sizes)
    for (int bits : s.depths) {
      Case c;
      c.seed = case_seed(0x5eed'f55e, all.size());
      c.width = s.w;
      c.height = s.h;
      c.bits = bits;
      c.a = s.w * s.h > 30'000 ? 2 : 3;
      c.what = fmt::format("{} frames of {}x{} {}-bit", c.a, s.w, s.h, bits);
      all.push_back(c);
    }
  return all;
}

template <bool kMultiscale>
struct FloatSsimMeans {
  using Setup = float_ssim::EngineSetup;
  static constexpr const char* kName = kMultiscale ? "float_ms_ssim.means" : "float_ssim.means";
  static std::vector<Case> cases() { return float_ssim_cases(); }
  static Setup setup(const Case& c) {
    Setup s;
    s.format = VideoFormat{c.width, c.height, ChromaFormat::k420, c.bits};
    s.multiscale = kMultiscale;
    s.factor = kMultiscale ? 1 : float_ssim::ssim_scale(c.width, c.height, 0);
    s.ssim_mean = s.lcs_means = true;
    return s;
  }
  static bool scores(const Setup& s) {
    const VideoFormat& f = s.format;
    return float_ssim::converts_bit_depth(f.bitdepth) &&
           (!kMultiscale ||
            (f.width >= float_ssim::kMsSsimMinSide && f.height >= float_ssim::kMsSsimMinSide));
  }
  static void reference(const FramePairs& in, size_t i, const Setup& s,
                        std::span<float_ssim::FrameMeans> out) {
    const PlaneView r = in.pairs[i].ref->plane(0), d = in.pairs[i].dist->plane(0);
    const int bits = s.format.bitdepth;
    const float_ssim::FloatSsimStages& stages = float_ssim::kReferenceStages;
    if constexpr (kMultiscale)
      out[0].scales = float_ssim::float_ms_ssim_means(r, d, bits, stages);
    else
      out[0].scales[0] = float_ssim::float_ssim_means(r, d, bits, s.factor, stages);
  }
  // The scales the metric has.
  static void put_values(Bytes& out, std::span<const float_ssim::FrameMeans> v, const Setup&) {
    for (const float_ssim::FrameMeans& m : v)
      put(out, m.scales.data(), kMultiscale ? m.scales.size() : 1);
  }
};

EXACTVQ_TWIN_ROWS(float_ssim_engine_rows) {
  register_engine_rows<FloatSsimMeans<false>>();
  register_engine_rows<FloatSsimMeans<true>>();
}

}  // namespace
}  // namespace exactvq::twins
