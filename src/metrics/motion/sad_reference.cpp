#include <cstdlib>
#include <vector>

#include "metrics/motion/sad.h"

namespace exactvq::motion {

namespace {

template <typename Sample>
uint64_t sad_rows(const PlaneView& prev, const PlaneView& cur, int bitdepth, int y0, int y1) {
  const int w = cur.width;
  const int64_t round_y = int64_t{1} << (bitdepth - 1);
  std::vector<int32_t> blurred(static_cast<size_t>(w));
  uint64_t sad = 0;
  for (int y = y0; y < y1; ++y) {
    const Sample* p[kTaps];
    const Sample* c[kTaps];
    tap_rows(prev, cur, y, p, c);
    // Below 2^32 in magnitude at 16 bits: 65536 * 65535.
    for (int x = 0; x < w; ++x) {
      int64_t sum = 0;
      for (int k = 0; k < kTaps; ++k)
        sum += int64_t{kTap[k]} * (int32_t(p[k][x]) - int32_t(c[k][x]));
      blurred[size_t(x)] = int32_t((sum + round_y) >> bitdepth);
    }
    // Each |value| is at most 65535, so a row of at most 65536 stays in 32 bits
    // as libvmaf sums it.
    uint32_t row_sad = 0;
    for (int x = 0; x < w; ++x) {
      int64_t sum = 0;
      for (int k = 0; k < kTaps; ++k)
        sum += int64_t{kTap[k]} * blurred[size_t(mirror_index(x - kRadius + k, w))];
      row_sad += uint32_t(std::abs(int32_t((sum + (1 << 15)) >> 16)));
    }
    sad += row_sad;
  }
  return sad;
}

}  // namespace

uint64_t sad_reference(const PlaneView& prev, const PlaneView& cur, int bitdepth, int y0, int y1) {
  return cur.bytes_per_sample == 1 ? sad_rows<uint8_t>(prev, cur, bitdepth, y0, y1)
                                   : sad_rows<uint16_t>(prev, cur, bitdepth, y0, y1);
}

}  // namespace exactvq::motion
