#include "psnr/sse.h"

namespace exactvq::psnr {

uint64_t sse(const PlaneView& ref, const PlaneView& dist, int y0, int y1) {
  return sse_reference(ref, dist, y0, y1);
}

}  // namespace exactvq::psnr
