// VMAF v0.6.1 through libvmaf's C API on the public Y4M pairs (576x324; 8, 10
// and 12 bits; 4:2:0, 4:2:2, 4:4:4): every per-frame score and every pooled
// value printed by the same program (written against upstream's headers) with
// exactvq's libvmaf.so.3 equals, bit for bit, libvmaf's plain C
// (libvmaf_vmaf_scores.json's vmaf_v0.6.1_nosimd run); upstream's library,
// which dispatches SIMD, is run too and compared with the same values.
#include <gtest/gtest.h>

#include <cstring>
#include <fstream>

#include <nlohmann/json.hpp>

#include "api_runs.h"

namespace exactvq::libvmaf_test {
namespace {

bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

std::string fmt_double(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

struct Expected {
  std::string pair;
  Values values;
};

// The nosimd run's values of every Y4M pair, keyed as the program prints them.
std::vector<Expected> expected_runs() {
  std::vector<Expected> runs;
  std::ifstream in(shared_dir() / "vectors" / "libvmaf_vmaf_scores.json");
  if (!in) return runs;
  // parse_int=float: "-0" keeps its sign, integers read as doubles.
  const auto doc = nlohmann::json::parse(in);
  for (const auto& [pair, entry] : doc["pairs"].items()) {
    const auto& format = entry["format"];
    if (format["file_type"] != "y4m" || format["width"] != 576 || format["height"] != 324) continue;
    const auto& run = entry["runs"]["vmaf_v0.6.1_nosimd"];
    if (run["rc"] != 0) continue;
    Expected e{pair, {}};
    for (const auto& frame : run["frames"]) {
      const int i = frame["frameNum"];
      for (const auto& [key, value] : frame.items())
        if (key != "frameNum" && !value.is_null())
          e.values["frame " + std::to_string(i) + " " + key] = value.get<double>();
    }
    for (const auto& [key, methods] : run["pooled"].items())
      for (const auto& [method, value] : methods.items())
        if (!value.is_null()) e.values["pooled " + key + " " + method] = value.get<double>();
    runs.push_back(std::move(e));
  }
  return runs;
}

// Compares `got` with `want` key by key; returns the count of equal values and
// lists the others in `differences`.
size_t compare(const Values& want, const Values& got, std::string& differences) {
  size_t equal = 0;
  for (const auto& [key, value] : want) {
    const auto it = got.find(key);
    if (it == got.end()) continue;  // scores the program does not read
    if (same_bits(it->second, value))
      ++equal;
    else
      differences += "  " + key + ": " + fmt_double(it->second) + " vs " + fmt_double(value) + "\n";
  }
  return equal;
}

}  // namespace

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

// Upstream's library dispatches AVX2/AVX-512 at run time; its values are
// reported, and they must equal the plain C's too (the JSON notes that SIMD and
// C agree for these pairs). The same program and API calls, so a failure here
// would be the program's, not exactvq's.
TEST(LibvmafApiVectors, UpstreamLibraryGivesTheSameValues) {
  const auto runs = expected_runs();
  const std::string upstream = upstream_library_dir();
  if (runs.empty() || upstream.empty())
    GTEST_SKIP() << "no upstream libvmaf.so.3 or vectors in " << shared_dir().string();
  size_t total = 0;
  for (const auto& run : runs) {
    const fs::path dir = shared_dir() / "vectors" / run.pair;
    const Values got = run_scores(upstream, dir / "ref.y4m", dir / "dist.y4m", 0);
    const Values ours = run_scores(EXACTVQ_LIBVMAF_DIR, dir / "ref.y4m", dir / "dist.y4m", 0);
    ASSERT_EQ(got.size(), ours.size()) << run.pair;
    std::string differences;
    const size_t equal = compare(run.values, got, differences);
    EXPECT_EQ(equal, got.size()) << run.pair << ": upstream's SIMD differs from its C\n"
                                 << differences;
    std::string between;
    EXPECT_EQ(compare(got, ours, between), got.size()) << run.pair << "\n" << between;
    total += equal;
  }
  std::printf("upstream's libvmaf.so.3: %zu values equal its plain C\n", total);
}

}  // namespace exactvq::libvmaf_test
