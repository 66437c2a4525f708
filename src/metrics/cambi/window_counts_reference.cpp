#include <algorithm>

#include "metrics/cambi/window_counts.h"

namespace exactvq::cambi {

namespace {

void add_row(uint16_t* counts, CountsRow row, int w, int pad, int base, int band, int step) {
  if (!row.codes) return;
  for (int x = 0; x < w; ++x) {
    if (!row.mask[x]) continue;
    const int code = row.codes[x] - base;
    if (code < 0 || code >= band) continue;
    uint16_t* line = counts + size_t(code) * size_t(w);
    for (int k = std::max(0, x - pad); k < std::min(w, x + pad + 1); ++k)
      line[k] = uint16_t(line[k] + step);
  }
}

}  // namespace

void slide_counts_reference(uint16_t* counts, CountsRow leaving, CountsRow entering, int w, int pad,
                            int base, int band) {
  add_row(counts, leaving, w, pad, base, band, -1);
  add_row(counts, entering, w, pad, base, band, 1);
}

}  // namespace exactvq::cambi
