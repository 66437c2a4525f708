// ciede's engine rows (engine_matrix.h): each frame's sum of delta E, in every
// chroma format and depth ciede takes, against the scalar reference. The CPU
// engine has no SIMD targets (one row, not one a target); CUDA's runs native
// binary64 (/cuda-native) or softfp (/cuda-emulate); OpenCL's is softfp.
#include <span>
#include <string>
#include <vector>

#include "engine_cases.h"
#include "engine_matrix.h"
#include "metrics/ciede/engine.h"
#include "metrics/ciede/reference.h"

namespace exactvq::twins {
namespace {

struct CiedeSums {
  using Setup = ciede::EngineSetup;
  static constexpr const char* kName = "ciede.delta_e_sums";
  static std::vector<Case> cases() {
    // 4:2:2 of odd width and a 4:2:2 row wider than 32 are refused (reference.h).
    const int sizes[][2] = {{1, 1},  {2, 1},   {2, 2},   {5, 5},   {8, 8},    {17, 9},
                            {32, 1}, {34, 17}, {64, 32}, {66, 33}, {130, 21}, {7, 100}};
    const int depths[] = {8, 10, 12, 16};
    std::vector<Case> all;
    const auto add = [&](int w, int h, int bits, int chroma, int frames, bool timed) {
      all.push_back(frames_case(0xc1ede'2000, all.size(), w, h, bits, chroma, frames, timed));
    };
    size_t k = 0;
    for (const auto& s : sizes)
      for (int bits : depths) {
        const int chroma = int(k++ % 3);  // 4:2:0, 4:2:2, 4:4:4
        if (kChromas[chroma] == ChromaFormat::k422 && (s[0] % 2 != 0 || (s[1] == 1 && s[0] > 32)))
          add(s[0], s[1], bits, 0, 2, false);
        else
          add(s[0], s[1], bits, chroma, 2, false);
      }
    for (int bits : {8, 10}) add(640, 360, bits, 0, 2, true);
    return all;
  }
  static Setup setup(const Case& c) { return Setup{every_format_of(c)}; }
  static void reference(const FramePairs& in, size_t i, const Setup&, std::span<double> out) {
    out[0] = ciede::delta_e_sum_reference(*in.pairs[i].ref, *in.pairs[i].dist);
  }
};

EXACTVQ_TWIN_ROWS(ciede_engine_rows) {
  register_row(engine_row<CiedeSums>("/cpu", cpu_twin_device, Fp64Mode::kAuto, false));
  register_row(engine_row<CiedeSums>("/split-cpu3", split_cpu_device, Fp64Mode::kAuto, true));
  const auto cuda = [](const std::string& suffix, Fp64Mode fp64, bool small_only) {
    Row r = engine_row<CiedeSums>(
        suffix, [] { return cuda_device().device; }, fp64, small_only);
    r.unavailable = [] { return cuda_device().why; };
    register_row(std::move(r));
  };
  cuda("/cuda-native", Fp64Mode::kNative, false);
  cuda("/cuda-emulate", Fp64Mode::kEmulate, false);
  Row opencl = engine_row<CiedeSums>("/opencl", opencl_device, Fp64Mode::kAuto, false);
  opencl.unavailable = opencl_missing;
  register_row(std::move(opencl));
}

}  // namespace
}  // namespace exactvq::twins
