// The SIMD SSIM path stage by stage (megapixels/s of luma), so a missed speed
// goal names the stage that bounds it, and whole planes beside the scalar
// reference (frames/s). Each stage runs over every row of a plane, as the
// scorer does; the best SIMD target the machine supports is used unless
// EXACTVQ_SIMD_TARGET names another (e.g. SSE4).
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "bench/plane_pair.h"
#include "backends/cpu/simd_targets.h"
#include "metrics/ssim/cpu/ssim_kernels.h"
#include "metrics/ssim/cpu/ssim_simd.h"
#include "metrics/ssim/reference.h"
#include "metrics/ssim/taps.h"

namespace {

using namespace exactvq;
using bench::PlanePair;

void report(benchmark::State& state, const PlaneView& p) {
  const double pixels = double(p.width) * p.height;
  state.counters["fps"] = benchmark::Counter(double(state.iterations()), benchmark::Counter::kIsRate);
  state.counters["MP/s"] =
      benchmark::Counter(double(state.iterations()) * pixels / 1e6, benchmark::Counter::kIsRate);
}

const PlanePair& pair(int w, int h, int bits) {
  static std::vector<std::unique_ptr<PlanePair>> cache;
  for (const auto& p : cache)
    if (p->r.width == w && p->r.height == h && p->bitdepth == bits) return *p;
  cache.push_back(std::make_unique<PlanePair>(w, h, bits));
  return *cache.back();
}

// Horizontal stage: every row of the plane.
template <typename Sample, typename Wide>
void horizontal_plane(const PlanePair& p, std::vector<uint32_t>& scratch,
                      std::vector<uint32_t>& m32, std::vector<Wide>& wide) {
  const int w = p.r.width;
  const size_t n = size_t(w);
  for (int y = 0; y < p.r.height; ++y)
    cpu::horizontal_moments(p.r.row<Sample>(y), p.d.row<Sample>(y), w, 0, w, scratch.data(),
                            cpu::MomentRow<Wide>{m32.data(), m32.data() + n, wide.data(),
                                                 wide.data() + n, wide.data() + 2 * n});
}

void BM_StageHorizontal(benchmark::State& state) {
  const PlanePair& p = pair(int(state.range(0)), int(state.range(1)), int(state.range(2)));
  const size_t n = size_t(p.r.width);
  std::vector<uint32_t> scratch(cpu::horizontal_scratch_size(0, p.r.width)), m32(2 * n);
  std::vector<uint32_t> w32(3 * n);
  std::vector<uint64_t> w64(3 * n);
  for (auto _ : state) {
    if (p.bitdepth == 8) horizontal_plane<uint8_t, uint32_t>(p, scratch, m32, w32);
    else if (p.bitdepth <= 12) horizontal_plane<uint16_t, uint32_t>(p, scratch, m32, w32);
    else horizontal_plane<uint16_t, uint64_t>(p, scratch, m32, w64);
    benchmark::DoNotOptimize(m32.data());
  }
  report(state, p.r);
}

// Vertical stage: the five quantities of every output row, full windows.
void BM_StageVertical(benchmark::State& state) {
  const PlanePair& p = pair(int(state.range(0)), int(state.range(1)), int(state.range(2)));
  const size_t n = size_t(p.r.width);
  std::vector<uint32_t> in32(9 * n, 1000), out32(n);
  std::vector<uint64_t> in64(9 * n, 1000), out64(n);
  const uint32_t* rows32[9];
  const uint64_t* rows64[9];
  for (int k = 0; k < 9; ++k) {
    rows32[k] = in32.data() + size_t(k) * n;
    rows64[k] = in64.data() + size_t(k) * n;
  }
  for (auto _ : state) {
    for (int y = 0; y < p.r.height; ++y) {
      cpu::vertical_moments(rows32, out32.data(), n);  // mux
      cpu::vertical_moments(rows32, out32.data(), n);  // muy
      for (int q = 0; q < 3; ++q) {                    // x2, xy, y2
        if (p.bitdepth == 8) cpu::vertical_moments(rows32, out32.data(), n);
        else if (p.bitdepth <= 12) cpu::vertical_moments(rows32, out64.data(), n);
        else cpu::vertical_moments(rows64, out64.data(), n);
      }
    }
    benchmark::DoNotOptimize(out32.data());
    benchmark::DoNotOptimize(out64.data());
  }
  report(state, p.r);
}

// Term stage: realistic window moments (a flat window of value 100 against 101).
void BM_StageTerm(benchmark::State& state) {
  const PlanePair& p = pair(int(state.range(0)), int(state.range(1)), int(state.range(2)));
  const size_t n = size_t(p.r.width);
  std::vector<uint32_t> mux(n, 100u << 16), muy(n, 101u << 16), cw(n);
  std::vector<uint64_t> x2(n, uint64_t{10000} << 16), xy(n, uint64_t{10100} << 16),
      y2(n, uint64_t{10201} << 16);
  std::vector<uint32_t> x2s(n, 10000u << 16), xys(n, 10100u << 16), y2s(n, 10201u << 16);
  for (size_t i = 0; i < n; ++i) cw[i] = ssim::kept_weight(int(i), int(n));
  std::vector<double> terms(n);
  const ssim::TermConstants k = ssim::term_constants(p.bitdepth);
  for (auto _ : state) {
    for (int y = 0; y < p.r.height; ++y) {
      if (p.bitdepth == 8)
        cpu::ssim_terms(cpu::WindowRow<uint32_t>{mux.data(), muy.data(), x2s.data(), xys.data(),
                                                 y2s.data()},
                        cw.data(), 256, n, k, terms.data());
      else
        cpu::ssim_terms(cpu::WindowRow<uint64_t>{mux.data(), muy.data(), x2.data(), xy.data(),
                                                 y2.data()},
                        cw.data(), 256, n, k, terms.data());
    }
    benchmark::DoNotOptimize(terms.data());
  }
  report(state, p.r);
}

// The fused stage the scorer runs after the horizontal pass: vertical moments,
// term and exact sum of every output row (cpu::window_terms), full windows, on
// the horizontal moments of nine real rows of the plane.
void BM_StageWindowTerms(benchmark::State& state) {
  const PlanePair& p = pair(int(state.range(0)), int(state.range(1)), int(state.range(2)));
  const int w = p.r.width;
  const size_t n = size_t(w);
  std::vector<uint32_t> scratch(cpu::horizontal_scratch_size(0, w)), m(9 * n), nn(9 * n);
  std::vector<uint32_t> w32(3 * 9 * n);
  std::vector<uint64_t> w64(3 * 9 * n);
  cpu::TapRows<uint32_t> rows32{};
  cpu::TapRows<uint64_t> rows64{};
  for (int k = 0; k < 9; ++k) {
    const size_t o = size_t(k) * n;
    uint32_t* x32 = w32.data() + 3 * o;
    uint64_t* x64 = w64.data() + 3 * o;
    if (p.bitdepth == 8)
      cpu::horizontal_moments(p.r.row<uint8_t>(k), p.d.row<uint8_t>(k), w, 0, w, scratch.data(),
                              cpu::MomentRow<uint32_t>{m.data() + o, nn.data() + o, x32, x32 + n, x32 + 2 * n});
    else if (p.bitdepth <= 12)
      cpu::horizontal_moments(p.r.row<uint16_t>(k), p.d.row<uint16_t>(k), w, 0, w, scratch.data(),
                              cpu::MomentRow<uint32_t>{m.data() + o, nn.data() + o, x32, x32 + n, x32 + 2 * n});
    else
      cpu::horizontal_moments(p.r.row<uint16_t>(k), p.d.row<uint16_t>(k), w, 0, w, scratch.data(),
                              cpu::MomentRow<uint64_t>{m.data() + o, nn.data() + o, x64, x64 + n, x64 + 2 * n});
    rows32.m[k] = rows64.m[k] = m.data() + o;
    rows32.n[k] = rows64.n[k] = nn.data() + o;
    rows32.xx[k] = x32, rows32.xy[k] = x32 + n, rows32.yy[k] = x32 + 2 * n;
    rows64.xx[k] = x64, rows64.xy[k] = x64 + n, rows64.yy[k] = x64 + 2 * n;
  }
  std::vector<uint32_t> cw(n);
  for (size_t i = 0; i < n; ++i) cw[i] = ssim::kept_weight(int(i), w);
  const ssim::TermConstants k = ssim::term_constants(p.bitdepth);
  for (auto _ : state) {
    ssim::int128 q = 0;
    for (int y = 0; y < p.r.height; ++y) {
      if (p.bitdepth == 8) q += cpu::window_terms(rows32, cw.data(), 256, n, k, nullptr);
      else if (p.bitdepth <= 12) q += cpu::window_terms_widening(rows32, cw.data(), 256, n, k, nullptr);
      else q += cpu::window_terms(rows64, cw.data(), 256, n, k, nullptr);
    }
    benchmark::DoNotOptimize(q);
  }
  report(state, p.r);
}

std::vector<double> sample_terms(size_t n) {
  std::vector<double> t(n);
  for (size_t i = 0; i < n; ++i) t[i] = 65536.0 * (0.9 + 0.1 * double(i % 97) / 97.0);
  return t;
}

// Fixed-point sum stage (exact mode).
void BM_StageFixedSum(benchmark::State& state) {
  const PlanePair& p = pair(int(state.range(0)), int(state.range(1)), 8);
  const std::vector<double> terms = sample_terms(size_t(p.r.width));
  for (auto _ : state) {
    ssim::int128 s = 0;
    for (int y = 0; y < p.r.height; ++y) s += cpu::fixed_point_sum(terms.data(), terms.size());
    benchmark::DoNotOptimize(s);
  }
  report(state, p.r);
}

// Raster mode's sequential binary64 sum: one addition at a time (a latency chain).
void BM_StageRasterSum(benchmark::State& state) {
  const PlanePair& p = pair(int(state.range(0)), int(state.range(1)), 8);
  const std::vector<double> terms = sample_terms(size_t(p.r.width));
  for (auto _ : state) {
    double s = 0;
    for (int y = 0; y < p.r.height; ++y)
      for (double t : terms) s += t;
    benchmark::DoNotOptimize(s);
  }
  report(state, p.r);
}

// The pipeline's own three stages as exact_sum runs them (8 bits, and 9-10 bits
// with xx + yy filtered as one moment): strips of strip_columns(bits) columns,
// every row of each, each benchmark making one stage's calls only, on buffers of
// a strip's size that stay in cache as the pipeline's do. Their times add up to
// the plane's (SimdExact) less the strip loop's own work: the per-stage roofline
// of docs/performance.md comes from them where no counters can be read.
struct StripStages {
  static constexpr int kRing = ssim::kTaps + 1;
  const PlanePair& p;
  cpu::StripSplit strips;
  int most;          // widest strip
  bool summed;       // xx + yy as one moment (9-10 bits)
  std::vector<uint32_t> scratch, h32, zeros, cw;
  std::vector<uint64_t> v64;
  cpu::MomentRow<uint32_t> ring[kRing];
  cpu::MomentRow<uint32_t> window32[2];
  cpu::MomentRow<uint64_t> window64[2];

  explicit StripStages(const PlanePair& pp)
      : p(pp), strips(cpu::StripSplit::of(pp.r.width, pp.bitdepth)) {
    const int w = p.r.width;
    most = (w + strips.count - 1) / strips.count;
    summed = p.bitdepth > 8;
    const size_t n = size_t(most);
    scratch.resize(cpu::horizontal_scratch_size(0, most));
    h32.resize(size_t(kRing) * 5 * n + 2 * 5 * n);
    v64.resize(2 * 3 * n);
    zeros.assign(n, 0);
    for (int k = 0; k < kRing; ++k) ring[k] = row32(size_t(k));
    for (int j = 0; j < 2; ++j) {
      window32[j] = row32(size_t(kRing + j));
      window64[j] = {window32[j].m, window32[j].n, v64.data() + (3 * j) * n,
                     v64.data() + (3 * j + 1) * n, v64.data() + (3 * j + 2) * n};
    }
    cw.resize(n);
    for (int x = 0; x < most; ++x) cw[size_t(x)] = ssim::kept_weight(x + ssim::kRadius, w);
    // Real window moments for the term stage: the first ten rows of the first strip.
    for (int r = 0; r < kRing; ++r) horizontal(r, 0, most);
    vertical(most);
  }
  cpu::MomentRow<uint32_t> row32(size_t k) {
    const size_t n = size_t(most);
    uint32_t* b = h32.data() + k * 5 * n;
    return {b, b + n, b + 2 * n, b + 3 * n, b + 4 * n};
  }
  void horizontal(int y, int x0, int x1) {
    const int w = p.r.width;
    cpu::MomentRow<uint32_t>& out = ring[y % kRing];
    if (p.bitdepth == 8)
      cpu::horizontal_moments(p.r.row<uint8_t>(y), p.d.row<uint8_t>(y), w, x0, x1, scratch.data(), out);
    else
      cpu::horizontal_moments_summed_squares(p.r.row<uint16_t>(y), p.d.row<uint16_t>(y), w, x0, x1,
                                             scratch.data(), out);
  }
  void vertical(int n) {
    const uint32_t *m[kRing], *nn[kRing], *xx[kRing], *xy[kRing], *yy[kRing];
    for (int k = 0; k < kRing; ++k)
      m[k] = ring[k].m, nn[k] = ring[k].n, xx[k] = ring[k].xx, xy[k] = ring[k].xy, yy[k] = ring[k].yy;
    const size_t c = size_t(n);
    cpu::vertical_moments_pair(m, window32[0].m, window32[1].m, c);
    cpu::vertical_moments_pair(nn, window32[0].n, window32[1].n, c);
    if (!summed) {
      cpu::vertical_moments_pair(xx, window32[0].xx, window32[1].xx, c);
      cpu::vertical_moments_pair(xy, window32[0].xy, window32[1].xy, c);
      cpu::vertical_moments_pair(yy, window32[0].yy, window32[1].yy, c);
    } else {
      cpu::vertical_moments_pair(xx, window64[0].xx, window64[1].xx, c);
      cpu::vertical_moments_pair(xy, window64[0].xy, window64[1].xy, c);
    }
  }
  ssim::int128 terms(int n, const ssim::TermConstants& k) const {
    if (!summed) {
      cpu::WindowRow<uint32_t> rows[2];
      for (int j = 0; j < 2; ++j)
        rows[j] = {window32[j].m, window32[j].n, window32[j].xx, window32[j].xy, window32[j].yy};
      return cpu::terms_exact_sum(rows, 2, cw.data(), 256, size_t(n), k);
    }
    const uint64_t* z = v64.data();  // any row: with xx + yy summed, y2 is not read
    cpu::WindowRow<uint64_t> rows[2];
    for (int j = 0; j < 2; ++j) rows[j] = {window64[j].m, window64[j].n, window64[j].xx, window64[j].xy, z};
    return cpu::terms_exact_sum(rows, 2, cw.data(), 256, size_t(n), k);
  }
};

StripStages& strip_stages(int w, int h, int bits) {
  static std::vector<std::unique_ptr<StripStages>> cache;
  const PlanePair& p = pair(w, h, bits);
  for (const auto& s : cache)
    if (&s->p == &p) return *s;
  cache.push_back(std::make_unique<StripStages>(p));
  return *cache.back();
}

void BM_PipelineHorizontal(benchmark::State& state) {
  StripStages& st = strip_stages(int(state.range(0)), int(state.range(1)), int(state.range(2)));
  for (auto _ : state) {
    for (int s = 0; s < st.strips.count; ++s) {
      const int x0 = st.strips.x0(s), x1 = st.strips.x1(s);
      for (int y = 0; y < st.p.r.height; ++y) st.horizontal(y, x0, x1);
    }
    benchmark::DoNotOptimize(st.h32.data());
  }
  report(state, st.p.r);
}

void BM_PipelineVertical(benchmark::State& state) {
  StripStages& st = strip_stages(int(state.range(0)), int(state.range(1)), int(state.range(2)));
  for (auto _ : state) {
    for (int s = 0; s < st.strips.count; ++s) {
      const int x0 = st.strips.x0(s), x1 = st.strips.x1(s);
      for (int y = 0; y < st.p.r.height; y += 2) st.vertical(x1 - x0);
    }
    benchmark::DoNotOptimize(st.h32.data());
    benchmark::DoNotOptimize(st.v64.data());
  }
  report(state, st.p.r);
}

void BM_PipelineTerms(benchmark::State& state) {
  StripStages& st = strip_stages(int(state.range(0)), int(state.range(1)), int(state.range(2)));
  const ssim::TermConstants k = ssim::term_constants(st.p.bitdepth);
  for (auto _ : state) {
    ssim::int128 q = 0;
    for (int s = 0; s < st.strips.count; ++s) {
      const int x0 = st.strips.x0(s), x1 = st.strips.x1(s);
      for (int y = 0; y < st.p.r.height; y += 2) q += st.terms(x1 - x0, k);
    }
    benchmark::DoNotOptimize(q);
  }
  report(state, st.p.r);
}

// The core's clock where no counters can be read: a chain of dependent
// one-cycle register additions, a million to an iteration, so GHz is additions a
// nanosecond. Stage times in ns a pixel times this are cycles a pixel.
void BM_CoreClock(benchmark::State& state) {
#if defined(__x86_64__)
  // Register operands: some cores fold chains of immediate additions at rename.
  uint64_t x = 0, step = uint64_t(state.iterations()) | 1;
  benchmark::DoNotOptimize(step);
  for (auto _ : state) {
    for (int i = 0; i < 10000; ++i) {
#define EXACTVQ_ADD10 "add %1, %0\n\tadd %1, %0\n\tadd %1, %0\n\tadd %1, %0\n\tadd %1, %0\n\t" \
                      "add %1, %0\n\tadd %1, %0\n\tadd %1, %0\n\tadd %1, %0\n\tadd %1, %0\n\t"
      asm volatile(EXACTVQ_ADD10 EXACTVQ_ADD10 EXACTVQ_ADD10 EXACTVQ_ADD10 EXACTVQ_ADD10
                   EXACTVQ_ADD10 EXACTVQ_ADD10 EXACTVQ_ADD10 EXACTVQ_ADD10 EXACTVQ_ADD10
                   : "+r"(x)
                   : "r"(step));
#undef EXACTVQ_ADD10
    }
  }
  benchmark::DoNotOptimize(x);
  state.counters["GHz"] =
      benchmark::Counter(double(state.iterations()) * 1e6 / 1e9, benchmark::Counter::kIsRate);
#else
  state.SkipWithError("x86-64 only");
#endif
}
BENCHMARK(BM_CoreClock)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_SimdExact(benchmark::State& state) {
  const PlanePair& p = pair(int(state.range(0)), int(state.range(1)), int(state.range(2)));
  for (auto _ : state) benchmark::DoNotOptimize(cpu::score_exact(p.r, p.d, p.bitdepth));
  report(state, p.r);
}

// Exact mode over column strips of state.range(3) columns (cache experiment).
void BM_SimdExactStrips(benchmark::State& state) {
  const PlanePair& p = pair(int(state.range(0)), int(state.range(1)), int(state.range(2)));
  const int strip = int(state.range(3));
  for (auto _ : state) {
    ssim::ExactSum sum;
    for (int x = 0; x < p.r.width; x += strip)
      sum += cpu::exact_sum(p.r, p.d, p.bitdepth, {x, 0, std::min(p.r.width, x + strip), p.r.height});
    benchmark::DoNotOptimize(sum);
  }
  report(state, p.r);
}
BENCHMARK(BM_SimdExactStrips)->Args({1920, 1080, 8, 1920})->Args({1920, 1080, 8, 256})->Args({1920, 1080, 8, 128})->Args({1920, 1080, 8, 64})->Unit(benchmark::kMillisecond);

void BM_SimdRaster(benchmark::State& state) {
  const PlanePair& p = pair(int(state.range(0)), int(state.range(1)), int(state.range(2)));
  for (auto _ : state) benchmark::DoNotOptimize(cpu::score_raster(p.r, p.d, p.bitdepth));
  report(state, p.r);
}

void BM_ScalarExact(benchmark::State& state) {
  const PlanePair& p = pair(int(state.range(0)), int(state.range(1)), int(state.range(2)));
  for (auto _ : state) benchmark::DoNotOptimize(ssim::score_exact(p.r, p.d, p.bitdepth));
  report(state, p.r);
}

void sizes(benchmark::internal::Benchmark* b) {
  b->Args({1920, 1080, 8})->Args({1920, 1080, 10})->Args({3840, 2160, 8})->Args({1920, 1080, 16});
  b->Unit(benchmark::kMillisecond)->UseRealTime();
}

BENCHMARK(BM_StageHorizontal)->Apply(sizes);
BENCHMARK(BM_StageVertical)->Apply(sizes);
BENCHMARK(BM_StageTerm)->Apply(sizes);
BENCHMARK(BM_StageWindowTerms)->Apply(sizes);
BENCHMARK(BM_StageFixedSum)->Args({1920, 1080})->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_StageRasterSum)->Args({1920, 1080})->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_PipelineHorizontal)->Args({1920, 1080, 8})->Args({1920, 1080, 10})->Args({3840, 2160, 8})->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_PipelineVertical)->Args({1920, 1080, 8})->Args({1920, 1080, 10})->Args({3840, 2160, 8})->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_PipelineTerms)->Args({1920, 1080, 8})->Args({1920, 1080, 10})->Args({3840, 2160, 8})->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_SimdExact)->Apply(sizes);
BENCHMARK(BM_SimdRaster)->Apply(sizes);
BENCHMARK(BM_ScalarExact)->Args({1920, 1080, 8})->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace

int main(int argc, char** argv) {
  std::unique_ptr<cpu::ForcedTarget> forced;
  if (const char* name = std::getenv("EXACTVQ_SIMD_TARGET")) {
    for (const auto& t : cpu::supported_targets())
      if (t.name == name) forced = std::make_unique<cpu::ForcedTarget>(t.bits);
    if (!forced) {
      std::fprintf(stderr, "EXACTVQ_SIMD_TARGET=%s: not a supported target\n", name);
      return 2;
    }
  }
  benchmark::AddCustomContext("simd_target", cpu::current_target_name());
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
