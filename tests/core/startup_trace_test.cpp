#include "core/startup_trace.h"

#include <string>

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

}  // namespace
}  // namespace exactvq
