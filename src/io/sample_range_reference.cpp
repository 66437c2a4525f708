#include "io/sample_range.h"

namespace exactvq {

size_t first_above_reference(const uint16_t* s, size_t n, uint16_t max) {
  size_t i = 0;
  while (i < n && s[i] <= max) ++i;
  return i;
}

}  // namespace exactvq
