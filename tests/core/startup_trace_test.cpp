#include "core/startup_trace.h"

#include <string>
#include <thread>

#include <gtest/gtest.h>

namespace exactvq {
namespace {

// One process, one trace: the marks of this test are the only ones.
TEST(StartupTrace, SaysEachStageOnceInOrderWithItsOwnTime) {
  EXPECT_EQ(startup::summary(), "");
  startup::mark("first");
  startup::mark("second");
  startup::mark("first");  // a name's first mark is kept
  const std::string s = startup::summary();
  const size_t first = s.find("first ");
  const size_t second = s.find(", second ");
  ASSERT_NE(first, std::string::npos) << s;
  ASSERT_NE(second, std::string::npos) << s;
  EXPECT_EQ(first, 0u) << s;
  EXPECT_EQ(s.find("first", first + 1), std::string::npos) << s;
  EXPECT_EQ(s.substr(s.size() - 3), " ms") << s;
  // The first stage counts from the process's start, which came before this test.
  EXPECT_GE(std::stod(s.substr(6)), 0.0) << s;
}

TEST(StartupTrace, TalliesCountAndAddUpInTheOrderTheyCame) {
  EXPECT_EQ(startup::tallies(), "");
  startup::tally("allocations", 0.002);
  startup::tally("openings", 0.001);
  startup::tally("allocations", 0.003);
  EXPECT_EQ(startup::tallies(), "allocations 2 in 5 ms, openings 1 in 1 ms");
}

TEST(StartupTrace, AnInputNameIsTheThreadsOwnWhileInScope) {
  EXPECT_STREQ(startup::input_name(), "");
  {
    const startup::InputName ref("ref");
    EXPECT_STREQ(startup::input_name(), "ref");
    {
      const startup::InputName dist("dist");
      EXPECT_STREQ(startup::input_name(), "dist");
    }
    EXPECT_STREQ(startup::input_name(), "ref");
    std::string other = "unset";
    std::thread([&] { other = startup::input_name(); }).join();
    EXPECT_EQ(other, "");
  }
  EXPECT_STREQ(startup::input_name(), "");
}

}  // namespace
}  // namespace exactvq
