// Rows of cambi's CPU SIMD routine beside its scalar reference
// (metrics/cambi/window_counts.h): one move of the window counts.
#include <memory>
#include <random>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "cpu_rows.h"
#include "metrics/cambi/window_counts.h"

namespace exactvq::twins {
namespace {

// ---- cambi.window_counts: counts of random start (any values: the
// arithmetic is modulo 2^16), a leaving and an entering row. case.a: the
// window's half side; case.fill: the rows' contents.
enum CountsFill { kRandomRows, kSameRows, kFlatRows, kOnlyLeaving, kOnlyEntering, kOutOfBand };
const char* const kCountsFillNames[] = {"random rows",  "equal rows",    "flat rows",
                                        "leaving only", "entering only", "mostly out of band"};

Prepared counts_case(const Case& c) {
  struct In {
    std::vector<uint16_t> counts, leaving_codes, entering_codes;
    std::vector<uint8_t> leaving_mask, entering_mask;
    int base = 0, band = 1;
  };
  auto in = std::make_shared<In>();
  std::mt19937_64 rng(c.seed);
  const int w = c.width;
  in->base = int(rng() % 64);
  in->band = 1 + int(rng() % 300);
  in->counts.resize(size_t(in->band) * size_t(w));
  for (uint16_t& v : in->counts) v = uint16_t(rng());
  const auto code = [&](int spread) {
    return uint16_t(in->base - 4 + int(rng() % uint64_t(spread)));
  };
  for (auto* codes : {&in->leaving_codes, &in->entering_codes}) codes->resize(size_t(w));
  for (auto* mask : {&in->leaving_mask, &in->entering_mask}) mask->resize(size_t(w));
  const uint16_t flat = code(in->band + 8);
  for (int x = 0; x < w; ++x) {
    const int spread = c.fill == kOutOfBand ? 4 * in->band + 40 : in->band + 8;
    in->leaving_codes[size_t(x)] = c.fill == kFlatRows ? flat : code(spread);
    in->entering_codes[size_t(x)] =
        c.fill == kSameRows || c.fill == kFlatRows ? in->leaving_codes[size_t(x)] : code(spread);
    in->leaving_mask[size_t(x)] = uint8_t(rng() % 4 != 0);
    in->entering_mask[size_t(x)] =
        c.fill == kSameRows ? in->leaving_mask[size_t(x)] : uint8_t(rng() % 4 != 0);
  }
  const int pad = c.a;
  const auto run = [in, w, pad, fill = c.fill](cambi::SlideCounts slide) {
    std::vector<uint16_t> counts = in->counts;
    const cambi::CountsRow leaving{in->leaving_codes.data(), in->leaving_mask.data()};
    const cambi::CountsRow entering{in->entering_codes.data(), in->entering_mask.data()};
    slide(counts.data(), fill == kOnlyEntering ? cambi::CountsRow{} : leaving,
          fill == kOnlyLeaving ? cambi::CountsRow{} : entering, w, pad, in->base, in->band);
    Bytes b;
    put(b, counts);
    return b;
  };
  Prepared p;
  p.twin = [run] { return run(cambi::slide_counts); };
  p.reference = [run] { return run(cambi::slide_counts_reference); };
  return p;
}

std::vector<Case> counts_cases() {
  std::mt19937_64 rng(0x5eed'0c4b);
  std::vector<Case> all;
  auto add = [&](int w, int pad, int fill, bool timed = false) {
    Case c;
    c.seed = case_seed(0x5eed'0c4b, all.size());
    c.width = w;
    c.a = pad;
    c.fill = fill;
    c.timed = timed;
    c.what = fmt::format("{} wide, window half side {}, {}", w, pad, kCountsFillNames[fill]);
    all.push_back(c);
  };
  for (int fill = kRandomRows; fill <= kOutOfBand; ++fill) {
    for (int w = 1; w <= 70; ++w) add(w, int(rng() % 40), fill);
    for (int pad : {0, 1, 7, 8, 15, 16, 17, 31, 32, 33})
      for (int w : {pad, pad + 1, 2 * pad + 1, 3 * pad + 5, 257})
        if (w > 0) add(w, pad, fill);
  }
  add(1920, 16, kRandomRows, true);
  add(1920, 16, kSameRows, true);
  add(3840, 32, kRandomRows, true);
  return all;
}

EXACTVQ_TWIN_ROWS(cambi_rows) {
  register_per_target("cambi.window_counts", counts_cases, counts_case);
}

}  // namespace
}  // namespace exactvq::twins
