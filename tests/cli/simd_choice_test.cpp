// EXACTVQ_SIMD: every SIMD level this CPU runs gives the default run's bits, the
// level chosen is the one that runs, and a name the CPU does not take is refused.
#include <cstdlib>
#include <regex>

#include "cli/cli_fixture.h"

namespace exactvq::clitest {
namespace {

class SimdChoice : public CliTest {
 protected:
  void SetUp() override {
    CliTest::SetUp();
    const VideoFormat f = make_format(64, 48);  // ADM's smallest side is 33
    ref_ = write_y4m("ref.y4m", f, 3, 0);
    dist_ = write_y4m("dist.y4m", f, 3, 1);
  }
  void TearDown() override { ::unsetenv("EXACTVQ_SIMD"); }

  // The default run (VMAF v0.6.1) under EXACTVQ_SIMD=value (unset when empty).
  RunResult run_with(const std::string& value, const std::string& json) {
    if (value.empty())
      ::unsetenv("EXACTVQ_SIMD");
    else
      ::setenv("EXACTVQ_SIMD", value.c_str(), 1);
    return run_program({EXACTVQ_CLI_PATH, "-r", ref_, "-d", dist_, "--json", "--precision", "max",
                        "--threads", "2", "--verbose", "-o", json});
  }

  // The names a refusal lists ("this CPU runs AVX3, AVX2, SSE4 (any case) ...").
  std::vector<std::string> names_offered() {
    const RunResult r = run_with("NO_SUCH_LEVEL", path("refused.json"));
    std::smatch m;
    EXPECT_TRUE(std::regex_search(r.err, m, std::regex("this CPU runs ([A-Z0-9_, ]+) \\(")))
        << describe(r);
    std::vector<std::string> names;
    const std::string list = m.size() > 1 ? m[1].str() : "";
    const std::regex name("[A-Z0-9_]+");
    for (auto it = std::sregex_iterator(list.begin(), list.end(), name); it != std::sregex_iterator();
         ++it)
      names.push_back(it->str());
    return names;
  }

  std::string ref_, dist_;
};

TEST_F(SimdChoice, AnUnknownLevelIsRefusedNamingTheVariable) {
  ::setenv("EXACTVQ_SIMD", "avx9", 1);
  expect_refused({"-r", ref_, "-d", dist_, "--feature", "psnr"}, kExitFailure,
                 {"EXACTVQ_SIMD='avx9'", "this CPU runs"});
}

TEST_F(SimdChoice, EveryLevelGivesTheDefaultBits) {
  const RunResult base = run_with("", path("default.json"));
  ASSERT_EQ(base.status, 0) << describe(base);
  const Report want = parse_json(read_file(path("default.json")));
  ASSERT_FALSE(want.values.empty());
  const std::vector<std::string> names = names_offered();
  ASSERT_FALSE(names.empty());
  for (const std::string& name : names) {
    SCOPED_TRACE(name);
    const std::string json = path(name + ".json");
    const RunResult r = run_with(name, json);
    ASSERT_EQ(r.status, 0) << describe(r);
    const std::string target = name == "AVX3_NOVNNI" ? "AVX3)" : name;
    EXPECT_NE(r.err.find("scoring on cpu (" + target), std::string::npos) << describe(r);
    const Report got = parse_json(read_file(json));
    ASSERT_EQ(got.names, want.names);
    for (const auto& [key, values] : want.values) {
      ASSERT_EQ(got.values.at(key).size(), values.size()) << key;
      for (size_t i = 0; i < values.size(); ++i)
        EXPECT_EQ(bits(got.values.at(key)[i]), bits(values[i])) << key << " frame " << i;
    }
  }
}

TEST_F(SimdChoice, NamesAreTakenInAnyCase) {
  const std::vector<std::string> names = names_offered();
  ASSERT_FALSE(names.empty());
  std::string lower = names.back();
  for (char& c : lower) c = char(std::tolower(static_cast<unsigned char>(c)));
  const RunResult r = run_with(lower, path("lower.json"));
  ASSERT_EQ(r.status, 0) << describe(r);
  EXPECT_NE(r.err.find("scoring on cpu (" + names.back()), std::string::npos) << describe(r);
}

}  // namespace
}  // namespace exactvq::clitest
