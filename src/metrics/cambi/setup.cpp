#include "metrics/cambi/setup.h"

#include <algorithm>
#include <cstdint>

#include <fmt/format.h>

#include "core/error.h"
#include "metrics/cambi/luminance.h"
#include "metrics/cambi/reciprocal_table.h"

namespace exactvq::cambi {

namespace {

// Whether a step of `diff` codes above `code` is visible: its luminance
// difference exceeds tvi_threshold times the luminance at `code`.
bool step_visible(int code, int diff, double tvi_threshold, Eotf eotf) {
  const double mean = luminance(code, eotf);
  const double stepped = luminance(code + diff, eotf);
  const double delta = stepped - mean;
  return delta > tvi_threshold * mean;
}

enum class Bisect { kTooSmall, kCorrect, kTooBig };

// kCorrect where `code` is the last code whose step is visible (the next one's is not).
Bisect classify(int code, int diff, double tvi_threshold, Eotf eotf) {
  if (!step_visible(code, diff, tvi_threshold, eotf)) return Bisect::kTooBig;
  if (step_visible(code + 1, diff, tvi_threshold, eotf)) return Bisect::kTooSmall;
  return Bisect::kCorrect;
}

// libvmaf's bisection for the threshold code of a contrast `diff` at 10 bits.
int threshold_for_diff(int diff, double tvi_threshold, Eotf eotf) {
  constexpr int kTopCode = 1023;
  int low = kLumaFoot;
  int high = kLumaHead - diff - 1;
  Bisect b = classify(low, diff, tvi_threshold, eotf);
  if (b == Bisect::kTooBig) return 0;
  if (b == Bisect::kCorrect) return low;
  b = classify(high, diff, tvi_threshold, eotf);
  if (b == Bisect::kTooSmall) return kTopCode;
  if (b == Bisect::kCorrect) return high;
  for (;;) {
    const int mid = low + (high - low) / 2;
    b = classify(mid, diff, tvi_threshold, eotf);
    if (b == Bisect::kCorrect) return mid;
    const int next_low = b == Bisect::kTooSmall ? mid : low;
    const int next_high = b == Bisect::kTooBig ? mid : high;
    // libvmaf loops for ever where the visibility is not monotonic.
    if (next_low == low && next_high == high)
      throw UsageError(fmt::format(
          "feature cambi: tvi_threshold={} has no threshold code for a contrast of {} (libvmaf's "
          "search never ends)",
          tvi_threshold, diff));
    low = next_low;
    high = next_high;
  }
}

// The first code from the foot whose luminance reaches `threshold` (0 where the foot does).
int visibility_code(double threshold, Eotf eotf) {
  int code = kLumaFoot;
  while (luminance(code, eotf) < threshold) {
    // Past the head the luminance stays the head's: libvmaf's search never ends.
    if (code >= kLumaHead)
      throw UsageError(fmt::format(
          "feature cambi: cambi_vis_lum_threshold={} is above the EOTF's peak luminance {}",
          threshold, luminance(kLumaHead, eotf)));
    ++code;
  }
  return code == kLumaFoot ? 0 : code;
}

// libvmaf's window at a size: the 4K window scaled by (w + h) / 6000 (in
// integers: / 375 then >> 4), halved with the speed-up, then made odd.
int adjusted_window(int window, int w, int h, bool high_res_speedup) {
  int ws = uint16_t((unsigned(window) * unsigned(w + h) / 375u) >> 4);
  if (high_res_speedup) ws = (ws + 1) >> 1;
  return ws | 1;
}

// The nearest-neighbour picks of libvmaf's resampling from `in` to `out`
// samples: binary32 positions stepping by in / out from its half, each
// rounded by adding 0.5 in binary64 and truncating.
std::vector<int> picks(int in, int out) {
  const float ratio = float(in) / float(unsigned(out));
  const float start = float(double(ratio / 2) - 0.5);
  std::vector<int> at(static_cast<size_t>(out));
  float x = start;
  for (int i = 0; i < out; ++i) {
    at[size_t(i)] = int(double(x) + 0.5);
    x += ratio;
  }
  return at;
}

ImagePlan make_plan(int w, int h, int window, const VideoFormat& f) {
  ImagePlan p;
  p.width = w;
  p.height = h;
  p.window = window;
  if (w != f.width || h != f.height) {
    p.source_rows = picks(f.height, h);
    p.source_cols = picks(f.width, w);
    const int last_row = *std::max_element(p.source_rows.begin(), p.source_rows.end());
    const int last_col = *std::max_element(p.source_cols.begin(), p.source_cols.end());
    if (last_row >= f.height || last_col >= f.width)
      throw PictureError(fmt::format(
          "feature cambi: resampling a {}x{} picture to {}x{} reads outside it (libvmaf reads "
          "past its rows)",
          f.width, f.height, w, h));
  }
  return p;
}

// libvmaf's window pass reads rows 0 .. pad and columns 0 .. pad - 1 of every
// scale whatever its size: a scale smaller than that is read outside its picture.
void check_window_reach(const ImagePlan& p, bool high_res_speedup, const char* which) {
  const int pad = p.window >> 1;
  int scale = 0;
  for (const auto& [w, h] : scale_sizes(p, high_res_speedup)) {
    if (h < pad + 1 || w < pad)
      throw PictureError(fmt::format(
          "feature cambi: the {} size {}x{} is too small for its window of {} at scale {} "
          "({}x{}; libvmaf reads outside the picture there)",
          which, p.width, p.height, p.window, scale, w, h));
    ++scale;
  }
}

int ceil32(int v) { return (v + 31) & ~31; }

}  // namespace

std::array<std::array<int, 2>, kScales> scale_sizes(const ImagePlan& plan, bool high_res_speedup) {
  std::array<std::array<int, 2>, kScales> sizes{};
  int w = plan.width, h = plan.height;
  for (int s = 0; s < kScales; ++s) {
    if (s > 0 || high_res_speedup) {
      w = (w + 1) >> 1;
      h = (h + 1) >> 1;
    }
    sizes[size_t(s)] = {w, h};
  }
  return sizes;
}

CambiSetup make_cambi_setup(const CambiOptions& o, const VideoFormat& f) {
  CambiSetup s;
  s.input_bitdepth = f.bitdepth;
  s.enc_bitdepth = o.enc_bitdepth ? o.enc_bitdepth : f.bitdepth;
  s.full_ref = o.full_ref;
  int enc_w = o.enc_width, enc_h = o.enc_height, src_w = o.src_width, src_h = o.src_height;
  if (enc_w == 0 || enc_h == 0) enc_w = f.width, enc_h = f.height;
  if (src_w == 0 || src_h == 0) src_w = f.width, src_h = f.height;
  // An encoding larger than the picture is not scaled back up.
  if (enc_h > f.height || enc_w > f.width) enc_w = f.width, enc_h = f.height;

  if (enc_w < kMinSide && enc_h < kMinSide)
    throw PictureError(fmt::format(
        "feature cambi needs pictures of at least {} samples in one side: the encoding size is "
        "{}x{} (picture {}x{})",
        kMinSide, enc_w, enc_h, f.width, f.height));
  if (src_w < kMinSide && src_h < kMinSide)
    throw PictureError(
        fmt::format("feature cambi needs pictures of at least {} samples in one side: the source "
                    "size is {}x{}",
                    kMinSide, src_w, src_h));
  if ((src_w > enc_w && src_h < enc_h) || (src_w < enc_w && src_h > enc_h))
    throw InputError(fmt::format(
        "feature cambi: the source size {}x{} is larger than the encoding size {}x{} in one side "
        "and smaller in the other",
        src_w, src_h, enc_w, enc_h));

  const int64_t enc_pixels = int64_t(enc_w) * enc_h;
  switch (o.high_res_speedup) {
    case 1080:
      s.high_res_speedup = enc_pixels >= 1920 * 1080;
      break;
    case 1440:
      s.high_res_speedup = enc_pixels >= 2560 * 1440;
      break;
    case 2160:
      s.high_res_speedup = enc_pixels >= 3840 * 2160;
      break;
    default:
      s.high_res_speedup = false;
  }

  s.num_diffs = 1 << o.max_log_contrast;
  const Eotf eotf = effective_eotf(o);
  for (int d = 0; d < s.num_diffs; ++d)
    s.tvi_for_diff[size_t(d)] =
        uint16_t(threshold_for_diff(d + 1, o.tvi_threshold, eotf) + s.num_diffs);
  // A code passing contrast d's threshold reads the count d + 1 codes above
  // it, which must lie below the last contrast's threshold (libvmaf's band).
  for (int d = 0; d < s.num_diffs; ++d)
    if (s.tvi_for_diff[size_t(d)] + d + 1 - s.num_diffs > s.tvi_for_diff[size_t(s.num_diffs - 1)])
      throw UsageError(fmt::format(
          "feature cambi: tvi_threshold={} gives thresholds that are not ordered by contrast "
          "(libvmaf reads outside its counts)",
          o.tvi_threshold));
  s.vlt_luma = visibility_code(o.vis_lum_threshold, eotf);
  // libvmaf keeps counts for the codes [max(0, vlt - 3 N + 1), last threshold]; where that
  // band is empty, its unsigned 16-bit size wraps around and it writes outside its buffers.
  const int band_base = std::max(0, s.vlt_luma - 3 * s.num_diffs + 1);
  if (s.tvi_for_diff[size_t(s.num_diffs - 1)] + 1 < band_base)
    throw UsageError(fmt::format(
        "feature cambi: cambi_vis_lum_threshold={} makes code {} the darkest visible one, above "
        "the largest contrast threshold {} (libvmaf's band of codes is then empty, its size "
        "wraps around and it crashes)",
        o.vis_lum_threshold, s.vlt_luma, s.tvi_for_diff[size_t(s.num_diffs - 1)] - s.num_diffs));
  s.topk = effective_topk(o);

  const int window = adjusted_window(o.window_size, enc_w, enc_h, s.high_res_speedup);
  const int src_window = adjusted_window(o.window_size, src_w, src_h, s.high_res_speedup);
  const int largest = std::max(window, src_window);
  if (largest * largest >= kReciprocalEntries)
    throw InputError(fmt::format(
        "feature cambi: window_size={} gives a window of {} at {}x{}, larger than libvmaf's "
        "reciprocal table takes (65)",
        o.window_size, largest, window >= src_window ? enc_w : src_w,
        window >= src_window ? enc_h : src_h));

  s.distorted = make_plan(enc_w, enc_h, window, f);
  check_window_reach(s.distorted, s.high_res_speedup, "encoding");
  if (s.full_ref) {
    s.source = make_plan(src_w, src_h, src_window, f);
    check_window_reach(s.source, s.high_res_speedup, "source");
    // libvmaf copies a 10-bit picture of the scored size whole, at its own
    // stride, into a buffer as wide as the larger of the two sizes.
    if (f.bitdepth == 10 && s.distorted.source_cols.empty() &&
        ceil32(std::max(src_w, enc_w)) != ceil32(f.width))
      throw PictureError(fmt::format(
          "feature cambi: full_ref with a source width of {} above the {}-sample picture's at 10 "
          "bits is refused (libvmaf copies the picture at the wrong stride)",
          src_w, f.width));
  }
  return s;
}

}  // namespace exactvq::cambi
