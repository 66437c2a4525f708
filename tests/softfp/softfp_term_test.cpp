// The whole softfp term against the CPU reference's binary64 term (metrics/ssim/term.h),
// bit for bit, on the window moments of every public vector and of seeded random
// frames at every depth; the 2^-64 fixed point against ssim::to_fixed64.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "io/video_source.h"
#include "libvmaf_vector_pairs.h"
#include "softfp_test_util.h"
#include "metrics/ssim/reference.h"
#include "metrics/ssim/taps.h"
#include "metrics/ssim/term.h"

namespace exactvq::softfp_test {
namespace {

namespace fs = std::filesystem;

// Every window's moments of a plane, straight from the two passes of spec/ssim.md.
std::vector<ssim::Moments> plane_moments(const PlaneView& ref, const PlaneView& dist) {
  return brute_force_moments(
      ref.width, ref.height, 0, ref.width, 0, ref.height, [&](int p, int x, int y) -> uint64_t {
        const PlaneView& v = p == 0 ? ref : dist;
        return v.bytes_per_sample == 1 ? v.row<uint8_t>(y)[x] : v.row<uint16_t>(y)[x];
      });
}

ssim::int128 to_int128(softfp_i128 q) {
  return static_cast<ssim::int128>((static_cast<ssim::uint128>(q.hi) << 64) | q.lo);
}

// Compares every pixel's term (the chosen path, and the general path forced)
// and its fixed point; the moments are checked against the reference by
// comparing the exact sum of the native terms with ssim::exact_sum.
class TermChecker {
 public:
  explicit TermChecker(std::string what) : what_(std::move(what)) {}
  ~TermChecker() {
    EXPECT_EQ(failed_, 0u) << what_ << ": " << failed_ << " of " << compared_ << " terms differ";
    std::printf("[ softfp   ] %s: %llu terms (%llu planes) compared bit for bit\n", what_.c_str(),
                static_cast<unsigned long long>(compared_),
                static_cast<unsigned long long>(planes_));
  }

  void plane(const PlaneView& ref, const PlaneView& dist, int bitdepth, const std::string& where) {
    ++planes_;
    const ssim::TermConstants k = ssim::term_constants(bitdepth);
    const softfp_term_constants sk = softfp_make_term_constants(bitdepth);
    ssim::ExactSum native_sum;
    for (const ssim::Moments& m : plane_moments(ref, dist)) {
      const double want = ssim::ssim_term(m, k);
      native_sum.add(want, m.w);
      const softfp_moments sm{m.mux, m.muy, m.x2, m.xy, m.y2, m.w};
      const softfp got = softfp_term(sm, sk);
      const softfp general = softfp_term_with(sm, sk, 0);
      ++compared_;
      const bool same = softfp_is_valid(got) && softfp_to_bits(got) == bits_of(want) &&
                        softfp_to_bits(general) == bits_of(want) &&
                        to_int128(softfp_to_fixed64(got)) == ssim::to_fixed64(want);
      if (!same && failed_++ < 10)
        ADD_FAILURE() << fmt::format(
            "{}: moments mux={} muy={} x2={} xy={} y2={} w={}: want {:a}, got {:a} (general {:a})",
            where, m.mux, m.muy, m.x2, m.xy, m.y2, m.w, want, native(got), native(general));
    }
    EXPECT_TRUE(native_sum == ssim::exact_sum(ref, dist, bitdepth, ssim::whole(ref)))
        << where << ": the test's moments are not the reference's";
  }

 private:
  std::string what_;
  uint64_t compared_ = 0, failed_ = 0, planes_ = 0;
};

TEST(SoftfpTerm, ConstantsMatchReference) {
  for (int b = 8; b <= 16; ++b) {
    const ssim::TermConstants k = ssim::term_constants(b);
    const softfp_term_constants sk = softfp_make_term_constants(b);
    EXPECT_EQ(softfp_to_bits(sk.mm_k1), bits_of(k.mm_k1)) << b << " bits";
    EXPECT_EQ(softfp_to_bits(sk.mm_k2), bits_of(k.mm_k2)) << b << " bits";
  }
}

// Random frames at every depth 8..16: noise, noise around a gradient, extremes
// (0 and M), identical and inverted pairs, sizes from 1x1 up.
TEST(SoftfpTerm, RandomFramesEveryDepth) {
  const uint64_t hits_integer = softfp_path_hits[SOFTFP_PATH_TERM_INTEGER];
  const uint64_t hits_general = softfp_path_hits[SOFTFP_PATH_TERM_GENERAL];
  const uint64_t hits_pow2 = softfp_path_hits[SOFTFP_PATH_TERM_POW2_WEIGHT];
  const uint64_t hits_add_integer = softfp_path_hits[SOFTFP_PATH_ADD_INTEGER];
  TermChecker check("random frames, 8..16 bits");
  std::mt19937_64 rng(seed());
  for (int depth = 8; depth <= 16; ++depth) {
    const uint32_t max = (uint32_t{1} << depth) - 1;
    for (int kind = 0; kind < 6; ++kind) {
      const int w = kind == 5 ? 1 + int(rng() % 5) : 24 + int(rng() % 40);
      const int h = kind == 5 ? 1 + int(rng() % 5) : 16 + int(rng() % 30);
      VideoFormat f{w, h, ChromaFormat::kMono, depth};
      Picture ref, dist;
      ref.allocate(f);
      dist.allocate(f);
      auto put = [&](Picture& p, int x, int y, uint32_t v) {
        if (depth == 8)
          p.plane_data(0)[size_t(y) * size_t(w) + size_t(x)] = uint8_t(v);
        else
          reinterpret_cast<uint16_t*>(p.plane_data(0))[size_t(y) * size_t(w) + size_t(x)] =
              uint16_t(v);
      };
      for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
          const uint32_t noise = uint32_t(rng() % (uint64_t(max) + 1));
          uint32_t r = noise, d = uint32_t(rng() % (uint64_t(max) + 1));
          if (kind == 1) {  // gradient plus a little noise
            r = uint32_t(uint64_t(max) * uint64_t(x + y) / uint64_t(w + h));
            d = uint32_t(std::min<uint64_t>(max, r + rng() % 8));
          } else if (kind == 2) {  // extremes
            r = rng() % 2 ? max : 0;
            d = rng() % 2 ? max : 0;
          } else if (kind == 3) {  // identical
            d = r;
          } else if (kind == 4) {  // inverted
            d = max - r;
          }
          put(ref, x, y, r);
          put(dist, x, y, d);
        }
      check.plane(ref.plane(0), dist.plane(0), depth,
                  fmt::format("{}-bit kind {} {}x{}", depth, kind, w, h));
    }
  }
  EXPECT_GT(softfp_path_hits[SOFTFP_PATH_TERM_INTEGER], hits_integer)
      << "integer shortcut not reached";
  EXPECT_GT(softfp_path_hits[SOFTFP_PATH_TERM_GENERAL], hits_general) << "general path not reached";
  EXPECT_GT(softfp_path_hits[SOFTFP_PATH_TERM_POW2_WEIGHT], hits_pow2)
      << "w = 2^16 shortcut not reached";
  EXPECT_GT(softfp_path_hits[SOFTFP_PATH_ADD_INTEGER], hits_add_integer)
      << "integer add not reached";
}

// Every plane of every frame of every public vector (../shared/vectors).
TEST(SoftfpTerm, PublicVectors) {
  if (!testing_vectors::vectors_present())
    GTEST_SKIP() << "no shared vectors at " << testing_vectors::kVectors
                 << ": public-vector term check skipped";
  const uint64_t hits_integer = softfp_path_hits[SOFTFP_PATH_TERM_INTEGER];
  const uint64_t hits_general = softfp_path_hits[SOFTFP_PATH_TERM_GENERAL];
  TermChecker check("public vectors, every plane and frame");
  for (const testing_vectors::Pair& p : testing_vectors::load_pairs()) {
    const std::string name = p.info.at("name").get<std::string>();
    auto ref = open_video(p.ref.string(), p.raw);
    auto dist = open_video(p.dist.string(), p.raw);
    Picture a, b;
    for (int frame = 0; ref->read_frame(a) && dist->read_frame(b); ++frame)
      for (int plane = 0; plane < a.format.plane_count(); ++plane)
        check.plane(a.plane(plane), b.plane(plane), a.format.bitdepth,
                    fmt::format("{} frame {} {}", name, frame, plane_name(plane)));
  }
  EXPECT_GT(softfp_path_hits[SOFTFP_PATH_TERM_INTEGER], hits_integer)
      << "integer shortcut not reached";
  EXPECT_GT(softfp_path_hits[SOFTFP_PATH_TERM_GENERAL], hits_general) << "general path not reached";
}

}  // namespace
}  // namespace exactvq::softfp_test
