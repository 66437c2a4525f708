// Host proxy for the emulated term's speed (not part of the test suite): times
// softfp_term + softfp_to_fixed64 per window on moments of seeded random frames
// (smooth content plus noise) at 8 and 16 bits, and checks every term against
// the native binary64 expression of spec/ssim.md. Build by hand:
//   g++ -O2 -ffp-contract=off -I src tests/softfp/softfp_bench.cpp -o /tmp/softfp_bench
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <vector>

#include "metrics/ssim/softfp_term.h"

namespace {

const int kTap[9] = {2, 9, 28, 55, 68, 55, 28, 9, 2};

double native_term(const softfp_moments& m, int b) {
  const double K1 = 0.01 * 0.01, K2 = 0.03 * 0.03;
  const double Md = double((1u << b) - 1), wd = double(m.w);
  const double c1 = (((Md * Md) * K1) * wd) * wd, c2 = (((Md * Md) * K2) * wd) * wd;
  const double mux = double(m.mux), muy = double(m.muy);
  const double mx2 = mux * mux, mxy = mux * muy, my2 = muy * muy;
  const double A = 2 * mxy + c1;
  const double B = c2 + 2 * (double(m.xy) * wd - mxy);
  const double C = (mx2 + my2) + c1;
  const double D = (((double(m.x2) * wd - mx2) + double(m.y2) * wd) - my2) + c2;
  return ((wd * A) * B) / (C * D);
}

// Moments of the windows of a W x H frame pair (every window, borders included).
std::vector<softfp_moments> frame_moments(int b, int W, int H, std::mt19937_64& rng) {
  const uint32_t M = (1u << b) - 1;
  std::vector<uint32_t> R(size_t(W) * H), D(R.size());
  for (int y = 0; y < H; ++y)
    for (int x = 0; x < W; ++x) {
      const double base = 0.5 + 0.4 * ((x * 7 + y * 3) % 97) / 97.0;
      const int64_t r = int64_t(base * M) + int64_t(rng() % (M / 16 + 1)) - int64_t(M / 32);
      const int64_t d = r + int64_t(rng() % (M / 32 + 1)) - int64_t(M / 64);
      R[size_t(y) * W + x] = uint32_t(r < 0 ? 0 : r > M ? M : r);
      D[size_t(y) * W + x] = uint32_t(d < 0 ? 0 : d > M ? M : d);
    }
  std::vector<softfp_moments> out;
  for (int y = 0; y < H; ++y)
    for (int x = 0; x < W; ++x) {
      softfp_moments m{};
      uint64_t wy = 0, wx = 0;
      for (int j = 0; j < 9; ++j) {
        const int yy = y - 4 + j;
        if (yy < 0 || yy >= H) continue;
        wy += kTap[j];
      }
      for (int i = 0; i < 9; ++i) {
        const int xx = x - 4 + i;
        if (xx < 0 || xx >= W) continue;
        wx += kTap[i];
      }
      for (int j = 0; j < 9; ++j)
        for (int i = 0; i < 9; ++i) {
          const int yy = y - 4 + j, xx = x - 4 + i;
          if (yy < 0 || yy >= H || xx < 0 || xx >= W) continue;
          const uint64_t g = uint64_t(kTap[j]) * kTap[i];
          const uint64_t s = R[size_t(yy) * W + xx], d = D[size_t(yy) * W + xx];
          m.mux += g * s;
          m.muy += g * d;
          m.x2 += g * s * s;
          m.xy += g * s * d;
          m.y2 += g * d * d;
        }
      m.w = wx * wy;
      out.push_back(m);
    }
  return out;
}

// The timed work, one function so that an instruction counter can select it:
//   valgrind --tool=callgrind --toggle-collect='*run_terms*' /tmp/softfp_bench 1
__attribute__((noinline, noipa)) uint64_t run_terms(const std::vector<softfp_moments>& ms,
                                                    softfp_term_constants k) {
  uint64_t sink = 0;
  for (const auto& m : ms) {
    const softfp_i128 q = softfp_to_fixed64(softfp_term(m, k));
    sink += q.lo ^ q.hi;
  }
  return sink;
}

}  // namespace

// Optional arguments: repetitions of the timed loop (default 20), one bit depth.
int main(int argc, char** argv) {
  std::mt19937_64 rng(12345);
  const int only = argc > 2 ? std::atoi(argv[2]) : 0;  // optional: one bit depth
  for (int b : {8, 10, 12, 16}) {
    if (only != 0 && b != only) continue;
    std::vector<softfp_moments> ms;
    for (int f = 0; f < 4; ++f) {
      auto v = frame_moments(b, 160, 90, rng);
      ms.insert(ms.end(), v.begin(), v.end());
    }
    const softfp_term_constants k = softfp_make_term_constants(b);
    uint64_t bad = 0;
    for (const auto& m : ms) {
      const double want = native_term(m, b);
      uint64_t wb;
      std::memcpy(&wb, &want, 8);
      if (softfp_to_bits(softfp_term(m, k)) != wb) ++bad;
    }
    uint64_t sink = 0;
    const int reps = argc > 1 ? std::atoi(argv[1]) : 20;
    const auto t0 = std::chrono::steady_clock::now();
    for (int r = 0; r < reps; ++r) sink += run_terms(ms, k);
    const double ns =
        std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - t0).count() /
        (double(reps) * double(ms.size()));
    std::printf("%2d-bit: %zu windows, %llu differ, %.1f ns/term (sink %llx)\n", b, ms.size(),
                (unsigned long long)bad, ns, (unsigned long long)sink);
  }
}
