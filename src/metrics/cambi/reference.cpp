#include "metrics/cambi/reference.h"

#include <algorithm>
#include <utility>

#include "metrics/cambi/reciprocal_table.h"

namespace exactvq::cambi {

namespace {

// The weight of each scale's pooled value, finest first.
constexpr int kScaleWeight[kScales] = {16, 8, 4, 2, 1};
constexpr int kMaskSide = 7;

template <typename Sample>
int sample_at(const PlaneView& p, int x, int y) {
  return p.row<Sample>(y)[x];
}

template <typename Sample>
void convert(const PlaneView& luma, int bitdepth, const ImagePlan& plan, uint16_t* out) {
  const bool same_size = plan.source_cols.empty();
  // Up to 10 bits: shifted up; above: rounded to the nearest code, which at 16
  // bits may reach 1024.
  const int up = bitdepth < 10 ? 10 - bitdepth : 0;
  const int down = bitdepth > 10 ? bitdepth - 10 : 0;
  const int round = down ? 1 << (down - 1) : 0;
  for (int y = 0; y < plan.height; ++y) {
    const int sy = same_size ? y : plan.source_rows[size_t(y)];
    for (int x = 0; x < plan.width; ++x) {
      const int sx = same_size ? x : plan.source_cols[size_t(x)];
      const int v = sample_at<Sample>(luma, sx, sy);
      out[size_t(y) * size_t(plan.width) + size_t(x)] =
          uint16_t(up ? v << up : (v + round) >> down);
    }
  }
}

uint16_t mode3(uint16_t a, uint16_t b, uint16_t c) {
  if (a == b || a == c) return a;
  if (b == c) return b;
  return std::min({a, b, c});
}

int ceil_log2(uint32_t n) {
  int bits = 0;
  for (uint32_t rest = n ? n - 1 : 0; rest > 0; rest >>= 1) ++bits;
  return bits;
}

}  // namespace

void ten_bit_image(const PlaneView& luma, const CambiSetup& s, const ImagePlan& plan,
                   uint16_t* out) {
  if (luma.bytes_per_sample == 1)
    convert<uint8_t>(luma, s.input_bitdepth, plan, out);
  else
    convert<uint16_t>(luma, s.input_bitdepth, plan, out);
  if (s.enc_bitdepth < 10) anti_dither(out, plan.width, plan.height);
}

// In place, row by row and left to right: each sample's sum reads only
// samples to its right and below, which the pass has not changed yet.
void anti_dither(uint16_t* image, int w, int h) {
  for (int y = 0; y + 1 < h; ++y) {
    uint16_t* row = image + size_t(y) * size_t(w);
    const uint16_t* below = row + w;
    for (int x = 0; x + 1 < w; ++x)
      row[x] = uint16_t((row[x] + row[x + 1] + below[x] + below[x + 1]) >> 2);
    row[w - 1] = uint16_t((row[w - 1] + below[w - 1]) >> 1);
  }
  uint16_t* last = image + size_t(h - 1) * size_t(w);
  for (int x = 0; x + 1 < w; ++x) last[x] = uint16_t((last[x] + last[x + 1]) >> 1);
}

int mask_threshold(int w, int h) {
  const uint32_t blocks = uint32_t(unsigned(w) >> 6) * uint32_t(unsigned(h) >> 6);
  return uint16_t((kMaskSide * kMaskSide + 3 * (ceil_log2(blocks) - 11) - 1) >> 1);
}

void spatial_mask(const uint16_t* image, int w, int h, uint8_t* mask) {
  const int reach = kMaskSide / 2;
  // flat[y * w + x]: the sample equals its right and lower neighbours.
  std::vector<uint8_t> flat(size_t(w) * size_t(h));
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      const size_t at = size_t(y) * size_t(w) + size_t(x);
      const bool right = x == w - 1 || image[at] == image[at + 1];
      const bool down = y == h - 1 || image[at] == image[at + size_t(w)];
      flat[at] = right && down;
    }
  // column[x]: flat samples of column x in rows y - reach .. y + reach.
  std::vector<int> column(size_t(w), 0);
  const auto add_row = [&](int y, int step) {
    for (int x = 0; x < w; ++x) column[size_t(x)] += step * flat[size_t(y) * size_t(w) + size_t(x)];
  };
  for (int y = 0; y < std::min(reach, h); ++y) add_row(y, 1);
  const int threshold = mask_threshold(w, h);
  for (int y = 0; y < h; ++y) {
    if (y + reach < h) add_row(y + reach, 1);
    if (y - reach - 1 >= 0) add_row(y - reach - 1, -1);
    // The horizontal sum of the columns' counts, slid along the row.
    int count = 0;
    for (int k = 0; k < std::min(reach, w); ++k) count += column[size_t(k)];
    for (int x = 0; x < w; ++x) {
      if (x + reach < w) count += column[size_t(x + reach)];
      if (x - reach - 1 >= 0) count -= column[size_t(x - reach - 1)];
      mask[size_t(y) * size_t(w) + size_t(x)] = count > threshold;
    }
  }
}

void mode_filter(uint16_t* image, int w, int h) {
  std::vector<uint16_t> pass(size_t(w) * size_t(h));
  for (int y = 0; y < h; ++y) {
    const uint16_t* in = image + size_t(y) * size_t(w);
    uint16_t* out = pass.data() + size_t(y) * size_t(w);
    out[0] = in[0];
    for (int x = 1; x + 1 < w; ++x) out[x] = mode3(in[x - 1], in[x], in[x + 1]);
    out[w - 1] = in[w - 1];
  }
  for (int y = 1; y + 1 < h; ++y)
    for (int x = 0; x < w; ++x) {
      const size_t at = size_t(y) * size_t(w) + size_t(x);
      image[at] = mode3(pass[at - size_t(w)], pass[at], pass[at + size_t(w)]);
    }
}

void contrast_values(const uint16_t* image, const uint8_t* mask, int w, int h, int window,
                     const CambiSetup& s, float* values, ContrastScratch& scratch,
                     SlideCounts slide) {
  const int pad = window >> 1;
  const int nd = s.num_diffs;
  // Only codes in [base, base + band) can reach a nonzero value (the setup
  // checks it); counts of the others are never read.
  const int base = std::max(0, s.vlt_luma - 3 * nd + 1);
  const int band = s.tvi_for_diff[size_t(nd - 1)] + 1 - base;
  std::fill(values, values + size_t(w) * size_t(h), 0.0f);
  // An empty band (the setup refuses a negative one): every value is 0.
  if (band <= 0) return;
  std::vector<uint16_t>& counts = scratch.counts;
  counts.assign(size_t(band) * size_t(w), 0);
  const auto row = [&](int y) {
    return y >= 0 && y < h ? CountsRow{image + size_t(y) * size_t(w), mask + size_t(y) * size_t(w)}
                           : CountsRow{};
  };
  for (int y = 0; y < pad; ++y) slide(counts.data(), {}, row(y), w, pad, base, band);
  for (int y = 0; y < h; ++y) {
    // The window moves to rows y - pad .. y + pad.
    slide(counts.data(), row(y - pad - 1), row(y + pad), w, pad, base, band);
    for (int x = 0; x < w; ++x) {
      const size_t at = size_t(y) * size_t(w) + size_t(x);
      if (!mask[at]) continue;
      // Codes are compared with the thresholds num_diffs above them.
      const int value = image[at] + nd;
      const int own = image[at] - base;
      if (unsigned(own) >= unsigned(band)) continue;  // value 0
      const auto count = [&](int code) {
        return int(counts[size_t(code) * size_t(w) + size_t(x)]);
      };
      const int p0 = count(own);
      float c = 0.0f;
      for (int d = 0; d < nd; ++d) {
        if (value > s.tvi_for_diff[size_t(d)] || value + d + 1 <= s.vlt_luma) continue;
        const int p1 = count(own + d + 1);
        const int p2 = own - d - 1 >= 0 ? count(own - d - 1) : 0;
        const int p = p1 > p2 ? p1 : p2;
        const float v = float(kContrastWeight[d] * p0 * p) * kReciprocal[p + p0];
        if (v > c) c = v;
      }
      values[at] = c;
    }
  }
}

// libvmaf's quick select (Hoare partitions around the value at k), which
// leaves values in an order that the sum then follows.
double pool_topk(std::span<float> values, double topk) {
  const int n = int(values.size());
  const int k = std::clamp(int(topk * n), 1, n);
  if (k != n) {
    int left = 0, right = n - 1;
    while (left < right) {
      const float pivot = values[size_t(k)];
      int i = left, j = right;
      do {
        while (values[size_t(i)] > pivot) ++i;
        while (values[size_t(j)] < pivot) --j;
        if (i <= j) {
          std::swap(values[size_t(i)], values[size_t(j)]);
          ++i;
          --j;
        }
      } while (i <= j);
      if (j < k) left = i;
      if (k < i) right = j;
    }
  }
  double sum = 0;
  for (int i = 0; i < k; ++i) sum += values[size_t(i)];
  return sum / k;
}

std::array<double, kScales> scale_scores(const PlaneView& luma, const CambiSetup& s,
                                         const ImagePlan& plan, SlideCounts slide,
                                         const ScaleValuesSink& sink) {
  const size_t samples = size_t(plan.width) * size_t(plan.height);
  std::vector<uint16_t> image(samples);
  std::vector<uint8_t> mask(samples);
  std::vector<float> values(samples);
  ContrastScratch scratch;
  ten_bit_image(luma, s, plan, image.data());
  spatial_mask(image.data(), plan.width, plan.height, mask.data());
  std::array<double, kScales> scores{};
  int w = plan.width, h = plan.height;
  for (int scale = 0; scale < kScales; ++scale) {
    if (scale > 0 || s.high_res_speedup) {
      decimate(image.data(), w, h);
      decimate(mask.data(), w, h);
      w = (w + 1) >> 1;
      h = (h + 1) >> 1;
    }
    mode_filter(image.data(), w, h);
    contrast_values(image.data(), mask.data(), w, h, plan.window, s, values.data(), scratch, slide);
    const std::span<float> scale_values(values.data(), size_t(w) * size_t(h));
    if (sink) sink(scale, scale_values, w, h);
    scores[size_t(scale)] = pool_topk(scale_values, s.topk);
  }
  return scores;
}

double combine_scales(const std::array<double, kScales>& scales, int window) {
  double score = 0.0;
  for (int s = 0; s < kScales; ++s) score += scales[size_t(s)] * kScaleWeight[s];
  const int area = uint16_t(window * window);
  return score / area;
}

}  // namespace exactvq::cambi
