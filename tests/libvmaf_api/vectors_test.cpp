// VMAF v0.6.1 through libvmaf's C API on the public Y4M pairs (576x324; 8, 10
// and 12 bits; 4:2:0, 4:2:2, 4:4:4): every per-frame score and every pooled
// value printed by the same program (written against upstream's headers) with
// exactvq's libvmaf.so.3 equals, bit for bit, libvmaf's plain C
// (libvmaf_vmaf_scores.json's vmaf_v0.6.1_nosimd run); upstream's library,
// which dispatches SIMD, is run too and compared with the same values.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <random>
#include <sstream>
#include <sys/wait.h>
#include <utility>
#include <fstream>

#include <nlohmann/json.hpp>

#include "api_runs.h"
#include "stored_scores.h"

namespace exactvq::libvmaf_test {

TEST(LibvmafApiVectors, ExactvqEqualsLibvmafPlainCBitForBit) {
  const auto runs = expected_runs();
  if (runs.empty()) GTEST_SKIP() << "no " << (shared_dir() / "vectors").string();
  size_t total = 0;
  for (const int threads : {0, 3}) {
    for (const auto& run : runs) {
      const fs::path dir = shared_dir() / "vectors" / run.pair;
      const Values got =
          run_scores(EXACTVQ_LIBVMAF_DIR, dir / "ref.y4m", dir / "dist.y4m", threads);
      ASSERT_FALSE(got.empty()) << run.pair;
      // Every value the program printed has a stored counterpart.
      for (const auto& [key, value] : got)
        EXPECT_TRUE(run.values.count(key)) << run.pair << " " << key;
      std::string differences;
      const size_t equal = compare(run.values, got, differences);
      EXPECT_EQ(equal, got.size()) << run.pair << " (n_threads " << threads << ")\n" << differences;
      total += equal;
    }
  }
  std::printf("exactvq's libvmaf.so.3: %zu values equal libvmaf's plain C bit for bit\n", total);
  RecordProperty("values_equal", int(total));
}

// Upstream's library run by the same program: with cpumask 0xffffffff (its
// plain C) every value equals the stored plain-C values and exactvq's; with its
// default dispatch (AVX2/AVX-512 on this CPU) differences are reported, not failed:
// they are upstream's SIMD, which exactvq does not follow.
TEST(LibvmafApiVectors, UpstreamLibraryGivesTheSameValues) {
  const auto runs = expected_runs();
  const std::string upstream = upstream_library_dir();
  if (runs.empty() || upstream.empty())
    GTEST_SKIP() << "no upstream libvmaf.so.3 or vectors in " << shared_dir().string();
  size_t plain_equal = 0, simd_equal = 0, simd_values = 0;
  for (const auto& run : runs) {
    const fs::path dir = shared_dir() / "vectors" / run.pair;
    const Values ours = run_scores(EXACTVQ_LIBVMAF_DIR, dir / "ref.y4m", dir / "dist.y4m", 0);
    const Values plain = run_scores(upstream, dir / "ref.y4m", dir / "dist.y4m", 0, kPlainC);
    ASSERT_EQ(plain.size(), ours.size()) << run.pair;
    std::string differences;
    const size_t equal = compare(run.values, plain, differences);
    EXPECT_EQ(equal, plain.size()) << run.pair << "\n" << differences;
    std::string between;
    EXPECT_EQ(compare(plain, ours, between), plain.size()) << run.pair << "\n" << between;
    plain_equal += equal;

    const Values simd = run_scores(upstream, dir / "ref.y4m", dir / "dist.y4m", 0);
    std::string simd_differences;
    simd_equal += compare(run.values, simd, simd_differences);
    simd_values += simd.size();
    if (!simd_differences.empty())
      std::printf("upstream's SIMD differs from its C on %s:\n%s", run.pair.c_str(),
                  simd_differences.c_str());
  }
  std::printf("upstream's libvmaf.so.3: plain C %zu values equal; default dispatch %zu of %zu\n",
              plain_equal, simd_equal, simd_values);
}

// A CUDA state imported into the context (exactvq's CUDA backend, where compiled
// in and a device is present; skipped otherwise): the same bits as the CPU.
TEST(LibvmafApiVectors, CudaStateGivesTheCpusBits) {
  const auto runs = expected_runs();
  if (runs.empty()) GTEST_SKIP() << "no " << (shared_dir() / "vectors").string();
  size_t total = 0;
  for (const auto& run : runs) {
    const fs::path dir = shared_dir() / "vectors" / run.pair;
    const std::string cmd = std::string("LIBVMAF_API_SCORE_CUDA=1 LD_LIBRARY_PATH='") +
                            EXACTVQ_LIBVMAF_DIR + "'${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} '" +
                            LIBVMAF_API_SCORE + "' '" + (dir / "ref.y4m").string() + "' '" +
                            (dir / "dist.y4m").string() + "' 0 0 2>/dev/null";
    FILE* pipe = popen(cmd.c_str(), "r");
    ASSERT_NE(pipe, nullptr);
    std::string out;
    char buf[4096];
    for (size_t got; (got = fread(buf, 1, sizeof buf, pipe)) > 0;) out.append(buf, got);
    const int status = pclose(pipe);
    if (WIFEXITED(status) && WEXITSTATUS(status) == 77)
      GTEST_SKIP() << "no CUDA in this build or on this machine";
    ASSERT_EQ(status, 0) << cmd;
    std::istringstream in(out);
    Values got;
    std::string kind, a, b, number;
    while (in >> kind >> a >> b >> number)
      got[kind + " " + a + " " + b] = std::strtod(number.c_str(), nullptr);
    std::string differences;
    const size_t equal = compare(run.values, got, differences);
    EXPECT_EQ(equal, got.size()) << run.pair << " on CUDA\n" << differences;
    total += equal;
  }
  std::printf("CUDA through the CUDA state: %zu values equal libvmaf's plain C\n", total);
}

// Odd sizes, 4:2:2 and 10 bits on seeded random pairs: upstream's plain C
// through its own API (floor-sized chroma) is the oracle. Odd-sized subsampled
// pictures are scored as luma alone, which VMAF reads only.
TEST(LibvmafApiVectors, SeededOddSizesEqualUpstreamPlainC) {
  const std::string upstream = upstream_library_dir();
  if (upstream.empty()) GTEST_SKIP() << "no upstream libvmaf.so.3 in " << shared_dir().string();
  struct Case {
    int w, h;
    const char* chroma;  // the Y4M C tag
    int bits;
  };
  const Case cases[] = {{65, 37, "420", 8},     {66, 35, "420", 8}, {101, 63, "422p10", 10},
                        {97, 41, "420p10", 10}, {67, 45, "444", 8}, {72, 40, "mono", 8}};
  const fs::path tmp = fs::path(EXACTVQ_TEST_TMP) / "libvmaf_api_odd";
  fs::create_directories(tmp);
  size_t total = 0;
  for (const Case& c : cases) {
    const std::string name = std::to_string(c.w) + "x" + std::to_string(c.h) + "_" + c.chroma;
    const bool wide = c.bits > 8;
    const std::string tag(c.chroma);
    const int cw = tag.rfind("444", 0) == 0 ? c.w : tag == "mono" ? 0 : (c.w + 1) / 2;
    const int ch = tag.rfind("420", 0) == 0 ? (c.h + 1) / 2 : tag == "mono" ? 0 : c.h;
    const size_t samples = size_t(c.w) * size_t(c.h) + 2 * size_t(cw) * size_t(ch);
    std::mt19937 rng(uint32_t(c.w * 1000 + c.h));
    const int max = (1 << c.bits) - 1;
    std::ofstream ref(tmp / (name + "_ref.y4m"), std::ios::binary),
        dist(tmp / (name + "_dist.y4m"), std::ios::binary);
    for (auto* out : {&ref, &dist})
      *out << "YUV4MPEG2 W" << c.w << " H" << c.h << " F25:1 Ip A1:1 C" << c.chroma << "\n";
    for (int frame = 0; frame < 3; ++frame) {
      ref << "FRAME\n";
      dist << "FRAME\n";
      for (size_t i = 0; i < samples; ++i) {
        // A smooth ramp that moves between frames, plus noise in the distorted one.
        const int base = int((i * 3 + size_t(frame) * 17) % size_t(max + 1));
        const int noisy = std::clamp(base + int(rng() % 41) - 20, 0, max);
        for (const auto& [out, v] : {std::pair{&ref, base}, std::pair{&dist, noisy}}) {
          if (wide) {
            const char b[2] = {char(v & 0xff), char(v >> 8)};
            out->write(b, 2);
          } else {
            out->put(char(v));
          }
        }
      }
    }
    ref.close();
    dist.close();
    const fs::path r = tmp / (name + "_ref.y4m"), d = tmp / (name + "_dist.y4m");
    const Values want = run_scores(upstream, r, d, 0, kPlainC);
    const Values got = run_scores(EXACTVQ_LIBVMAF_DIR, r, d, 0);
    ASSERT_FALSE(want.empty()) << name;
    ASSERT_EQ(got.size(), want.size()) << name;
    std::string differences;
    const size_t equal = compare(want, got, differences);
    EXPECT_EQ(equal, want.size()) << name << "\n" << differences;
    total += equal;
  }
  std::printf("seeded odd sizes: %zu values equal upstream's plain C\n", total);
}

}  // namespace exactvq::libvmaf_test
