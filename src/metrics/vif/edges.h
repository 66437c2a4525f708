// libvmaf's edges for vif: mirrored rows around each pyramid level and
// mirrored columns around each filtered line, written the way libvmaf writes
// them, into buffers that live for a whole frame as libvmaf's do.
//
// libvmaf copies edge f = 1, 2, ... in turn from inside the picture. With two
// or more rows (columns) that is the mirror without the edge repeated
// (..., 2, 1, 0, 1, 2, ...), periodic beyond the far edge. With one row
// (column) edge f copies what the buffer held there: what the previous level
// (or the previous line) left, which these buffers keep just as libvmaf does.
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "metrics/vif/taps.h"

namespace exactvq::vif {

enum class SampleWidth { k8, k16 };  // bytes per sample of a level; 16: little-endian

// The rows of the pyramid levels of one picture: rows [-kMaxHalfTaps,
// height + kMaxHalfTaps) of row_bytes bytes each. Level k's rows overwrite the
// start of level k-1's (as libvmaf's one buffer does); the bytes after them
// stay.
class LevelRows {
 public:
  LevelRows(size_t row_bytes, int height);
  // The same, zeroed, in `storage`'s memory (reused from an earlier frame:
  // no fresh pages to fault in); unless `zeroed` is false, for a caller that
  // writes every byte.
  LevelRows(size_t row_bytes, int height, std::vector<uint8_t>&& storage, bool zeroed = true);
  // The memory back, for a later frame.
  std::vector<uint8_t> release() && { return std::move(bytes_); }
  uint8_t* row(int y) { return bytes_.data() + size_t(y + kMaxHalfTaps) * row_bytes_; }
  const uint8_t* row(int y) const { return bytes_.data() + size_t(y + kMaxHalfTaps) * row_bytes_; }
  size_t row_bytes() const { return row_bytes_; }

 private:
  size_t row_bytes_;
  std::vector<uint8_t> bytes_;
};

// For f = 1..half in turn: row -f takes row f, then row height-1+f takes row
// height-1-f (whole rows). 1 <= height, half <= kMaxHalfTaps.
void mirror_edge_rows(LevelRows& rows, int height, int half);

// One filtered line: columns [-kMaxHalfTaps, width + kMaxHalfTaps) of the
// widest level, kept from row to row and level to level.
class EdgeLine {
 public:
  explicit EdgeLine(int width) : values_(size_t(width) + 2 * kMaxHalfTaps, 0) {}
  uint32_t& operator[](int x) { return values_[size_t(x + kMaxHalfTaps)]; }
  uint32_t operator[](int x) const { return values_[size_t(x + kMaxHalfTaps)]; }
  const uint32_t* at(int x) const { return values_.data() + (x + kMaxHalfTaps); }
  uint32_t* at(int x) { return values_.data() + (x + kMaxHalfTaps); }

 private:
  std::vector<uint32_t> values_;
};

// For f = 1..half in turn: column -f takes column f, then column width-1+f
// takes column width-1-f. 1 <= width, half <= kMaxHalfTaps.
void mirror_edge_columns(EdgeLine& line, int width, int half);

// Sample x of a level row (8-bit, or 16-bit little-endian).
inline uint32_t sample_at(const uint8_t* row, SampleWidth w, int x) {
  if (w == SampleWidth::k8) return row[x];
  return uint32_t(row[2 * x]) | uint32_t(row[2 * x + 1]) << 8;
}

inline void store_sample16(uint8_t* row, int x, uint16_t v) {
  row[2 * x] = uint8_t(v & 0xff);
  row[2 * x + 1] = uint8_t(v >> 8);
}

}  // namespace exactvq::vif
