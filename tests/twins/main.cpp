// twin_tests: the twin table as GoogleTest cases, one a row; with --bench
// [--filter=REGEX] [--seconds=S], the timed cases of the rows whose names REGEX
// finds (ECMAScript: 'vif', '^ssim\..*/cpu-AVX2$') beside their references.
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <string>

namespace exactvq::twins {
int run_bench(const std::string& filter, double min_seconds);
}

int main(int argc, char** argv) {
  bool bench = false;
  std::string filter;
  double seconds = 0.5;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--bench")
      bench = true;
    else if (a.rfind("--filter=", 0) == 0)
      filter = a.substr(9);
    else if (a.rfind("--seconds=", 0) == 0)
      seconds = std::atof(a.c_str() + 10);
  }
  if (bench) return exactvq::twins::run_bench(filter, seconds);
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
