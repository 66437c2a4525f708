// The whole scoring path on tiny frames, with oracles:
// - the scalar reference equals a per-pixel transcription of spec/ssim.md bit for bit,
//   in both modes;
// - `exact` and `raster` agree within 1e-11;
// - any partition of a plane into rects sums to the whole plane's exact sum;
// - every SIMD target compiled in and supported here (Highway, forced one by one)
//   returns the scalar reference's bits: exact sums of every rect, both scores;
// - psnr's sum of squared errors: the scalar reference and every SIMD target equal a
//   plain sum, over the whole plane and over two row bands;
// - the ssim feature, on one thread and on a pool, returns the reference's bits;
// - scores are finite and within [-1, 1] (up to rounding).
//
// Input: bytes 0..3 choose width, height, bit depth, chroma format and the split;
// the rest are the samples of the reference then the distorted frame (cycled).
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "core/thread_pool.h"
#include "backends/cpu/simd_targets.h"
#include "metrics/ssim/cpu/ssim_simd.h"
#include "metrics/feature.h"
#include "metrics/registry.h"
#include "fuzz_check.h"
#include "metrics/psnr/sse.h"
#include "metrics/ssim/reference.h"
#include "ssim_definition.h"

using namespace exactvq;

namespace {

bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

// Fills both pictures from `bytes`, cycling; samples are taken modulo 2^bitdepth.
void fill(Picture& ref, Picture& dist, const uint8_t* bytes, size_t n) {
  const VideoFormat& f = ref.format;
  const uint32_t max = f.max_sample();
  size_t at = 0;
  const auto next = [&]() -> uint32_t {
    if (n == 0) return 0;
    const uint32_t v = bytes[at % n];
    ++at;
    return v;
  };
  for (Picture* pic : {&ref, &dist}) {
    for (int p = 0; p < f.plane_count(); ++p) {
      const size_t count = size_t(f.plane_width(p)) * size_t(f.plane_height(p));
      uint8_t* data = pic->plane_data(p);
      for (size_t i = 0; i < count; ++i) {
        if (f.bytes_per_sample() == 1) {
          data[i] = uint8_t(next());
        } else {
          const uint32_t lo = next();
          const auto v = uint16_t(((next() << 8) | lo) & max);
          std::memcpy(data + 2 * i, &v, 2);
        }
      }
    }
  }
}

std::vector<double> feature_scores(const char* spec, const VideoFormat& f, ThreadPool* pool,
                                   const Picture& ref, const Picture& dist) {
  FeatureContext ctx;
  ctx.format = f;
  ctx.pool = pool;
  const auto feature = make_feature(parse_feature_spec(spec), ctx);
  std::vector<double> out(feature->outputs().size());
  feature->extract(ref, dist, out);
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 4) return 0;
  VideoFormat f;
  f.width = 1 + data[0] % 24;
  f.height = 1 + data[1] % 24;
  f.bitdepth = 8 + data[2] % 9;
  f.chroma = ChromaFormat(data[3] % 4);
  const int cut = data[3] >> 2;  // where the plane is split into four rects
  Picture ref, dist;
  ref.allocate(f);
  dist.allocate(f);
  fill(ref, dist, data + 4, size - 4);

  std::vector<double> exact(size_t(f.plane_count())), raster(exact.size());
  for (int p = 0; p < f.plane_count(); ++p) {
    const PlaneView r = ref.plane(p), d = dist.plane(p);
    exact[size_t(p)] = ssim::score_exact(r, d, f.bitdepth);
    raster[size_t(p)] = ssim::score_raster(r, d, f.bitdepth);
    const double e = exact[size_t(p)], ra = raster[size_t(p)];
    FUZZ_CHECK(std::isfinite(e) && std::isfinite(ra));
    FUZZ_CHECK(e >= -1 - 1e-9 && e <= 1 + 1e-9, "plane %d exact %.17g", p, e);
    FUZZ_CHECK(std::fabs(e - ra) <= 1e-11, "plane %d exact %.17g raster %.17g", p, e, ra);

    const fuzz::DefinitionScore def = fuzz::definition_score(r, d, f.bitdepth);
    FUZZ_CHECK(same_bits(def.exact.score(), e), "plane %d definition %.17g reference %.17g", p,
               def.exact.score(), e);
    FUZZ_CHECK(same_bits(def.raster, ra), "plane %d definition %.17g reference %.17g", p,
               def.raster, ra);

    const int cx = cut % (r.width + 1), cy = (cut / 3) % (r.height + 1);
    ssim::ExactSum parts;
    for (const ssim::Rect rect :
         {ssim::Rect{0, 0, cx, cy}, ssim::Rect{cx, 0, r.width, cy}, ssim::Rect{0, cy, cx, r.height},
          ssim::Rect{cx, cy, r.width, r.height}})
      parts += ssim::exact_sum(r, d, f.bitdepth, rect);
    FUZZ_CHECK(parts == def.exact, "plane %d split at x=%d y=%d", p, cx, cy);

    uint64_t plain_sse = 0;
    for (int y = 0; y < r.height; ++y)
      for (int x = 0; x < r.width; ++x) {
        const auto diff = int64_t(fuzz::sample_at(r, x, y)) - int64_t(fuzz::sample_at(d, x, y));
        plain_sse += uint64_t(diff * diff);
      }
    FUZZ_CHECK(psnr::sse_reference(r, d, 0, r.height) == plain_sse, "plane %d", p);
    FUZZ_CHECK(
        psnr::sse_reference(r, d, 0, cy) + psnr::sse_reference(r, d, cy, r.height) == plain_sse,
        "plane %d band at y=%d", p, cy);

    static const std::vector<cpu::SimdTarget> targets = cpu::supported_targets();
    for (const cpu::SimdTarget& target : targets) {
      const cpu::ForcedTarget forced(target.bits);
      const char* name = target.name.c_str();
      FUZZ_CHECK(same_bits(cpu::score_exact(r, d, f.bitdepth), e), "%s plane %d", name, p);
      FUZZ_CHECK(same_bits(cpu::score_raster(r, d, f.bitdepth), ra), "%s plane %d", name, p);
      ssim::ExactSum simd_parts;
      for (const ssim::Rect rect :
           {ssim::Rect{0, 0, cx, cy}, ssim::Rect{cx, 0, r.width, cy},
            ssim::Rect{0, cy, cx, r.height}, ssim::Rect{cx, cy, r.width, r.height}})
        simd_parts += cpu::exact_sum(r, d, f.bitdepth, rect);
      FUZZ_CHECK(simd_parts == def.exact, "%s plane %d split at x=%d y=%d", name, p, cx, cy);
      FUZZ_CHECK(psnr::sse(r, d, 0, r.height) == plain_sse, "%s plane %d sse", name, p);
      FUZZ_CHECK(psnr::sse(r, d, 0, cy) + psnr::sse(r, d, cy, r.height) == plain_sse,
                 "%s plane %d sse band at y=%d", name, p, cy);
    }
  }

  static ThreadPool pool(3);
  const bool chroma = f.chroma != ChromaFormat::kMono;
  const char* exact_spec = chroma ? "ssim=chroma=true" : "ssim";
  const char* raster_spec = chroma ? "ssim=sum=raster:chroma=true" : "ssim=sum=raster";
  for (ThreadPool* on : {static_cast<ThreadPool*>(nullptr), &pool}) {
    const std::vector<double> fe = feature_scores(exact_spec, f, on, ref, dist);
    const std::vector<double> fr = feature_scores(raster_spec, f, on, ref, dist);
    for (size_t p = 0; p < exact.size(); ++p) {
      FUZZ_CHECK(same_bits(fe[p], exact[p]), "feature plane %zu", p);
      FUZZ_CHECK(same_bits(fr[p], raster[p]), "feature plane %zu", p);
    }
  }
  return 0;
}
