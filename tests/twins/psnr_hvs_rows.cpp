// psnr_hvs's error sum per SIMD target (metrics/psnr_hvs/cpu/error_sum_simd.h)
// against plane_error_sum_reference: each plane's binary32 sum byte for byte,
// for every table (Y, Cb, Cr), 8 to 12 bits, sizes whose rows of blocks fill
// the lanes exactly or leave a tail, strides wider than the row with padding it
// must not read, and contents that reach every branch (masked and unmasked
// coefficients, flat blocks, the extremes).
#include <algorithm>
#include <memory>
#include <random>
#include <vector>

#include <fmt/format.h>

#include "cpu_rows.h"
#include "metrics/psnr_hvs/cpu/error_sum_simd.h"
#include "metrics/psnr_hvs/reference.h"
#include "padded_plane.h"

namespace exactvq::twins {
namespace {

// case.fill: the contents; case.a: padding after each row; case.b: the table (plane).
enum Fill { kNear, kRandom, kExtremes, kFlatOffset, kEqual, kSmooth };
const char* const kFillNames[] = {"near", "random", "0 and max", "flat, offset", "equal", "smooth"};

Prepared error_sum_case(const Case& c) {
  struct In {
    PaddedPlane ref, dist;
  };
  auto in = std::make_shared<In>(In{PaddedPlane(c.width, c.height, c.bits, c.a, 1),
                                    PaddedPlane(c.width, c.height, c.bits, c.a, 0)});
  std::mt19937_64 rng(c.seed);
  const int max = (1 << c.bits) - 1;
  const int noise = 1 + int(rng() % uint64_t(max / 16 + 1));
  for (int y = 0; y < c.height; ++y)
    for (int x = 0; x < c.width; ++x) {
      int r = int(rng() % uint64_t(max + 1)), d = r;
      switch (c.fill) {
        case kNear:
          d = r + int(rng() % uint64_t(2 * noise + 1)) - noise;
          break;
        case kRandom:
          d = int(rng() % uint64_t(max + 1));
          break;
        case kExtremes:
          r = rng() % 2 ? max : 0;
          d = rng() % 2 ? max : 0;
          break;
        case kFlatOffset:
          r = max / 3;
          d = r + noise;
          break;
        case kEqual:
          break;
        default:  // a smooth ramp with a little noise: strong masking
          r = (x * 37 + y * 11) % (max + 1);
          d = r + int(rng() % 5) - 2;
          break;
      }
      in->ref.set(x, y, uint32_t(std::clamp(r, 0, max)));
      in->dist.set(x, y, uint32_t(std::clamp(d, 0, max)));
    }
  in->ref.poison(uint32_t(max));
  in->dist.poison(0);
  const int plane = c.b;
  Prepared p;
  p.twin = [in, plane] {
    const float s = psnr_hvs::plane_error_sum(in->ref.view, in->dist.view, plane);
    Bytes b;
    put(b, &s, 1);
    return b;
  };
  p.reference = [in, plane] {
    const float s = psnr_hvs::plane_error_sum_reference(in->ref.view, in->dist.view, plane);
    Bytes b;
    put(b, &s, 1);
    return b;
  };
  return p;
}

std::vector<Case> error_sum_cases() {
  std::mt19937_64 rng(0x5eed'0b5);
  std::vector<Case> all;
  auto add = [&](int w, int h, int bits, int fill, bool timed = false) {
    Case c;
    c.seed = case_seed(0x5eed'0b5, all.size());
    c.width = w;
    c.height = h;
    c.bits = bits;
    c.fill = fill;
    c.a = int(rng() % 5);
    c.b = int(all.size() % 3);
    c.timed = timed;
    c.what =
        fmt::format("{}x{} {}-bit, pad {}, table {}, {}", w, h, bits, c.a, c.b, kFillNames[fill]);
    all.push_back(c);
  };
  // 1 to 40 blocks a row (every tail of 4, 8 and 16 lanes), and the widths between.
  for (int blocks = 1; blocks <= 40; ++blocks)
    for (int extra : {0, 6}) {
      const int w = 8 + 7 * (blocks - 1) + extra;
      add(w, 8 + int(rng() % 20), 8 + int(rng() % 5), int(rng() % 6));
    }
  for (int bits = 8; bits <= 12; ++bits)
    for (int fill = 0; fill < 6; ++fill)
      for (const auto& [w, h] : {std::pair{8, 8}, std::pair{16, 16}, std::pair{57, 33},
                                 std::pair{113, 71}, std::pair{200, 15}})
        add(w, h, bits, fill);
  add(1920, 1080, 8, kNear, true);
  add(1920, 1080, 10, kNear, true);
  add(960, 540, 12, kRandom, true);
  return all;
}

EXACTVQ_TWIN_ROWS(psnr_hvs_rows) {
  register_per_target("psnr_hvs.plane_error_sum", error_sum_cases, error_sum_case);
}

}  // namespace
}  // namespace exactvq::twins
