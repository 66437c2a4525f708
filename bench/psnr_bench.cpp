// What psnr costs beside ssim: one 1080p 8-bit 4:2:0 frame pair scored by the
// ssim feature alone and by ssim and psnr together (one thread), and the SSE of
// a luma plane by the scalar reference and by each SIMD target.
#include <benchmark/benchmark.h>

#include <random>
#include <vector>

#include "core/picture.h"
#include "backends/cpu/simd_targets.h"
#include "metrics/feature.h"
#include "metrics/registry.h"
#include "metrics/psnr/sse.h"

namespace {

using namespace exactvq;

// A smooth gradient with noise, and a distorted copy with more noise.
struct FramePairData {
  VideoFormat format;
  Picture ref, dist;

  FramePairData(int w, int h, int bits) : format{w, h, ChromaFormat::k420, bits} {
    ref.allocate(format);
    dist.allocate(format);
    std::mt19937 rng(1234);
    const uint32_t max = format.max_sample();
    for (int p = 0; p < format.plane_count(); ++p) {
      const int pw = format.plane_width(p), ph = format.plane_height(p);
      for (int y = 0; y < ph; ++y)
        for (int x = 0; x < pw; ++x) {
          const uint32_t base = uint32_t(uint64_t(x + y) * max / uint64_t(pw + ph));
          const uint32_t s = std::min<uint32_t>(max, base + uint32_t(rng()) % (max / 16 + 1));
          const uint32_t t = std::min<uint32_t>(max, s + uint32_t(rng()) % (max / 32 + 1));
          const size_t i = size_t(y) * pw + x;
          if (bits > 8) {
            reinterpret_cast<uint16_t*>(ref.plane_data(p))[i] = uint16_t(s);
            reinterpret_cast<uint16_t*>(dist.plane_data(p))[i] = uint16_t(t);
          } else {
            ref.plane_data(p)[i] = uint8_t(s);
            dist.plane_data(p)[i] = uint8_t(t);
          }
        }
    }
  }
};

const FramePairData& frame_1080p_8bit() {
  static const FramePairData data(1920, 1080, 8);
  return data;
}

// Scores the frame pair with each of `features` per iteration, as a run does.
void score_with(benchmark::State& state, const std::vector<const char*>& features) {
  const FramePairData& f = frame_1080p_8bit();
  const FeatureContext ctx{f.format, nullptr, nullptr};
  std::vector<std::unique_ptr<Feature>> made;
  std::vector<std::vector<double>> out;
  for (const char* spec : features) {
    made.push_back(make_feature(parse_feature_spec(spec), ctx));
    out.emplace_back(made.back()->outputs().size());
  }
  for (auto _ : state)
    for (size_t k = 0; k < made.size(); ++k) {
      made[k]->extract(f.ref, f.dist, out[k]);
      benchmark::DoNotOptimize(out[k].data());
    }
  state.counters["fps"] = benchmark::Counter(double(state.iterations()), benchmark::Counter::kIsRate);
}

void BM_Ssim(benchmark::State& state) { score_with(state, {"ssim"}); }
void BM_SsimAndPsnr(benchmark::State& state) { score_with(state, {"ssim", "psnr"}); }
void BM_Psnr(benchmark::State& state) { score_with(state, {"psnr"}); }

void BM_SseScalarLuma(benchmark::State& state) {
  const FramePairData& f = frame_1080p_8bit();
  const PlaneView r = f.ref.plane(0), d = f.dist.plane(0);
  for (auto _ : state) benchmark::DoNotOptimize(psnr::sse_reference(r, d, 0, r.height));
}

void BM_SseSimdLuma(benchmark::State& state, int64_t target) {
  const FramePairData& f = frame_1080p_8bit();
  const PlaneView r = f.ref.plane(0), d = f.dist.plane(0);
  cpu::ForcedTarget forced(target);
  for (auto _ : state) benchmark::DoNotOptimize(psnr::sse(r, d, 0, r.height));
}

BENCHMARK(BM_Ssim)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_SsimAndPsnr)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Psnr)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_SseScalarLuma)->Unit(benchmark::kMicrosecond);

}  // namespace

int main(int argc, char** argv) {
  for (const auto& t : exactvq::cpu::supported_targets())
    benchmark::RegisterBenchmark(("BM_SseSimdLuma/" + t.name).c_str(), BM_SseSimdLuma, t.bits)
        ->Unit(benchmark::kMicrosecond);
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
