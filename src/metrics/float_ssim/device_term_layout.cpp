#include "metrics/float_ssim/device_term_layout.h"

#include <stdexcept>

#include <fmt/format.h>

namespace exactvq::float_ssim {

DeviceTermLayout::DeviceTermLayout(const std::vector<Positions>& scales, bool ssim_mean,
                                   bool lcs_means, int chunk_frames)
    : chunk_frames_(chunk_frames) {
  if (scales.empty() || scales.size() > size_t(kScales) || chunk_frames < 1 ||
      (!ssim_mean && !lcs_means))
    throw std::logic_error(
        fmt::format("float_ssim term layout: {} scales, chunks of {}, no term wanted: {}",
                    scales.size(), chunk_frames, !ssim_mean && !lcs_means));
  if (ssim_mean) terms_.push_back(Term::kLcs);
  if (lcs_means) terms_.insert(terms_.end(), {Term::kL, Term::kC, Term::kS});
  for (const Positions& p : scales) {
    if (p.ow < 1 || p.oh < 1)
      throw std::logic_error(
          fmt::format("float_ssim term layout: a scale of {} x {} positions", p.ow, p.oh));
    Scale s;
    s.positions = p;
    s.base = chunk_bytes_;
    const size_t bytes = size_t(p.ow) * size_t(p.oh) * sizeof(double);
    s.stride = (bytes + kAlign - 1) / kAlign * kAlign;
    chunk_bytes_ += size_t(chunk_frames) * terms_.size() * s.stride;
    scales_.push_back(s);
  }
}

DeviceTermLayout::ScalePlanes DeviceTermLayout::planes(int scale) const {
  const Scale& s = scales_.at(size_t(scale));
  ScalePlanes p;
  for (size_t q = 0; q < terms_.size(); ++q) {
    const size_t at = s.base + q * s.stride;
    switch (terms_[q]) {
      case Term::kLcs:
        p.lcs = at;
        break;
      case Term::kL:
        p.l = at;
        break;
      case Term::kC:
        p.c = at;
        break;
      case Term::kS:
        p.s = at;
        break;
    }
  }
  p.frame_stride = terms_.size() * s.stride;
  return p;
}

DeviceTermLayout::SumLayout DeviceTermLayout::sum_layout(int frames) const {
  if (frames < 1 || frames > chunk_frames_)
    throw std::logic_error(fmt::format("float_ssim term layout: a chunk of {} frames (at most {})",
                                       frames, chunk_frames_));
  SumLayout layout;
  layout.groups = frames * terms();
  layout.arrays = scales();
  for (size_t sc = 0; sc < scales_.size(); ++sc) {
    const Scale& s = scales_[sc];
    layout.array[sc] = {int64_t(s.base / sizeof(double)), int64_t(s.stride / sizeof(double)),
                        int64_t(s.positions.ow) * s.positions.oh};
  }
  return layout;
}

ScaleMeans DeviceTermLayout::means(const double* frame_sums) const {
  ScaleMeans out{};
  for (size_t sc = 0; sc < scales_.size(); ++sc) {
    double sum[4] = {0.0, 0.0, 0.0, 0.0};  // lcs, l, c, s
    for (size_t q = 0; q < terms_.size(); ++q)
      sum[size_t(terms_[q])] = frame_sums[q * scales_.size() + sc];
    const Positions& p = scales_[sc].positions;
    out[sc] = means_of_sums(sum[0], sum[1], sum[2], sum[3], p.ow, p.oh);
  }
  return out;
}

}  // namespace exactvq::float_ssim
