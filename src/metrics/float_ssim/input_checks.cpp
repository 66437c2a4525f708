#include "metrics/float_ssim/input_checks.h"

#include <algorithm>

#include <fmt/format.h>

#include "core/error.h"

namespace exactvq::float_ssim {

void check_bit_depth(int bitdepth, const char* where) {
  if (!converts_bit_depth(bitdepth))
    throw PictureError(
        fmt::format("{}: bit depth {} has no float_ssim/float_ms_ssim value: libvmaf 3.2.0 "
                    "converts 8, 10, 12 and 16 "
                    "bits to float and reads other depths' 16-bit samples as bytes",
                    where, bitdepth));
}

bool converts_bit_depth(int bitdepth) {
  return bitdepth == 8 || bitdepth == 10 || bitdepth == 12 || bitdepth == 16;
}

int decimated_size(int size, int factor) { return size / factor + (size & 1); }

bool decimation_fits(int size, int factor, int taps) {
  const int out = decimated_size(size, factor);
  if (out <= 0) return true;
  const int half = taps / 2, last = half - (taps % 2 == 0 ? 1 : 0);
  // The lowest index (-half) mirrors to half - 1; the highest must mirror to >= 0.
  return half <= size && (out - 1) * factor + last < 2 * size;
}

int ssim_scale(int width, int height, int scale_option) {
  if (scale_option > 0) return scale_option;
  const float a = float(std::min(width, height)) / 256.0f;
  const int sign = a > 0.0f ? 1 : -1;
  const int whole = int(a);
  const int rounded = double(a - float(whole)) >= 0.5 ? whole + sign : whole;
  return std::max(1, rounded);
}

void check_ssim_input(int width, int height, int bitdepth, const SsimOptions& o,
                      const char* where) {
  check_bit_depth(bitdepth, where);
  const int scale = ssim_scale(width, height, o.scale);
  if (scale > 1 &&
      (!decimation_fits(width, scale, scale) || !decimation_fits(height, scale, scale)))
    throw PictureError(
        fmt::format("{}: a {}x{} picture is too small for scale={}: libvmaf's {}x{} box filter "
                    "would read outside it",
                    where, width, height, scale, scale, scale));
}

void check_ms_ssim_input(int width, int height, int bitdepth, const char* where) {
  check_bit_depth(bitdepth, where);
  // libvmaf's extractor fails there with 1, which its `vmaf` exits with.
  if (width < kMsSsimMinSide || height < kMsSsimMinSide)
    throw PictureError(
        fmt::format("{}: float_ms_ssim cannot score a {}x{} picture: libvmaf refuses pictures "
                    "under {} pixels in width or "
                    "height (its fifth scale would be narrower than the 11x11 window)",
                    where, width, height, kMsSsimMinSide),
        1);
}

}  // namespace exactvq::float_ssim
