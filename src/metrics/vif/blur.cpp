#include "metrics/vif/blur.h"

namespace exactvq::vif {

void vertical_blur(std::span<const uint8_t* const> ref_rows,
                   std::span<const uint8_t* const> dist_rows, SampleWidth sample, int width,
                   std::span<const uint16_t> taps, Rounding round, BlurLines& out) {
  for (int x = 0; x < width; ++x) {
    uint32_t r = 0, d = 0;
    for (size_t k = 0; k < taps.size(); ++k) {
      r += taps[k] * sample_at(ref_rows[k], sample, x);
      d += taps[k] * sample_at(dist_rows[k], sample, x);
    }
    out.ref[x] = uint16_t((r + round.add) >> round.shift);
    out.dist[x] = uint16_t((d + round.add) >> round.shift);
  }
}

void horizontal_blur_even(const BlurLines& lines, int width, std::span<const uint16_t> taps,
                          std::span<uint16_t> ref_out, std::span<uint16_t> dist_out) {
  const int half = int(taps.size() / 2);
  for (int j = 0; j < width / 2; ++j) {
    uint32_t r = 0, d = 0;
    for (size_t k = 0; k < taps.size(); ++k) {
      const int c = 2 * j - half + int(k);
      r += taps[k] * lines.ref[c];
      d += taps[k] * lines.dist[c];
    }
    ref_out[size_t(j)] = uint16_t((r + 32768) >> 16);
    dist_out[size_t(j)] = uint16_t((d + 32768) >> 16);
  }
}

void blur_row(std::span<const uint8_t* const> ref_rows, std::span<const uint8_t* const> dist_rows,
              SampleWidth sample, int width, std::span<const uint16_t> taps, Rounding round,
              BlurLines& lines, std::span<uint16_t> ref_out, std::span<uint16_t> dist_out) {
  vertical_blur(ref_rows, dist_rows, sample, width, taps, round, lines);
  mirror_edge_columns(lines.ref, width, int(taps.size() / 2));
  mirror_edge_columns(lines.dist, width, int(taps.size() / 2));
  horizontal_blur_even(lines, width, taps, ref_out, dist_out);
}

}  // namespace exactvq::vif
