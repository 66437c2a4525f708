// Per-plane cost of the scalar reference (megapixels/s and frames/s of luma).
#include <benchmark/benchmark.h>

#include "bench/plane_pair.h"
#include "core/picture.h"
#include "metrics/ssim/reference.h"

namespace {

using namespace exactvq;

using bench::PlanePair;

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
