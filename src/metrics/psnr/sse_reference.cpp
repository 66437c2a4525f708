#include "metrics/psnr/sse.h"

namespace exactvq::psnr {

namespace {

// 8-bit rows: a row of at most kMaxDimension (2^16) squares of at most 255^2
// stays below 2^32, so the row sums in 32 bits, as libvmaf's does.
uint64_t sse_rows_8(const PlaneView& ref, const PlaneView& dist, int y0, int y1) {
  uint64_t total = 0;
  for (int y = y0; y < y1; ++y) {
    const uint8_t* r = ref.row<uint8_t>(y);
    const uint8_t* d = dist.row<uint8_t>(y);
    uint32_t row = 0;
    for (int x = 0; x < ref.width; ++x) {
      const int e = int(r[x]) - int(d[x]);
      row += uint32_t(e * e);
    }
    total += row;
  }
  return total;
}

// Above 8 bits a square reaches (2^16 - 1)^2 < 2^32; the sum is 64-bit.
uint64_t sse_rows_16(const PlaneView& ref, const PlaneView& dist, int y0, int y1) {
  uint64_t total = 0;
  for (int y = y0; y < y1; ++y) {
    const uint16_t* r = ref.row<uint16_t>(y);
    const uint16_t* d = dist.row<uint16_t>(y);
    for (int x = 0; x < ref.width; ++x) {
      const uint32_t e = r[x] > d[x] ? uint32_t(r[x] - d[x]) : uint32_t(d[x] - r[x]);
      total += uint64_t{e * e};
    }
  }
  return total;
}

}  // namespace

uint64_t sse_reference(const PlaneView& ref, const PlaneView& dist, int y0, int y1) {
  return ref.bytes_per_sample == 1 ? sse_rows_8(ref, dist, y0, y1) : sse_rows_16(ref, dist, y0, y1);
}

}  // namespace exactvq::psnr
