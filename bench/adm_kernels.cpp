// adm_kernels REF.y4m DIST.y4m [FRAMES [ROUNDS [v1|v061]]]: ADM's CPU engine on the luma of the
// first FRAMES frames of a Y4M pair (8 or 16-bit samples, 4:2:0), each row routine's time per
// frame through a timing copy of the SIMD row table, and the whole; the smallest of ROUNDS
// rounds, so that other processes on a shared machine (which only add time) fall out. Times are
// in ticks of the x86 time-stamp counter (constant rate), else nanoseconds. Options: VMAF
// v1.0.16's adm (default) or v0.6.1's.
#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "metrics/adm/cpu/adm_simd.h"
#include "metrics/adm/reference.h"
#include "metrics/adm/row_kernels.h"
#include "timed_calls.h"

namespace {

using namespace exactvq;
using namespace exactvq::adm;

using bench::ticks;

constexpr int kRoutines = 16;
const char* const kNames[kRoutines] = {
    "dwt0_vertical8",       "dwt0_vertical16", "dwt0_horizontal",   "dwt_vertical_s123",
    "dwt_horizontal_s123",  "decouple_row_s0", "decouple_row_s123", "csf_row_s0",
    "csf_row_s123",         "masking_row_s0",  "masking_row_s123",  "denominator_row_s0",
    "denominator_row_s123", "flat_sum_row_s0", "flat_sum_row_s123", "dwt_vertical_s1"};

RowKernels g_simd;                 // the routines timed
uint64_t g_spent[kRoutines] = {};  // their ticks this round

template <int I>
struct Spent {
  static void add(uint64_t t) { g_spent[I] += t; }
};
// A routine of the table, timed: the SIMD table's member M, its ticks into slot I.
template <int I, auto M>
using Timed = bench::TimedMember<g_simd, M, Spent<I>>;

RowKernels timed_table() {
  RowKernels k;
  k.dwt0_vertical8 = Timed<0, &RowKernels::dwt0_vertical8>::call;
  k.dwt0_vertical16 = Timed<1, &RowKernels::dwt0_vertical16>::call;
  k.dwt0_horizontal = Timed<2, &RowKernels::dwt0_horizontal>::call;
  k.dwt_vertical_s123 = Timed<3, &RowKernels::dwt_vertical_s123>::call;
  k.dwt_horizontal_s123 = Timed<4, &RowKernels::dwt_horizontal_s123>::call;
  k.decouple_row_s0 = Timed<5, &RowKernels::decouple_row_s0>::call;
  k.decouple_row_s123 = Timed<6, &RowKernels::decouple_row_s123>::call;
  k.csf_row_s0 = Timed<7, &RowKernels::csf_row_s0>::call;
  k.csf_row_s123 = Timed<8, &RowKernels::csf_row_s123>::call;
  k.masking_row_s0 = Timed<9, &RowKernels::masking_row_s0>::call;
  k.masking_row_s123 = Timed<10, &RowKernels::masking_row_s123>::call;
  k.denominator_row_s0 = Timed<11, &RowKernels::denominator_row_s0>::call;
  k.denominator_row_s123 = Timed<12, &RowKernels::denominator_row_s123>::call;
  k.flat_sum_row_s0 = Timed<13, &RowKernels::flat_sum_row_s0>::call;
  k.flat_sum_row_s123 = Timed<14, &RowKernels::flat_sum_row_s123>::call;
  k.dwt_vertical_s1 = Timed<15, &RowKernels::dwt_vertical_s1>::call;
  return k;
}

// The luma planes of the first `frames` frames of a 4:2:0 Y4M file.
struct Clip {
  int width = 0, height = 0, bitdepth = 8;
  std::vector<std::vector<uint8_t>> luma;
};

Clip read_y4m(const char* path, int frames) {
  std::ifstream f(path, std::ios::binary);
  std::string header;
  if (!f || !std::getline(f, header)) {
    std::fprintf(stderr, "adm_kernels: cannot read %s\n", path);
    std::exit(2);
  }
  Clip c;
  for (size_t at = 0; (at = header.find(' ', at)) != std::string::npos; ++at) {
    const char tag = header[at + 1];
    const std::string value = header.substr(at + 2, header.find(' ', at + 1) - at - 2);
    if (tag == 'W') c.width = std::atoi(value.c_str());
    if (tag == 'H') c.height = std::atoi(value.c_str());
    if (tag == 'C' && value.rfind("420p", 0) == 0) c.bitdepth = std::atoi(value.c_str() + 4);
  }
  const size_t bytes = c.bitdepth > 8 ? 2 : 1;
  const size_t luma = size_t(c.width) * size_t(c.height) * bytes;
  const size_t chroma = 2 * size_t((c.width + 1) / 2) * size_t((c.height + 1) / 2) * bytes;
  for (int i = 0; i < frames; ++i) {
    std::string line;
    std::vector<uint8_t> plane(luma);
    if (!std::getline(f, line) ||
        !f.read(reinterpret_cast<char*>(plane.data()), std::streamsize(luma)) ||
        !f.ignore(std::streamsize(chroma))) {
      std::fprintf(stderr, "adm_kernels: %s has fewer than %d frames\n", path, frames);
      std::exit(2);
    }
    c.luma.push_back(std::move(plane));
  }
  return c;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: adm_kernels REF.y4m DIST.y4m [FRAMES [ROUNDS [v1|v061]]]\n");
    return 2;
  }
  const int frames = argc > 3 ? std::atoi(argv[3]) : 2;
  const int rounds = argc > 4 ? std::atoi(argv[4]) : 40;
  const bool v1 = argc <= 5 || std::string(argv[5]) != "v061";
  const Clip ref = read_y4m(argv[1], frames), dist = read_y4m(argv[2], frames);
  AdmOptions o;
  if (v1) {  // vmaf_v1.0.16_3d0h's adm options
    o.dlm_weight = 0.7;
    o.enhn_gain_limit = 1.0;
    o.noise_weight = 0.02;
    o.min_val = 0.5;
    o.csf_mode = CsfMode::kBartenWatsonBlend;
  }
  g_simd = cpu::simd_row_kernels();
  const RowKernels timed = timed_table();
  const int bytes = ref.bitdepth > 8 ? 2 : 1;
  std::array<uint64_t, kRoutines + 1> best;
  best.fill(UINT64_MAX);
  for (int r = 0; r < rounds; ++r) {
    std::fill(std::begin(g_spent), std::end(g_spent), 0);
    const uint64_t start = ticks();
    for (int i = 0; i < frames; ++i) {
      const PlaneView a{ref.luma[size_t(i)].data(), ptrdiff_t(ref.width) * bytes, ref.width,
                        ref.height, bytes};
      const PlaneView b{dist.luma[size_t(i)].data(), ptrdiff_t(ref.width) * bytes, ref.width,
                        ref.height, bytes};
      const AdmSums sums = adm_integer_sums(a, b, ref.bitdepth, o, timed);
      if (sums[0].den[0] == UINT64_MAX) std::puts("");  // keeps the call
    }
    const uint64_t whole = ticks() - start;
    for (int k = 0; k < kRoutines; ++k) best[size_t(k)] = std::min(best[size_t(k)], g_spent[k]);
    best[kRoutines] = std::min(best[kRoutines], whole);
  }
  std::printf("adm (%s options), %dx%d %d-bit, %d frames, least of %d rounds, Mticks a frame:\n",
              v1 ? "v1.0.16" : "v0.6.1", ref.width, ref.height, ref.bitdepth, frames, rounds);
  for (int k = 0; k < kRoutines; ++k)
    if (best[size_t(k)] > 0)
      std::printf("  %-22s %8.3f\n", kNames[k], double(best[size_t(k)]) / 1e6 / frames);
  std::printf("  %-22s %8.3f\n", "whole", double(best[kRoutines]) / 1e6 / frames);
  return 0;
}
