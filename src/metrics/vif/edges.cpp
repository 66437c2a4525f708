#include "metrics/vif/edges.h"

#include <cstring>

namespace exactvq::vif {

LevelRows::LevelRows(size_t row_bytes, int height)
    : row_bytes_(row_bytes), bytes_(row_bytes * (size_t(height) + 2 * kMaxHalfTaps), 0) {}

LevelRows::LevelRows(size_t row_bytes, int height, std::vector<uint8_t>&& storage, bool zeroed)
    : row_bytes_(row_bytes), bytes_(std::move(storage)) {
  const size_t size = row_bytes * (size_t(height) + 2 * kMaxHalfTaps);
  if (zeroed)
    bytes_.assign(size, 0);
  else
    bytes_.resize(size);
}

void mirror_edge_rows(LevelRows& rows, int height, int half) {
  const size_t n = rows.row_bytes();
  for (int f = 1; f <= half; ++f) {
    std::memmove(rows.row(-f), rows.row(f), n);
    std::memmove(rows.row(height - 1 + f), rows.row(height - 1 - f), n);
  }
}

void mirror_edge_columns(EdgeLine& line, int width, int half) {
  for (int f = 1; f <= half; ++f) {
    line[-f] = line[f];
    line[width - 1 + f] = line[width - 1 - f];
  }
}

}  // namespace exactvq::vif
