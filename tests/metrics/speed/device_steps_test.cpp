// The GPU engines' steps (device_steps.h, with the host steps of
// device_plan.h between them) run on the host in both arithmetics, native
// binary64 and softfp, against the reference Scorer bit for bit: seeded random
// planes at every bit depth, every prescale method up and down, speed_temporal's differences
// (use_ref_diff or not), every weight_var_mode, several kernel scales, sigma_nn and nn_floor, and
// singular covariance matrices on one side or both. The CUDA and OpenCL kernels call these same
// functions (device_test.cpp runs them).
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include <fmt/format.h>

#include "metrics/speed/device_plan.h"
#include "metrics/speed/reference.h"

namespace exactvq::speed::testing {

PairScore score_with_native_steps(const DevicePlan&, const unsigned char*, const unsigned char*,
                                  const unsigned char*, const unsigned char*, int, int, bool*);
PairScore score_with_softfp_steps(const DevicePlan&, const unsigned char*, const unsigned char*,
                                  const unsigned char*, const unsigned char*, int, int, bool*);

float softfp_steps_to_float(uint64_t bits);
float softfp_steps_divide(float a, float b);

namespace {

// The softfp steps' binary32 rounding and division (OpenCL's divisions) against
// the CPU's, subnormal results included.
TEST(SpeedDeviceSteps, SoftfpBinary32RoundingAndDivisionEqualTheCpu) {
  std::mt19937_64 rng(20261208);
  uint64_t differing = 0, n = 0;
  for (int i = 0; i < 2000000; ++i, n += 2) {
    // binary64 values from below binary32's subnormals to near its largest.
    const int e = int(rng() % 330) - 202;
    const double x =
        std::ldexp(double((rng() >> 11) | (uint64_t{1} << 52)), e - 52) * (rng() % 2 ? -1.0 : 1.0);
    differing += std::bit_cast<uint32_t>(softfp_steps_to_float(std::bit_cast<uint64_t>(x))) !=
                 std::bit_cast<uint32_t>(float(x));
    const float a = std::bit_cast<float>(uint32_t(rng())),
                b = std::bit_cast<float>(uint32_t(rng()));
    if (!std::isfinite(a) || !std::isfinite(b) || b == 0.0f || !std::isfinite(a / b)) {
      --n;
      continue;
    }
    differing +=
        std::bit_cast<uint32_t>(softfp_steps_divide(a, b)) != std::bit_cast<uint32_t>(a / b);
  }
  std::printf("[ speed    ] %llu softfp binary32 roundings and divisions, %llu differing\n",
              static_cast<unsigned long long>(n), static_cast<unsigned long long>(differing));
  EXPECT_EQ(differing, 0u);
}

// A plane of w x h samples of `bitdepth` bits stored src_w samples a row.
struct RawPlane {
  std::vector<unsigned char> bytes;
  PlaneView view(int src_w, int h, int bitdepth) const {
    const int bps = bitdepth > 8 ? 2 : 1;
    return PlaneView{bytes.data(), ptrdiff_t(src_w) * bps, src_w, h, bps};
  }
};

// Smooth content (gradients and a few blobs) plus noise; `flat`: one value.
RawPlane random_plane(std::mt19937_64& rng, int src_w, int h, int bitdepth, bool flat) {
  const int bps = bitdepth > 8 ? 2 : 1;
  const int max = (1 << bitdepth) - 1;
  RawPlane p;
  p.bytes.resize(size_t(src_w) * size_t(h) * size_t(bps));
  const double gx = double(rng() % 1000) / 1000.0, gy = double(rng() % 1000) / 1000.0;
  const int noise = 1 + int(rng() % 64);
  const int level = int(rng() % uint64_t(max + 1));
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < src_w; ++x) {
      int v = level;
      if (!flat) {
        const double s = (gx * x + gy * y) * max / (src_w + h) +
                         0.3 * max * std::sin(x * 0.07 + y * 0.05) * std::cos(y * 0.03);
        v = int(s) + int(rng() % uint64_t(noise * (max / 255 + 1))) + max / 3;
        v = std::clamp(v, 0, max);
      }
      const size_t i = size_t(y) * size_t(src_w) + size_t(x);
      if (bps == 1)
        p.bytes[i] = (unsigned char)v;
      else {
        const uint16_t s = uint16_t(v);
        std::memcpy(&p.bytes[2 * i], &s, 2);
      }
    }
  return p;
}

// The reference: libvmaf's planes (a [- b]) into a Scorer, scored.
PairScore reference_score(int w, int h, int src_w, int bitdepth, const SpeedOptions& o,
                          const RawPlane& a_ref, const RawPlane* b_ref, const RawPlane& a_dis,
                          const RawPlane* b_dis) {
  Scorer s(w, h, o);
  const size_t stride = s.stride();
  std::vector<float> tmp(stride * size_t(h));
  const auto fill = [&](float* dst, const RawPlane& a, const RawPlane* b) {
    load_plane(a.view(src_w, h, bitdepth), w, h, bitdepth, dst, stride);
    if (!b) return;
    load_plane(b->view(src_w, h, bitdepth), w, h, bitdepth, tmp.data(), stride);
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x)
        dst[size_t(y) * stride + size_t(x)] -= tmp[size_t(y) * stride + size_t(x)];
  };
  fill(s.ref(), a_ref, b_ref);
  fill(s.dis(), a_dis, b_dis);
  return s.score();
}

struct Case {
  int w, h, src_w, bitdepth;
  SpeedOptions options;
  bool temporal, flat_ref, flat_dis;
};

std::string describe(const Case& c) {
  return fmt::format("{}x{} (rows of {}) {}-bit ps={} psm={} ks={} snn={} nnf={} wvm={} {}{}{}",
                     c.w, c.h, c.src_w, c.bitdepth, c.options.prescale,
                     scale_method_name(c.options.prescale_method), c.options.kernelscale,
                     c.options.sigma_nn, c.options.nn_floor, c.options.weight_var_mode,
                     c.temporal ? (c.options.use_ref_diff ? "temporal urd" : "temporal") : "chroma",
                     c.flat_ref ? " flat-ref" : "", c.flat_dis ? " flat-dis" : "");
}

PairScore run_case(const Case& c, uint64_t seed, int* compared) {
  std::mt19937_64 rng(seed);
  const RawPlane a_ref = random_plane(rng, c.src_w, c.h, c.bitdepth, c.flat_ref);
  const RawPlane a_dis = random_plane(rng, c.src_w, c.h, c.bitdepth, c.flat_dis);
  RawPlane b_ref, b_dis;
  if (c.temporal) {
    b_ref = random_plane(rng, c.src_w, c.h, c.bitdepth, c.flat_ref);
    b_dis = random_plane(rng, c.src_w, c.h, c.bitdepth, c.flat_dis);
  }
  const RawPlane* br = c.temporal ? &b_ref : nullptr;
  // use_ref_diff: the distorted side is previous distorted - current reference.
  const RawPlane* bd = c.temporal ? (c.options.use_ref_diff ? &b_ref : &b_dis) : nullptr;
  const PairScore want =
      reference_score(c.w, c.h, c.src_w, c.bitdepth, c.options, a_ref, br, a_dis, bd);
  const DevicePlan plan = make_device_plan(c.w, c.h, c.options);
  for (int soft = 0; soft < 2; ++soft) {
    bool valid = false;
    const PairScore got = (soft ? score_with_softfp_steps : score_with_native_steps)(
        plan, a_ref.bytes.data(), br ? br->bytes.data() : nullptr, a_dis.bytes.data(),
        bd ? bd->bytes.data() : nullptr, c.src_w, c.bitdepth, &valid);
    EXPECT_TRUE(valid) << describe(c);
    EXPECT_EQ(std::bit_cast<uint32_t>(got.score), std::bit_cast<uint32_t>(want.score))
        << describe(c) << (soft ? " softfp" : " native") << ": got " << got.score << " want "
        << want.score;
    EXPECT_EQ(got.singular, want.singular) << describe(c);
    ++*compared;
  }
  return want;
}

constexpr double kKernelScales[] = {1.0, 0.5, 1.5, 2.0, 360.0 / 97.0, 1.0 / 2.25, 3.0};

TEST(SpeedDeviceSteps, RandomPlanesEqualTheReference) {
  std::mt19937_64 rng(20261206);
  int compared = 0, nonzero = 0;
  static const int kSizes[][2] = {{80, 80}, {320, 240}, {176, 144}, {640, 360}, {416, 240}};
  for (int n = 0; n < 64; ++n) {
    Case c{};
    const auto& size = kSizes[n % 5];
    c.w = size[0];
    c.h = size[1];
    c.src_w = c.w + int(rng() % 3);  // stored rows may be longer (chroma's ceil)
    static const int kDepths[] = {8, 10, 12, 16};
    c.bitdepth = kDepths[n % 4];
    c.temporal = n % 3 == 0;
    c.options.feature = c.temporal ? Feature::kTemporal : Feature::kChroma;
    c.options.use_ref_diff = c.temporal && n % 2 == 0;
    c.options.weight_var_mode = c.temporal ? 0 : n % 7;
    c.options.kernelscale = kKernelScales[n % 7 == 3 ? 1 : (n / 3) % 7];
    c.options.sigma_nn = n % 5 == 1 ? 0.1 + double(rng() % 190) / 100.0 : 0.29;
    c.options.nn_floor = n % 4 == 2 ? double(rng() % 100) / 100.0 : 0.0;
    // Every method of prescale, up and down (speed_temporal: down only).
    if (n % 4 == 1) {
      static const double kPrescales[] = {2.0, 1.5, 0.8, 1.3, 0.75, 0.6, 2.5};
      c.options.prescale = kPrescales[(n / 4) % 7];
      if (c.temporal && c.options.prescale > 1) c.options.prescale = 1 / c.options.prescale;
      c.options.prescale_method = ScaleMethod((n / 4) % 4);
    }
    try {
      check_scoreable(c.options, c.w, c.h);
    } catch (const std::exception&) {
      continue;
    }
    const PairScore want = run_case(c, rng(), &compared);
    if (want.score != 0) ++nonzero;
  }
  EXPECT_GT(nonzero, 20);
  std::printf("[ speed    ] %d device-step scores compared with the reference\n", compared);
}

TEST(SpeedDeviceSteps, SingularMatricesEqualTheReference) {
  int compared = 0;
  for (int flat = 1; flat <= 3; ++flat) {
    Case c{160, 160, 160, 8, SpeedOptions{}, false, (flat & 1) != 0, (flat & 2) != 0};
    EXPECT_TRUE(run_case(c, 7 + uint64_t(flat), &compared).singular);
  }
}

}  // namespace
}  // namespace exactvq::speed::testing
