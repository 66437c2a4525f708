// Rows of cambi's CPU SIMD routines beside their scalar references: one move
// of the window counts (metrics/cambi/window_counts.h), the spatial mask and
// the mode filter (metrics/cambi/image_stages.h), the contrast values
// (metrics/cambi/contrast_values.h); and the pooling both as the CPU's SIMD
// pass and as the device engines form it from their kernels' pool records
// (metrics/cambi/pool_device.h; on the host here, the engines' own rows being
// cambi_engine_rows.cpp's).
#include <algorithm>
#include <functional>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "cpu_rows.h"
#include "metrics/cambi/contrast_values.h"
#include "metrics/cambi/pool_records.h"
#include "metrics/cambi/image_stages.h"
#include "metrics/cambi/pool.h"
#include "metrics/cambi/reference.h"
#include "metrics/cambi/window_counts.h"
#include "padded_plane.h"

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

// ---- cambi.spatial_mask and cambi.mode_filter: a 10-bit image. case.fill:
// its contents, from which flat runs and majorities arise in every mix.
enum ImageFill { kFewCodes, kTwoCodes, kFlatImage, kBlocks, kAnyCodes };
const char* const kImageFillNames[] = {"codes of 4 values", "codes of 2 values", "one code",
                                       "blocks of codes", "any 10-bit codes"};

std::vector<uint16_t> random_image(const Case& c) {
  std::mt19937_64 rng(c.seed);
  const int w = c.width, h = c.height;
  std::vector<uint16_t> image(size_t(w) * size_t(h));
  const uint16_t base = uint16_t(rng() % 1000);
  const int block = 1 + int(rng() % 9);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      uint16_t v = 0;
      switch (c.fill) {
        case kFewCodes:
          v = uint16_t(base + rng() % 4);
          break;
        case kTwoCodes:
          v = uint16_t(base + (rng() % 8 == 0));
          break;
        case kFlatImage:
          v = base;
          break;
        case kBlocks:
          v = uint16_t(base + ((x / block + y / block) % 3) + (rng() % 16 == 0));
          break;
        default:
          v = uint16_t(rng() % 1025);
      }
      image[size_t(y) * size_t(w) + size_t(x)] = v;
    }
  return image;
}

std::vector<Case> image_cases();

// case.a: 1 for the mask decimated once (the speed-up's scale 0).
Prepared mask_case(const Case& c) {
  auto image = std::make_shared<std::vector<uint16_t>>(random_image(c));
  const int w = c.width, h = c.height;
  const bool halved = c.a == 1;
  const auto run = [image, w, h, halved](bool twin) {
    std::vector<uint8_t> mask(image->size(), 0xA5);
    size_t size = mask.size();
    if (twin) {
      cambi::spatial_mask_simd(image->data(), w, h, mask.data(), halved);
    } else {
      cambi::spatial_mask(image->data(), w, h, mask.data());
      if (halved) cambi::decimate(mask.data(), w, h);
    }
    if (halved) size = size_t((w + 1) / 2) * size_t((h + 1) / 2);
    Bytes b;
    put(b, mask.data(), size);
    return b;
  };
  Prepared p;
  p.twin = [run] { return run(true); };
  p.reference = [run] { return run(false); };
  return p;
}

std::vector<Case> halved_mask_cases() {
  std::vector<Case> all = image_cases();
  for (Case& c : all) {
    c.a = 1;
    c.what += ", decimated";
  }
  return all;
}

Prepared mode_case(const Case& c) {
  auto image = std::make_shared<std::vector<uint16_t>>(random_image(c));
  const int w = c.width, h = c.height;
  const auto run = [image, w, h](void (*filter)(uint16_t*, int, int)) {
    std::vector<uint16_t> out = *image;
    filter(out.data(), w, h);
    Bytes b;
    put(b, out);
    return b;
  };
  Prepared p;
  p.twin = [run] { return run(cambi::mode_filter_simd); };
  p.reference = [run] { return run(cambi::mode_filter); };
  return p;
}

// cambi.decimate: the image (16-bit codes, or their low bytes as a mask-like
// 8-bit image with case.a == 1) decimated in place; the whole buffer compared.
Prepared decimate_case(const Case& c) {
  auto image = std::make_shared<std::vector<uint16_t>>(random_image(c));
  const int w = c.width, h = c.height;
  const bool bytes = c.a == 1;
  const auto run = [image, w, h, bytes](bool twin) {
    Bytes b;
    if (bytes) {
      std::vector<uint8_t> out(image->begin(), image->end());
      twin ? cambi::decimate_simd(out.data(), w, h) : cambi::decimate(out.data(), w, h);
      put(b, out);
    } else {
      std::vector<uint16_t> out = *image;
      twin ? cambi::decimate_simd(out.data(), w, h) : cambi::decimate(out.data(), w, h);
      put(b, out);
    }
    return b;
  };
  Prepared p;
  p.twin = [run] { return run(true); };
  p.reference = [run] { return run(false); };
  return p;
}

std::vector<Case> decimate_cases() {
  std::vector<Case> all;
  for (int bytes : {0, 1})
    for (Case c : image_cases()) {
      c.a = bytes;
      c.what += bytes ? ", 8-bit" : ", 16-bit";
      all.push_back(c);
    }
  return all;
}

Prepared anti_dither_case(const Case& c) {
  auto image = std::make_shared<std::vector<uint16_t>>(random_image(c));
  const int w = c.width, h = c.height;
  const auto run = [image, w, h](void (*smooth)(uint16_t*, int, int)) {
    std::vector<uint16_t> out = *image;
    smooth(out.data(), w, h);
    Bytes b;
    put(b, out);
    return b;
  };
  Prepared p;
  p.twin = [run] { return run(cambi::anti_dither_simd); };
  p.reference = [run] { return run(cambi::anti_dither); };
  return p;
}

// ---- cambi.ten_bit_image: a luma plane of case.bits (padding poisoned) at
// the plan's size; case.a: the encoding's bit depth (below 10: anti-dithered).
Prepared ten_bit_case(const Case& c) {
  std::mt19937_64 rng(c.seed);
  auto plane = std::make_shared<PaddedPlane>(c.width, c.height, c.bits, 5, 3);
  const uint32_t top = (1u << c.bits) - 1;
  const uint32_t base = uint32_t(rng() % (top + 1));
  for (int y = 0; y < c.height; ++y)
    for (int x = 0; x < c.width; ++x)
      plane->set(x, y,
                 c.fill == kAnyCodes ? uint32_t(rng() % (top + 1))
                                     : std::min(top, base + uint32_t(rng() % 3)));
  plane->poison(top);
  auto setup = std::make_shared<cambi::CambiSetup>();
  setup->input_bitdepth = c.bits;
  setup->enc_bitdepth = c.a;
  auto plan = std::make_shared<cambi::ImagePlan>();
  plan->width = c.width;
  plan->height = c.height;
  const auto run = [plane, setup, plan](auto convert) {
    std::vector<uint16_t> out(size_t(plan->width) * size_t(plan->height), 0xA5A5);
    convert(plane->view, *setup, *plan, out.data());
    Bytes b;
    put(b, out);
    return b;
  };
  Prepared p;
  p.twin = [run] { return run(cambi::ten_bit_image_simd); };
  p.reference = [run] { return run(cambi::ten_bit_image); };
  return p;
}

std::vector<Case> ten_bit_cases() {
  std::vector<Case> all;
  auto add = [&](int w, int h, int bits, int enc, int fill, bool timed = false) {
    Case c;
    c.seed = case_seed(0x5eed'10b1, all.size());
    c.width = w;
    c.height = h;
    c.bits = bits;
    c.a = enc;
    c.fill = fill;
    c.timed = timed;
    c.what = fmt::format("{}x{}, {}-bit, encoded at {} bits, {}", w, h, bits, enc,
                         kImageFillNames[fill]);
    all.push_back(c);
  };
  for (int bits : {8, 9, 10, 12, 16})
    for (int enc : {8, 10})
      for (int fill : {kFewCodes, kAnyCodes}) {
        for (int w = 1; w <= 35; ++w) add(w, 1 + w % 5, bits, enc, fill);
        add(300, 217, bits, enc, fill);
      }
  add(1920, 1080, 8, 8, kAnyCodes, true);
  add(1920, 1080, 10, 10, kAnyCodes, true);
  return all;
}

// ---- cambi.pool_topk: contrast values, mostly zeros. case.fill: how many
// are positive and how large (sums far below and at 2^53 units of the
// smallest, more positive values than k: the reference's own path); case.a:
// topk in percent.
enum PoolFill { kAllZero, kFewSmall, kFewLarge, kTinyAndLarge, kManyPositive, kSubnormal };
const char* const kPoolFillNames[] = {"all zero",       "few small values", "few large values",
                                      "tiny and large", "mostly positive",  "subnormal values"};

// The rows' twins of pool_topk (case.b).
enum PoolTwin { kPoolSimd, kPoolFromRecords };

// pool_topk's value as the device engines form it: the w x h values' pool
// records as CUDA's contrast kernel makes them (runs of 32 samples, blocks of
// 32 runs by 8 rows, each block's records merged), merged on the host, and
// pool_topk itself where they do not give the value.
double pool_from_records(std::span<float> values, int w, int h, double topk) {
  constexpr int kRun = 32, kBlockRuns = 32, kBlockRows = 8;
  const int runs = (w + kRun - 1) / kRun;
  CambiPoolPartial all = cambi_pool_empty();
  for (int by = 0; by < (h + kBlockRows - 1) / kBlockRows; ++by)
    for (int bx = 0; bx < (runs + kBlockRuns - 1) / kBlockRuns; ++bx) {
      CambiPoolPartial block = cambi_pool_empty();
      for (int y = by * kBlockRows; y < std::min(h, (by + 1) * kBlockRows); ++y)
        for (int i = bx * kBlockRuns; i < std::min(runs, (bx + 1) * kBlockRuns); ++i)
          block = cambi_pool_merge(
              block, cambi_pool_add_run(cambi_pool_empty(), values.data() + size_t(y) * size_t(w),
                                        i * kRun, kRun, w));
      uint64_t words[EXACTVQ_CAMBI_POOL_WORDS];
      cambi_pool_store(words, block);
      all = cambi_pool_merge(all, cambi_pool_load(words));
    }
  if (const std::optional<double> v = cambi::pooled_from_partial(all, values.size(), topk))
    return *v;
  return cambi::pool_topk(values, topk);
}

Prepared pool_case(const Case& c) {
  std::mt19937_64 rng(c.seed);
  auto values = std::make_shared<std::vector<float>>(size_t(c.width) * size_t(c.height), 0.0f);
  const auto random_float = [&](float lo, float hi) {
    return lo + (hi - lo) * float(rng() % 1000003) / 1000003.0f;
  };
  for (float& v : *values) {
    switch (c.fill) {
      case kFewSmall:
        if (rng() % 50 == 0) v = random_float(1.0f / 4225, 4.0f);
        break;
      case kFewLarge:
        if (rng() % 20 == 0) v = random_float(100.0f, 9504.0f);
        break;
      case kTinyAndLarge:
        if (rng() % 10 == 0) v = rng() % 2 ? 1.0f / 4225 : random_float(1000.0f, 9504.0f);
        break;
      case kManyPositive:
        if (rng() % 4 != 0) v = random_float(1.0f / 4225, 50.0f);
        break;
      case kSubnormal:
        if (rng() % 30 == 0) v = float(rng() % 1000) * 1e-44f;
        break;
      default:
        break;
    }
  }
  const double topk = c.a / 100.0;
  const auto run = [values, topk](const std::function<double(std::span<float>, double)>& pool) {
    std::vector<float> v = *values;  // pooling may reorder them
    const double pooled = pool(v, topk);
    Bytes b;
    put(b, &pooled, 1);
    return b;
  };
  Prepared p;
  p.reference = [run] { return run(cambi::pool_topk); };
  if (c.b == kPoolFromRecords) {
    p.twin = [run, w = c.width, h = c.height] {
      return run(
          [w, h](std::span<float> v, double topk) { return pool_from_records(v, w, h, topk); });
    };
  } else {
    p.twin = [run] { return run(cambi::pool_topk_simd); };
  }
  return p;
}

std::vector<Case> pool_cases() {
  std::vector<Case> all;
  auto add = [&](int w, int h, int fill, int topk, bool timed = false) {
    Case c;
    c.seed = case_seed(0x5eed'9001, all.size());
    c.width = w;
    c.height = h;
    c.fill = fill;
    c.a = topk;
    c.timed = timed;
    c.what = fmt::format("{}x{}, {}, topk {}%", w, h, kPoolFillNames[fill], topk);
    all.push_back(c);
  };
  for (int fill = kAllZero; fill <= kSubnormal; ++fill)
    for (int topk : {1, 5, 60, 100}) {
      for (int w = 1; w <= 20; ++w) add(w, 1 + w % 3, fill, topk);
      for (const auto& [w, h] : {std::pair{120, 68}, {240, 135}, {960, 540}}) add(w, h, fill, topk);
    }
  add(960, 540, kAllZero, 60, true);
  add(960, 540, kFewSmall, 60, true);
  return all;
}

std::vector<Case> image_cases() {
  std::vector<Case> all;
  auto add = [&](int w, int h, int fill, bool timed = false) {
    Case c;
    c.seed = case_seed(0x5eed'3a5c, all.size());
    c.width = w;
    c.height = h;
    c.fill = fill;
    c.timed = timed;
    c.what = fmt::format("{}x{}, {}", w, h, kImageFillNames[fill]);
    all.push_back(c);
  };
  for (int fill = kFewCodes; fill <= kAnyCodes; ++fill) {
    for (int w = 1; w <= 40; ++w) add(w, 1 + (w * 7) % 12, fill);
    for (int h = 1; h <= 12; ++h) add(33, h, fill);
    for (const auto& [w, h] : {std::pair{64, 64}, {65, 63}, {127, 9}, {300, 217}, {961, 7}})
      add(w, h, fill);
  }
  // Sizes with 2^11 and more 64x64 blocks: the threshold grows with the picture.
  add(2048, 70, kFewCodes);
  add(4096, 130, kTwoCodes);
  add(1920, 1080, kBlocks, true);
  add(1920, 1080, kFewCodes, true);
  return all;
}

// ---- cambi.contrast_values: a w x h image of codes around the band of a
// setup of case.a contrasts (thresholds rising from case.b, the visibility
// threshold below, at or inside the band), a mask of random density, the
// window case.bits wide. case.fill: the codes' spread (a few codes near a
// threshold, the whole band and beyond it, one code).
enum ContrastFill { kNearThreshold, kWholeBand, kOneCode };
const char* const kContrastFillNames[] = {"codes near a threshold", "codes across the band",
                                          "one code"};

Prepared contrast_case(const Case& c) {
  struct In {
    std::vector<uint16_t> image;
    std::vector<uint8_t> mask;
    cambi::CambiSetup setup;
  };
  auto in = std::make_shared<In>();
  std::mt19937_64 rng(c.seed);
  const int w = c.width, h = c.height, nd = c.a;
  cambi::CambiSetup& s = in->setup;
  s.num_diffs = nd;
  int t = c.b;
  for (int d = 0; d < nd; ++d) {  // rising thresholds, as the setup's
    t += int(rng() % 40);
    s.tvi_for_diff[size_t(d)] = t;
  }
  const int top = s.tvi_for_diff[size_t(nd - 1)];
  const int vlt_choice = int(rng() % 3);
  s.vlt_luma = vlt_choice == 0 ? 0 : vlt_choice == 1 ? c.b : (c.b + top) / 2;
  const int base = std::max(0, s.vlt_luma - 3 * nd + 1);
  const int near = int(rng() % uint64_t(top + 8));
  const int density = 1 + int(rng() % 8);
  in->image.resize(size_t(w) * size_t(h));
  in->mask.resize(size_t(w) * size_t(h));
  for (size_t i = 0; i < in->image.size(); ++i) {
    int code = near;
    if (c.fill == kNearThreshold) code = near + int(rng() % 5) - 2;
    if (c.fill == kWholeBand) code = std::max(0, base - 8) + int(rng() % uint64_t(top + 16 - base));
    in->image[i] = uint16_t(std::clamp(code, 0, 1023));
    in->mask[i] = uint8_t(int(rng() % 8) < density);
  }
  const int window = c.bits;
  const auto run = [in, w, h, window](bool twin) {
    std::vector<float> values(size_t(w) * size_t(h), 3.25f);
    cambi::ContrastScratch scratch;
    if (twin)
      cambi::contrast_values_simd(in->image.data(), in->mask.data(), w, h, window, in->setup,
                                  values.data(), scratch);
    else
      cambi::contrast_values(in->image.data(), in->mask.data(), w, h, window, in->setup,
                             values.data(), scratch);
    Bytes b;
    put(b, values);
    return b;
  };
  Prepared p;
  p.twin = [run] { return run(true); };
  p.reference = [run] { return run(false); };
  return p;
}

std::vector<Case> contrast_cases() {
  std::mt19937_64 rng(0x5eed'0c0a);
  std::vector<Case> all;
  auto add = [&](int w, int h, int window, int nd, int fill, bool timed = false) {
    Case c;
    c.seed = case_seed(0x5eed'0c0a, all.size());
    c.width = w;
    c.height = h;
    c.bits = window;
    c.a = nd;
    c.b = int(rng() % 700);
    c.fill = fill;
    c.timed = timed;
    c.what = fmt::format("{}x{}, window {}, {} contrasts, {}", w, h, window, nd,
                         kContrastFillNames[fill]);
    all.push_back(c);
  };
  for (int fill = kNearThreshold; fill <= kOneCode; ++fill) {
    for (int w = 1; w <= 40; ++w) add(w, 1 + int(rng() % 9), 1 + 2 * int(rng() % 6), 4, fill);
    for (int nd : {1, 2, 4, 8, 16, 32})
      for (int window : {3, 9, 17, 33}) add(67, 23, window, nd, fill);
  }
  add(960, 540, 33, 4, kNearThreshold, true);  // 1080p's scale 0 with the speed-up
  add(960, 540, 33, 4, kWholeBand, true);
  return all;
}

EXACTVQ_TWIN_ROWS(cambi_rows) {
  register_per_target("cambi.window_counts", counts_cases, counts_case);
  register_per_target("cambi.spatial_mask", image_cases, mask_case);
  register_per_target("cambi.spatial_mask_halved", halved_mask_cases, mask_case);
  register_per_target("cambi.mode_filter", image_cases, mode_case);
  register_per_target("cambi.decimate", decimate_cases, decimate_case);
  register_per_target("cambi.anti_dither", image_cases, anti_dither_case);
  register_per_target("cambi.ten_bit_image", ten_bit_cases, ten_bit_case);
  register_per_target("cambi.pool_topk", pool_cases, pool_case);
  register_per_target("cambi.contrast_values", contrast_cases, contrast_case);
  Row records;
  records.name = "cambi.pool_topk/device-records";
  records.cases = [] {
    std::vector<Case> all = pool_cases();
    for (Case& c : all) c.b = kPoolFromRecords;
    return all;
  };
  records.prepare = pool_case;
  records.reference_key = "cambi.pool_topk";
  register_row(std::move(records));
}

}  // namespace
}  // namespace exactvq::twins
