// Runs a test once per SIMD target that exactvq compiled and this machine
// supports, forcing that target (dav1d's checkasm enables CPU levels the same
// way), and names the target in the test's name.
#pragma once

#include <gtest/gtest.h>

#include <optional>
#include <ostream>
#include <string>

#include "backends/cpu/simd_targets.h"

namespace exactvq::test {

class PerTarget : public ::testing::TestWithParam<cpu::SimdTarget> {
 protected:
  void SetUp() override {
    forced_.emplace(GetParam().bits);
    RecordProperty("simd_target", GetParam().name);
  }
  void TearDown() override { forced_.reset(); }

 private:
  std::optional<cpu::ForcedTarget> forced_;
};

}  // namespace exactvq::test

namespace exactvq::cpu {
inline void PrintTo(const SimdTarget& t, std::ostream* os) { *os << t.name; }
}  // namespace exactvq::cpu

namespace exactvq::test {

inline std::string target_test_name(const ::testing::TestParamInfo<cpu::SimdTarget>& info) {
  return info.param.name;
}

}  // namespace exactvq::test

#define EXACTVQ_INSTANTIATE_PER_TARGET(suite)                                                 \
  INSTANTIATE_TEST_SUITE_P(Targets, suite, ::testing::ValuesIn(exactvq::cpu::supported_targets()), \
                           exactvq::test::target_test_name)
