// Cambi's window counts, the heart of its contrast values: for each code of
// the band and each column x, the number of masked samples of that code in
// the window's rows and in columns x - pad .. x + pad. Moving the window down
// a row removes its top row and adds a new bottom row, each sample adding or
// subtracting 1 over its span of 2 pad + 1 columns. Integers modulo 2^16 that
// never leave [0, window^2]: exact in any order, so the SIMD twin may skip a
// column whose leaving and entering samples cancel.
#pragma once

#include <cstdint>

namespace exactvq::cambi {

// One image row as the counts read it; codes == nullptr: no row.
struct CountsRow {
  const uint16_t* codes = nullptr;
  const uint8_t* mask = nullptr;
};

// counts[(code - base) * w + x] for codes in [base, base + band): `leaving`'s
// masked samples in the band removed, then `entering`'s added, each over
// columns max(x - pad, 0) .. min(x + pad, w - 1).
using SlideCounts = void (*)(uint16_t* counts, CountsRow leaving, CountsRow entering, int w,
                             int pad, int base, int band);

// The definition, one sample at a time.
void slide_counts_reference(uint16_t* counts, CountsRow leaving, CountsRow entering, int w, int pad,
                            int base, int band);

// Its twin on the fastest SIMD target this CPU runs (Highway,
// cpu/window_counts_simd.cpp), the same counts.
void slide_counts(uint16_t* counts, CountsRow leaving, CountsRow entering, int w, int pad, int base,
                  int band);

}  // namespace exactvq::cambi
