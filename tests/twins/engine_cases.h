// Case lists the engine rows share (engine_matrix.h): case.a is the batch's
// frames; the full-size cases come last.
#pragma once

#include <utility>
#include <vector>

#include <fmt/format.h>

#include "core/picture.h"
#include "twin_table.h"

namespace exactvq::twins {

inline constexpr ChromaFormat kChromas[] = {ChromaFormat::k420, ChromaFormat::k422,
                                            ChromaFormat::k444, ChromaFormat::kMono};

// A case of `frames` frames of w x h in chroma format kChromas[chroma], its
// seed the salt's `index`th.
inline Case frames_case(uint64_t salt, size_t index, int w, int h, int bits, int chroma, int frames,
                        bool timed) {
  Case c;
  c.seed = case_seed(salt, index);
  c.width = w;
  c.height = h;
  c.bits = bits;
  c.fill = chroma;
  c.a = frames;
  c.timed = timed;
  c.what = fmt::format("{} frames of {}x{} {} {}-bit", frames, w, h, chroma_name(kChromas[chroma]),
                       bits);
  return c;
}

// Every plane of every chroma format (case.fill: kChromas' index) at every
// depth, odd and tile-edge sizes, a batch of many frames, then 1080p.
inline std::vector<Case> every_format_cases() {
  const int sizes[][2] = {{1, 1},   {1, 13},   {13, 1},   {2, 2},    {2, 3},    {5, 5},
                          {8, 8},   {9, 9},    {17, 9},   {33, 31},  {63, 31},  {64, 32},
                          {65, 33}, {70, 41},  {72, 40},  {127, 31}, {128, 32}, {129, 33},
                          {136, 9}, {129, 97}, {200, 97}, {257, 65}, {7, 300},  {383, 97}};
  const int depths[] = {8, 9, 10, 12, 14, 16};
  std::vector<Case> all;
  auto add = [&](int w, int h, int bits, int chroma, int frames, bool timed) {
    all.push_back(frames_case(0x5eed'0c0da, all.size(), w, h, bits, chroma, frames, timed));
  };
  size_t k = 0;
  for (const auto& s : sizes)
    for (int bits : depths) add(s[0], s[1], bits, int(k++ % 4), 3, false);
  add(96, 64, 10, 0, 70, false);  // many frames: several lanes and launches a batch
  for (int bits : {8, 10, 16}) add(1920, 1080, bits, 0, 2, bits != 16);
  return all;
}

inline VideoFormat every_format_of(const Case& c) {
  return VideoFormat{c.width, c.height, kChromas[c.fill], c.bits};
}

inline VideoFormat luma_format(const Case& c) {
  return VideoFormat{c.width, c.height, ChromaFormat::kMono, c.bits};
}

// Luma planes of `sizes` at 8, 10, 12 and 16 bits, `frames` each, case.b 0
// and 1 in turn (the option the metric varies, b_names[case.b] in the case's
// name); then 1080p at 8 and 10 bits, `full_frames` each (timed).
inline std::vector<Case> luma_cases(const std::vector<std::pair<int, int>>& sizes,
                                    const char* const b_names[2], int frames = 3,
                                    int full_frames = 2) {
  std::vector<Case> all;
  auto add = [&](int w, int h, int bits, int n, bool timed) {
    Case c;
    c.seed = case_seed(0x7a1f'0e64, all.size());
    c.width = w;
    c.height = h;
    c.bits = bits;
    c.a = n;
    c.b = int(all.size() % 2);
    c.timed = timed;
    c.what = fmt::format("{} frames of {}x{} {}-bit{}", n, w, h, bits, b_names[c.b]);
    all.push_back(c);
  };
  for (const auto& [w, h] : sizes)
    for (const int bits : {8, 10, 12, 16}) add(w, h, bits, frames, false);
  for (const int bits : {8, 10}) add(1920, 1080, bits, full_frames, true);
  return all;
}

}  // namespace exactvq::twins
