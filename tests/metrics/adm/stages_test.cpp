// The device engines' arrangement of the stages (stages.h, scale_plan) run on
// the host: one output at a time over whole bands, each scored row summed,
// rounded and shifted, then added, on scratch bands filled with garbage first
// (a device's buffers hold the previous frame's or chunk's values). Its sums
// must be the reference's for every size, depth, content and option, with the
// decoupling's binary64 steps native and emulated (softfp, as fp64=emulate
// runs them): this checks the CUDA engine's indexing, regions, shifts and
// factors without a GPU.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cstdio>
#include <cstring>
#include <random>
#include <vector>

#include <fmt/format.h>

#include "metrics/adm/csf_factors.h"
#include "metrics/adm/reference.h"
#include "metrics/adm/row_kernels.h"
#include "metrics/adm/stages.h"

namespace exactvq::adm {
namespace {

using stages::ScalePlan;

template <typename T>
struct ScaleBands {
  std::vector<T> ref[4], dis[4], restored[3], additive[3], csf[3], flat[3];
  void allocate(size_t n, std::mt19937_64& rng) {
    const auto garbage = [&](std::vector<T>& v) {
      v.resize(n);
      for (T& x : v) x = static_cast<T>(rng());
    };
    for (auto& v : ref) garbage(v);
    for (auto& v : dis) garbage(v);
    for (int b = 0; b < 3; ++b) {
      garbage(restored[b]);
      garbage(additive[b]);
      garbage(csf[b]);
      garbage(flat[b]);
    }
  }
};

template <typename T, size_t N>
std::array<const T*, N> cptrs(const std::vector<T> (&v)[N], int first) {
  std::array<const T*, N> out{};
  for (size_t k = 0; k + size_t(first) < N; ++k) out[k] = v[k + size_t(first)].data();
  return out;
}
template <typename T, size_t N>
std::array<T*, N> ptrs(std::vector<T> (&v)[N]) {
  std::array<T*, N> out{};
  for (size_t k = 0; k < N; ++k) out[k] = v[k].data();
  return out;
}

template <typename T>
void masking(const ScalePlan& p, const T* const src[3], const T* const csf[3],
             const T* const flat[3], int64_t out[3]) {
  for (int i = p.scored.top; i < p.scored.bottom; ++i) {
    uint64_t row[3] = {0, 0, 0};
    for (int j = p.scored.left; j < p.scored.right; ++j) {
      int64_t term[3];
      stages::masking_terms_at(src, csf, flat, p.width, p.height, i, j, p, term);
      for (int b = 0; b < 3; ++b) row[b] += uint64_t(term[b]);
    }
    for (int b = 0; b < 3; ++b)
      out[b] = int64_t(uint64_t(out[b]) + uint64_t(stages::masking_row_total(row[b], p)));
  }
}

template <typename T>
void score(const ScalePlan& p, int scale, ScaleBands<T>& s, const AdmOptions& o, bool emulate,
           ScaleSums& out) {
  const auto ref = cptrs(s.ref, 1), dis = cptrs(s.dis, 1);
  auto restored = ptrs(s.restored), additive = ptrs(s.additive), csf = ptrs(s.csf),
       flat = ptrs(s.flat);
  const auto decouple = [&](auto gain_limit) {  // double or softfp
    for (int i = p.filter.top; i < p.filter.bottom; ++i)
      for (int j = p.filter.left; j < p.filter.right; ++j)
        stages::decouple_at(ref.data(), dis.data(), size_t(i) * size_t(p.width) + size_t(j),
                            gain_limit, restored.data(), additive.data());
  };
  if (emulate)
    decouple(softfp_from_bits(std::bit_cast<uint64_t>(o.enhn_gain_limit)));
  else
    decouple(o.enhn_gain_limit);
  for (int i = p.scored.top; i < p.scored.bottom; ++i) {
    uint64_t row[3] = {0, 0, 0};
    for (int j = p.scored.left; j < p.scored.right; ++j) {
      uint64_t term[3];
      stages::denominator_terms_at(ref.data(), size_t(i) * size_t(p.width) + size_t(j), scale, p,
                                   term);
      for (int b = 0; b < 3; ++b) row[b] += term[b];
    }
    for (int b = 0; b < 3; ++b) out.den[b] += stages::denominator_row_total(row[b], p);
  }
  const auto csf_of = [&](const std::array<T*, 3>& src) {
    const T* const in[3] = {src[0], src[1], src[2]};
    for (int i = p.filter.top; i < p.filter.bottom; ++i)
      for (int j = p.filter.left; j < p.filter.right; ++j)
        stages::csf_at(in, size_t(i) * size_t(p.width) + size_t(j), p.factor, csf.data(),
                       flat.data());
  };
  const T* const c[3] = {csf[0], csf[1], csf[2]};
  const T* const f[3] = {flat[0], flat[1], flat[2]};
  const T* const r[3] = {restored[0], restored[1], restored[2]};
  const T* const a[3] = {additive[0], additive[1], additive[2]};
  csf_of(additive);
  masking(p, r, c, f, out.num);
  if (o.skip_aim) return;
  csf_of(restored);
  masking(p, a, c, f, out.aim_num);
}

AdmSums staged_sums(const Picture& ref, const Picture& dis, const AdmOptions& o, bool emulate,
                    std::mt19937_64& rng) {
  const VideoFormat& fmt = ref.format;
  const CsfFactors factors = csf_factors(o);
  AdmSums sums{};
  ScaleBands<int16_t> s0;
  const ScalePlan p0 = scale_plan(fmt.width, fmt.height, 0, factors);
  s0.allocate(size_t(p0.width) * size_t(p0.height), rng);
  const auto dwt0 = [&](const Picture& pic, std::vector<int16_t>(&out)[4]) {
    for (int i = 0; i < p0.height; ++i)
      for (int j = 0; j < p0.width; ++j) {
        int16_t v[4];
        if (fmt.bitdepth == 8)
          stages::dwt0_at(pic.plane(0).data, fmt.width, fmt.height, 8, i, j, v);
        else
          stages::dwt0_at(reinterpret_cast<const uint16_t*>(pic.plane(0).data), fmt.width,
                          fmt.height, fmt.bitdepth, i, j, v);
        for (int k = 0; k < 4; ++k) out[k][size_t(i) * size_t(p0.width) + size_t(j)] = v[k];
      }
  };
  dwt0(ref, s0.ref);
  dwt0(dis, s0.dis);
  if (!o.skip_scale0) score(p0, 0, s0, o, emulate, sums[0]);
  ScaleBands<int32_t> prev, cur;
  for (int n = 1; n < 4; ++n) {
    const ScalePlan p = scale_plan(fmt.width, fmt.height, n, factors);
    const ScalePlan q = scale_plan(fmt.width, fmt.height, n - 1, factors);
    cur.allocate(size_t(p.width) * size_t(p.height), rng);
    for (int i = 0; i < p.height; ++i)
      for (int j = 0; j < p.width; ++j) {
        int32_t v[4], w[4];
        if (n == 1) {
          stages::dwt_s123_at(s0.ref[0].data(), q.width, q.height, n, i, j, v);
          stages::dwt_s123_at(s0.dis[0].data(), q.width, q.height, n, i, j, w);
        } else {
          stages::dwt_s123_at(prev.ref[0].data(), q.width, q.height, n, i, j, v);
          stages::dwt_s123_at(prev.dis[0].data(), q.width, q.height, n, i, j, w);
        }
        for (int k = 0; k < 4; ++k) {
          cur.ref[k][size_t(i) * size_t(p.width) + size_t(j)] = v[k];
          cur.dis[k][size_t(i) * size_t(p.width) + size_t(j)] = w[k];
        }
      }
    score(p, n, cur, o, emulate, sums[size_t(n)]);
    std::swap(prev, cur);
  }
  return sums;
}

void fill(Picture& p, const VideoFormat& f, int content, std::mt19937_64& rng,
          const Picture* like) {
  p.allocate(f);
  const uint32_t max = (1u << f.bitdepth) - 1;
  const size_t n = size_t(f.width) * size_t(f.height);
  for (size_t i = 0; i < n; ++i) {
    const size_t x = i % size_t(f.width), y = i / size_t(f.width);
    uint32_t v = 0;
    const uint32_t base =
        like ? (f.bitdepth > 8 ? reinterpret_cast<const uint16_t*>(like->plane(0).data)[i]
                               : like->plane(0).data[i])
             : 0;
    switch (content) {
      case 0:
        v = uint32_t(rng() % (max + 1));
        break;
      case 1:
        v = like ? uint32_t(std::clamp<int64_t>(int64_t(base) + int64_t(rng() % 17) - 8, 0, max))
                 : uint32_t((x * 37 + y * 11 + rng() % 64) % (max + 1));
        break;
      default:
        v = ((x + y) & 1) ? max : 0;
        if (like) v = max - base;
        break;
    }
    if (f.bitdepth > 8)
      reinterpret_cast<uint16_t*>(p.plane_data(0))[i] = uint16_t(v);
    else
      p.plane_data(0)[i] = uint8_t(v);
  }
}

class AdmStages : public ::testing::TestWithParam<bool> {};  // the decoupling emulated (softfp)

TEST_P(AdmStages, DeviceArrangementGivesTheReferenceSums) {
  const bool emulate = GetParam();
  struct Size {
    int w, h;
  };
  const Size sizes[] = {{33, 33}, {34, 33},  {33, 47},  {35, 37},   {40, 41},  {64, 64},
                        {65, 33}, {127, 65}, {161, 90}, {250, 130}, {333, 77}, {720, 480}};
  const char* const specs[] = {"adm", "adm=adm_enhn_gain_limit=1.0", "adm=adm_skip_scale0=true",
                               "adm=adm_skip_aim=true",
                               "adm=adm_norm_view_dist=4.5:adm_ref_display_height=2160"};
  std::mt19937_64 rng(0x57a9e5);
  int compared = 0;
  for (const Size s : sizes)
    for (const int bitdepth : {8, 10, 12, 16})
      for (int content = 0; content < 3; ++content)
        for (const char* spec : specs) {
          if (s.w * s.h > 100000 && (content != 1 || bitdepth == 12 || emulate)) continue;
          const AdmOptions o = parse_adm_options(parse_feature_spec(spec));
          const VideoFormat f{s.w, s.h, ChromaFormat::kMono, bitdepth};
          Picture a, b;
          fill(a, f, content, rng, nullptr);
          fill(b, f, content, rng, content == 0 ? nullptr : &a);
          const AdmSums want =
              adm_integer_sums(a.plane(0), b.plane(0), bitdepth, o, reference_row_kernels());
          const AdmSums got = staged_sums(a, b, o, emulate, rng);
          ++compared;
          EXPECT_EQ(std::memcmp(&want, &got, sizeof want), 0)
              << s.w << "x" << s.h << " " << bitdepth << " bits, content " << content << ", "
              << spec << (emulate ? ", emulated" : "");
        }
  std::printf("[ adm      ] staged sums%s: %d frames equal to the reference's\n",
              emulate ? " (emulated)" : "", compared);
}

INSTANTIATE_TEST_SUITE_P(Fp64, AdmStages, ::testing::Values(false, true),
                         [](const ::testing::TestParamInfo<bool>& i) {
                           return i.param ? "Emulated" : "Native";
                         });

}  // namespace
}  // namespace exactvq::adm
