// Per-plane cost of the scalar reference (megapixels/s and frames/s of luma).
#include <benchmark/benchmark.h>

#include <random>

#include "core/picture.h"
#include "ssim/ssim_reference.h"

namespace {

using namespace exactvq;

// A reference/distorted luma pair: smooth gradient plus noise, distorted by more noise.
struct PlanePair {
  std::vector<uint8_t> ref, dist;
  PlaneView r, d;
  int bitdepth;

  PlanePair(int w, int h, int bits) : bitdepth(bits) {
    const int bps = bits > 8 ? 2 : 1;
    ref.resize(size_t(w) * h * bps);
    dist.resize(ref.size());
    std::mt19937 rng(1234);
    const uint32_t max = (1u << bits) - 1;
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x) {
        const uint32_t base = uint32_t((x + y) * max / (w + h));
        const uint32_t s = std::min<uint32_t>(max, base + uint32_t(rng()) % (max / 16 + 1));
        const uint32_t t = std::min<uint32_t>(max, s + uint32_t(rng()) % (max / 32 + 1));
        const size_t i = size_t(y) * w + x;
        if (bps == 1) {
          ref[i] = uint8_t(s);
          dist[i] = uint8_t(t);
        } else {
          reinterpret_cast<uint16_t*>(ref.data())[i] = uint16_t(s);
          reinterpret_cast<uint16_t*>(dist.data())[i] = uint16_t(t);
        }
      }
    r = {ref.data(), ptrdiff_t(w) * bps, w, h, bps};
    d = {dist.data(), ptrdiff_t(w) * bps, w, h, bps};
  }
};

void report(benchmark::State& state, const PlanePair& p) {
  const double pixels = double(p.r.width) * p.r.height;
  state.counters["fps"] = benchmark::Counter(double(state.iterations()), benchmark::Counter::kIsRate);
  state.counters["MP/s"] =
      benchmark::Counter(double(state.iterations()) * pixels / 1e6, benchmark::Counter::kIsRate);
}

void BM_ScalarExact(benchmark::State& state) {
  const PlanePair p(int(state.range(0)), int(state.range(1)), int(state.range(2)));
  for (auto _ : state) benchmark::DoNotOptimize(ssim::score_exact(p.r, p.d, p.bitdepth));
  report(state, p);
}

void BM_ScalarRaster(benchmark::State& state) {
  const PlanePair p(int(state.range(0)), int(state.range(1)), int(state.range(2)));
  for (auto _ : state) benchmark::DoNotOptimize(ssim::score_raster(p.r, p.d, p.bitdepth));
  report(state, p);
}

BENCHMARK(BM_ScalarExact)->Args({1920, 1080, 8})->Args({1920, 1080, 10})->Args({3840, 2160, 8})
    ->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_ScalarRaster)->Args({1920, 1080, 8})->Args({1920, 1080, 10})
    ->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
