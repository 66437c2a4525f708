// motion's engine rows (engine_matrix.h), a temporal engine's: each frame's SAD
// against the reference picture one frame before it, or two with the
// five-frame window, 0 where the run has none; the scalar reference is
// sad_reference over the same two pictures.
#include <cstdint>
#include <span>
#include <vector>

#include "engine_cases.h"
#include "engine_matrix.h"
#include "metrics/motion/engine.h"
#include "metrics/motion/sad.h"

namespace exactvq::twins {
namespace {

struct MotionSads {
  using Setup = motion::EngineSetup;
  static constexpr const char* kName = "motion.sads";
  // Five frames: SADs within a call, across the two calls, and against held
  // pictures, at either distance.
  static std::vector<Case> cases() {
    static const char* const windows[2] = {"", ", five-frame window"};
    return luma_cases(
        {{1, 1}, {3, 2}, {16, 16}, {17, 19}, {33, 7}, {64, 64}, {127, 65}, {250, 130}, {7, 40}},
        windows, 5, 3);
  }
  static Setup setup(const Case& c) {
    Setup s;
    s.format = luma_format(c);
    s.options.five_frame_window = c.b == 1;
    return s;
  }
  static void reference(const FramePairs& in, size_t i, const Setup& s, std::span<uint64_t> out) {
    const size_t back = size_t(motion::frame_distance(s.options));
    out[0] = 0;
    if (i < back) return;
    const PlaneView prev = in.pairs[i - back].ref->plane(0), cur = in.pairs[i].ref->plane(0);
    out[0] = motion::sad_reference(prev, cur, s.format.bitdepth, 0, cur.height);
  }
};

EXACTVQ_TWIN_ROWS(motion_engine_rows) { register_engine_rows<MotionSads>(); }

}  // namespace
}  // namespace exactvq::twins
