// ZeroedBytes (core/zeroed_bytes.h): new bytes read as zero, small blocks (calloc)
// and large ones (fresh pages) alike, after growing, shrinking and growing again; the
// kept prefix; copies and moves; and a Picture's planes zero when first allocated.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <utility>

#include "core/picture.h"
#include "core/zeroed_bytes.h"

namespace exactvq {
namespace {

bool all_zero(const uint8_t* p, size_t n) {
  return std::all_of(p, p + n, [](uint8_t b) { return b == 0; });
}

TEST(ZeroedBytes, NewBytesAreZeroAndThePrefixIsKept) {
  for (size_t small : {size_t{1}, size_t{100}, size_t{3} << 20})
    for (size_t large : {small + 1, small * 3, (size_t{5} << 20) + 7}) {
      ZeroedBytes b;
      b.resize(small);
      ASSERT_TRUE(all_zero(b.data(), b.size()));
      std::fill(b.data(), b.data() + small, uint8_t{0xA5});
      b.resize(large);
      ASSERT_EQ(b.size(), large);
      EXPECT_TRUE(std::all_of(b.data(), b.data() + small, [](uint8_t x) { return x == 0xA5; }));
      EXPECT_TRUE(all_zero(b.data() + small, large - small)) << small << " -> " << large;
      std::fill(b.data(), b.data() + large, uint8_t{0x5A});
      b.resize(small);  // shrinking, then growing again: the new bytes are zero again
      b.resize(large);
      EXPECT_TRUE(all_zero(b.data() + small, large - small)) << small << " -> " << large;
    }
}

TEST(ZeroedBytes, StaysInPlaceAtTheSameSize) {
  ZeroedBytes b;
  b.resize(size_t{2} << 20);
  const uint8_t* at = b.data();
  b.resize(size_t{2} << 20);
  EXPECT_EQ(b.data(), at);
}

TEST(ZeroedBytes, CopiesAndMoves) {
  ZeroedBytes a;
  a.resize((size_t{1} << 20) + 3);
  a.data()[0] = 7;
  a.data()[a.size() - 1] = 9;
  ZeroedBytes b = a;
  EXPECT_NE(b.data(), a.data());
  EXPECT_EQ(b.data()[0], 7);
  EXPECT_EQ(b.data()[b.size() - 1], 9);
  ZeroedBytes c;
  c.resize(10);
  c = a;
  EXPECT_EQ(c.size(), a.size());
  EXPECT_EQ(c.data()[a.size() - 1], 9);
  const uint8_t* at = a.data();
  ZeroedBytes d = std::move(a);
  EXPECT_EQ(d.data(), at);
  EXPECT_EQ(a.size(), 0u);
  EXPECT_EQ(a.data(), nullptr);
  c = std::move(d);
  EXPECT_EQ(c.data(), at);
  ZeroedBytes empty, copy = empty;
  EXPECT_EQ(copy.size(), 0u);
}

TEST(ZeroedBytes, PictureIsZeroWhenAllocated) {
  for (const VideoFormat f : {VideoFormat{1920, 1080, ChromaFormat::k420, 10},
                              VideoFormat{5, 3, ChromaFormat::k444, 8}}) {
    Picture p;
    p.allocate(f);
    EXPECT_TRUE(all_zero(p.storage().data(), p.storage().size())) << f.describe();
  }
}

}  // namespace
}  // namespace exactvq
