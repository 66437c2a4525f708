#include "metrics/motion/motion_scores.h"

namespace exactvq::motion {

namespace {

double smaller(double a, double b) { return a < b ? a : b; }

}  // namespace

double sad_score(uint64_t sad, int width, int height, const MotionOptions& o) {
  const double samples = double(unsigned(width) * unsigned(height));
  return smaller(double(sad) / 256.0 / samples * o.fps_weight, o.max_value);
}

double blend(double value, double factor, double offset) {
  if (value < offset) return value;
  return offset + factor * (value - offset);
}

void run_values(std::span<const double> sad, const MotionOptions& o, std::span<double> motion2,
                std::span<double> motion3) {
  const size_t n = sad.size();
  const size_t first = size_t(frame_distance(o));  // the first frame with a predecessor
  // Frames before `first` take the first real value's blend.
  double stamp = 0.0;
  if (n > first) stamp = smaller(blend(sad[first], o.blend_factor, o.blend_offset), o.max_value);
  double previous = 0.0;
  for (size_t i = 0; i < n; ++i) {
    if (i < first) {
      motion2[i] = 0.0;
      motion3[i] = stamp;
      previous = stamp;
      continue;
    }
    // The smaller of the two neighbours' values (one frame apart: this frame
    // and the next; the five-frame window: the frames before and after).
    double m2;
    if (i + 1 >= n) {
      m2 = sad[i];
    } else {
      const size_t low = o.five_frame_window ? i - 1 : i;
      m2 = low >= first ? smaller(sad[low], sad[i + 1]) : sad[i + 1];
    }
    motion2[i] = m2;
    const double processed = smaller(blend(m2, o.blend_factor, o.blend_offset), o.max_value);
    motion3[i] = o.moving_average ? (processed + previous) / 2.0 : processed;
    previous = processed;
  }
}

}  // namespace exactvq::motion
