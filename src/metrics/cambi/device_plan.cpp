#include "metrics/cambi/device_plan.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>

#include "metrics/cambi/reciprocal_table.h"
#include "metrics/cambi/reference.h"

namespace exactvq::cambi {

namespace {

DevicePicture device_picture(const CambiSetup& s, const ImagePlan& plan) {
  DevicePicture p;
  p.plan = &plan;
  p.sizes = scale_sizes(plan, s.high_res_speedup);
  for (int n = 0; n < kScales; ++n) {
    p.offset[size_t(n)] = p.values;
    p.values += p.scale_values(n);
    // Scale 0 is the 10-bit image itself, halved once with the speed-up;
    // each later scale halves the previous one's filtered image.
    p.image_step[size_t(n)] = n > 0 || s.high_res_speedup ? 1 : 0;
    p.mask_step[size_t(n)] = n + (s.high_res_speedup ? 1 : 0);
  }
  p.mask_threshold = mask_threshold(plan.width, plan.height);
  const int nd = s.num_diffs;
  p.contrast.num_diffs = nd;
  p.contrast.base = std::max(0, s.vlt_luma - 3 * nd + 1);
  // An empty band (the setup refuses a negative one) counts nothing: every value 0.
  p.contrast.band = std::max(0, s.tvi_for_diff[size_t(nd - 1)] + 1 - p.contrast.base);
  p.contrast.vlt_luma = s.vlt_luma;
  p.contrast.pad = plan.window >> 1;
  return p;
}

}  // namespace

DeviceLayout device_layout(const CambiSetup& s) {
  DeviceLayout l;
  l.pictures = s.full_ref ? 2 : 1;
  l.picture[0] = device_picture(s, s.distorted);
  if (s.full_ref) l.picture[1] = device_picture(s, s.source);
  for (int i = 0; i < l.pictures; ++i) {
    const DevicePicture& p = l.picture[i];
    l.offset[size_t(i)] = l.values_per_frame;
    l.values_per_frame += p.values;
    l.largest_image = std::max(l.largest_image, size_t(p.plan->width) * size_t(p.plan->height));
  }
  const int b = s.input_bitdepth;
  l.convert.up = b < 10 ? 10 - b : 0;
  l.convert.down = b > 10 ? b - 10 : 0;
  l.convert.round = l.convert.down ? 1 << (l.convert.down - 1) : 0;
  l.anti_dither = s.enc_bitdepth < 10;
  return l;
}

std::vector<uint32_t> device_tables(const CambiSetup& s) {
  std::vector<uint32_t> t(kTableReciprocal + kReciprocalEntries, 0);
  for (int d = 0; d < kMaxDiffs; ++d) {
    t[kTableTvi + size_t(d)] = uint32_t(s.tvi_for_diff[size_t(d)]);
    t[kTableWeight + size_t(d)] = uint32_t(kContrastWeight[d]);
  }
  for (int i = 0; i < kReciprocalEntries; ++i)
    t[kTableReciprocal + size_t(i)] = std::bit_cast<uint32_t>(kReciprocal[i]);
  return t;
}

void pool_picture(std::span<float> values, const DevicePicture& p, double topk,
                  const HeatmapFiles* heatmaps, int64_t index, ThreadPool* pool,
                  std::span<double> out) {
  parallel_for(pool, kScales, [&](int n) {
    const std::span<float> scale = values.subspan(p.offset[size_t(n)], p.scale_values(n));
    const auto [w, h] = p.sizes[size_t(n)];
    if (heatmaps) heatmaps->write(index, n, scale, w, h);
    out[size_t(n)] = pool_topk(scale, topk);
  });
}

PoolRecords pool_records(const DevicePicture& p, int run, int block_runs, int block_rows) {
  PoolRecords r;
  for (int n = 0; n < kScales; ++n) {
    const auto [w, h] = p.sizes[size_t(n)];
    const int runs = (w + run - 1) / run;
    const int across = (runs + block_runs - 1) / block_runs;
    const int down = (h + block_rows - 1) / block_rows;
    r.blocks_across[size_t(n)] = across;
    r.offset[size_t(n)] = r.records;
    r.count[size_t(n)] = size_t(across) * size_t(down);
    r.records += r.count[size_t(n)];
  }
  return r;
}

unsigned pool_from_records(const uint64_t* words, const PoolRecords& r, const DevicePicture& p,
                           double topk, std::span<double> out) {
  unsigned read_back = 0;
  for (int n = 0; n < kScales; ++n) {
    const CambiPoolPartial all =
        merge_records(words + r.offset[size_t(n)] * EXACTVQ_CAMBI_POOL_WORDS, r.count[size_t(n)]);
    if (const std::optional<double> v = pooled_from_partial(all, p.scale_values(n), topk))
      out[size_t(n)] = *v;
    else
      read_back |= 1u << n;
  }
  return read_back;
}

}  // namespace exactvq::cambi
