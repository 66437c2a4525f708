// The images ADM works on (16-bit at scale 0, 32-bit at scales 1 to 3): a
// whole band (the DWT's low-pass bands, the next scale's input), rows of the
// three oriented bands, and the regions the stages run over.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace exactvq::adm {

template <typename T>
struct BandImage {
  std::vector<T> samples;
  int width = 0;
  int height = 0;

  // All zeros at w x h, unless the image already has that size: then it keeps
  // its samples (the driver, reference.cpp, writes every sample of its bands
  // before it reads them, frame after frame).
  void resize(int w, int h) {
    if (w == width && h == height && samples.size() == static_cast<size_t>(w) * size_t(h)) return;
    width = w;
    height = h;
    samples.assign(static_cast<size_t>(w) * static_cast<size_t>(h), T{0});
  }
  T* row(int i) { return samples.data() + static_cast<ptrdiff_t>(i) * width; }
  const T* row(int i) const { return samples.data() + static_cast<ptrdiff_t>(i) * width; }
};

// One row of each oriented band, read-only or written.
template <typename T>
struct OrientedRows {
  const T* band[3];
};
template <typename T>
struct OrientedRowsOut {
  T* band[3];
};

// Rows [top, bottom) and columns [left, right) of a band.
struct Region {
  int top = 0, bottom = 0, left = 0, right = 0;
};

// Where libvmaf scores a w x h band: a border of about 10% left out on every side.
inline Region score_region(int w, int h) {
  Region r;
  r.left = static_cast<int>(w * 0.1 - 0.5);
  r.top = static_cast<int>(h * 0.1 - 0.5);
  r.right = w - r.left;
  r.bottom = h - r.top;
  return r;
}

// Where the decoupling and CSF stages run: the scored region grown by the
// masking filter's reach (one more sample, then two on the far side), clamped.
inline Region filter_region(int w, int h) {
  Region r;
  r.left = static_cast<int>(w * 0.1 - 0.5 - 1);
  r.top = static_cast<int>(h * 0.1 - 0.5 - 1);
  r.right = w - r.left + 2;
  r.bottom = h - r.top + 2;
  if (r.left < 0) r.left = 0;
  if (r.right > w) r.right = w;
  if (r.top < 0) r.top = 0;
  if (r.bottom > h) r.bottom = h;
  return r;
}

}  // namespace exactvq::adm
