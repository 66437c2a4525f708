// Rows of motion's CPU SIMD routines beside its scalar reference (metrics/motion/).
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "cpu_rows.h"
#include "metrics/motion/sad.h"
#include "padded_plane.h"

namespace exactvq::twins {
namespace {

// ---- motion.sad: the SAD of a picture pair, whole and split into two row
// ranges. case.fill: the contents; case.a: padding after each row (strides
// wider than the row, padding filled with values the sum must not read).
enum SadFill { kRandom, kZeroVsMax, kMaxVsZero, kEqual, kStripes, kNoisyExtremes };
const char* const kSadFillNames[] = {"random", "zero against max", "max against zero",
                                     "equal",  "stripes",          "noisy extremes"};

Prepared sad_case(const Case& c) {
  struct In {
    PaddedPlane prev, cur;
    int split = 0;
  };
  auto in = std::make_shared<In>(
      In{PaddedPlane(c.width, c.height, c.bits, c.a), PaddedPlane(c.width, c.height, c.bits, c.a)});
  std::mt19937_64 rng(c.seed);
  const uint32_t max = (1u << c.bits) - 1;
  for (int y = 0; y < c.height; ++y)
    for (int x = 0; x < c.width; ++x) {
      uint32_t u = 0, v = 0;
      switch (c.fill) {
        case kRandom:
          u = uint32_t(rng() % (max + 1));
          v = uint32_t(rng() % (max + 1));
          break;
        case kZeroVsMax:
          v = max;
          break;
        case kMaxVsZero:
          u = max;
          break;
        case kEqual:
          u = v = uint32_t(rng() % (max + 1));
          break;
        case kStripes:
          u = (x / 3 + y) & 1 ? max : 0;
          v = max - u;
          break;
        default:
          u = rng() & 1 ? max - uint32_t(rng() % 2) : uint32_t(rng() % 2);
          v = rng() & 1 ? max : 0;
          break;
      }
      in->prev.set(x, y, u);
      in->cur.set(x, y, v);
    }
  in->prev.poison(max);
  in->cur.poison(0);
  in->split = int(rng() % uint64_t(c.height + 1));
  const int bits = c.bits, h = c.height;
  Prepared p;
  p.twin = [in, bits, h] {
    const uint64_t whole = motion::sad(in->prev.view, in->cur.view, bits, 0, h);
    const uint64_t parts = motion::sad(in->prev.view, in->cur.view, bits, 0, in->split) +
                           motion::sad(in->prev.view, in->cur.view, bits, in->split, h);
    Bytes b;
    put(b, &whole, 1);
    put(b, &parts, 1);
    return b;
  };
  p.reference = [in, bits, h] {
    const uint64_t whole = motion::sad_reference(in->prev.view, in->cur.view, bits, 0, h);
    Bytes b;
    put(b, &whole, 1);
    put(b, &whole, 1);
    return b;
  };
  return p;
}

std::vector<Case> sad_cases() {
  std::mt19937_64 rng(0x5eed'0301);
  std::vector<Case> all;
  auto add = [&](int w, int h, int bits, int pad, int fill, bool timed = false) {
    Case c;
    c.seed = case_seed(0x5eed'0301, all.size());
    c.width = w;
    c.height = h;
    c.bits = bits;
    c.a = pad;
    c.fill = fill;
    c.timed = timed;
    c.what = std::to_string(w) + "x" + std::to_string(h) + " " + std::to_string(bits) +
             "-bit, pad " + std::to_string(pad) + ", " + kSadFillNames[fill];
    all.push_back(c);
  };
  for (int bits = 8; bits <= 16; ++bits) {
    for (int w = 1; w <= 70; ++w) add(w, 1 + int(rng() % 9), bits, int(rng() % 5), kRandom);
    for (int fill : {kZeroVsMax, kMaxVsZero, kEqual, kStripes, kNoisyExtremes})
      for (int w : {1, 2, 3, 4, 15, 16, 17, 33, 64, 70}) add(w, 1 + int(rng() % 7), bits, 1, fill);
    for (int fill : {kRandom, kMaxVsZero, kNoisyExtremes}) add(1920, 6, bits, int(rng() % 9), fill);
  }
  add(kMaxDimension, 3, 8, 0, kMaxVsZero);
  add(kMaxDimension, 2, 16, 3, kZeroVsMax);
  add(1920, 1080, 8, 0, kRandom, true);
  add(1920, 1080, 10, 0, kRandom, true);
  return all;
}

EXACTVQ_TWIN_ROWS(motion_rows) {
  register_per_target("motion.sad", sad_cases, sad_case, /*vnni=*/true);
}

}  // namespace
}  // namespace exactvq::twins
