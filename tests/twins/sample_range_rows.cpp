// Rows of the readers' range check (io/sample_range.h), per SIMD target: the index of
// the first sample above the bit depth's maximum, beside the plain loop. Lengths
// around every vector and unrolled-block edge, starts off vector alignment, and
// samples above the maximum at the first, the last, inside a block, in the tail,
// several of them, or none (random in range, all at the maximum, all zero).
#include <random>
#include <string>
#include <vector>

#include "cpu_rows.h"
#include "io/sample_range.h"

namespace exactvq::twins {
namespace {

// case.width: the samples; case.b: where they start in the buffer (0..7, off
// alignment); case.fill: the pattern (kFills); case.a: the sample above the maximum
// for kAt (its index), or how many are above for kSeveral.
enum Fill { kInRange, kAtMax, kZero, kAt, kSeveral, kAllAbove };
const char* const kFillNames[] = {"in range",     "all at max",    "zero",
                                  "one above at", "several above", "all above"};

struct Samples {
  std::vector<uint16_t> buffer;
  size_t start = 0, n = 0;
  uint16_t max = 0;
};

Prepared range_case(const Case& c) {
  std::mt19937_64 rng(c.seed);
  auto in = std::make_shared<Samples>();
  in->max = uint16_t((1u << c.bits) - 1);
  in->start = size_t(c.b);
  in->n = size_t(c.width);
  in->buffer.resize(in->start + in->n + 8);
  // Random values outside the samples, above the maximum: the kernel must not count them.
  for (auto& v : in->buffer) v = uint16_t(in->max + 1 + rng() % (0xFFFFu - in->max));
  uint16_t* s = in->buffer.data() + in->start;
  const auto above = [&] { return uint16_t(in->max + 1 + rng() % (0xFFFFu - in->max)); };
  for (size_t i = 0; i < in->n; ++i)
    s[i] = c.fill == kAtMax ? in->max : c.fill == kZero ? 0 : uint16_t(rng() % (in->max + 1u));
  if (c.fill == kAt && size_t(c.a) < in->n) s[c.a] = above();
  if (c.fill == kSeveral && in->n > 0)
    for (int k = 0; k < c.a; ++k) s[rng() % in->n] = above();
  if (c.fill == kAllAbove)
    for (size_t i = 0; i < in->n; ++i) s[i] = above();
  Prepared p;
  p.twin = [in] {
    const size_t i = first_above(in->buffer.data() + in->start, in->n, in->max);
    Bytes b;
    put(b, &i, 1);
    return b;
  };
  p.reference = [in] {
    const size_t i = first_above_reference(in->buffer.data() + in->start, in->n, in->max);
    Bytes b;
    put(b, &i, 1);
    return b;
  };
  return p;
}

Case make_case(size_t index, int bits, int n, int start, Fill fill, int a) {
  Case c;
  c.seed = case_seed(0x5eed'0a10, index);
  c.bits = bits;
  c.width = n;
  c.b = start;
  c.fill = fill;
  c.a = a;
  c.what = std::to_string(n) + " samples from +" + std::to_string(start) + ", " +
           std::to_string(bits) + "-bit, " + kFillNames[fill] +
           (fill == kAt || fill == kSeveral ? " " + std::to_string(a) : "");
  return c;
}

std::vector<Case> range_cases() {
  std::mt19937_64 rng(0x5eed'0a11);
  std::vector<int> lengths;
  for (int n = 0; n <= 260; ++n) lengths.push_back(n);  // every edge up to 4 x 32 lanes, twice
  for (int n : {1000, 4095, 4096, 4097, 131072, 131073}) lengths.push_back(n);
  std::vector<Case> all;
  for (int bits : {9, 10, 12, 15})
    for (int n : lengths) {
      const int start = int(rng() % 8);
      for (Fill fill : {kInRange, kAtMax, kZero, kAllAbove})
        all.push_back(make_case(all.size(), bits, n, start, fill, 0));
      if (n == 0) continue;
      for (int at : {0, n - 1, int(rng() % uint64_t(n)), n / 2})
        all.push_back(make_case(all.size(), bits, n, start, kAt, at));
      all.push_back(make_case(all.size(), bits, n, start, kSeveral, 1 + int(rng() % 5)));
    }
  Case timed = make_case(all.size(), 10, 1 << 20, 0, kInRange, 0);
  timed.timed = true;
  all.push_back(timed);
  return all;
}

EXACTVQ_TWIN_ROWS(sample_range_rows) {
  register_per_target("io.first_above", range_cases, range_case);
}

}  // namespace
}  // namespace exactvq::twins
