// The fault-injection grammar shared by EXACTVQ_CUDA_FAULT and
// EXACTVQ_OPENCL_FAULT (the backends' own tests cover which names each accepts).
#include "core/fault_spec.h"

#include <gtest/gtest.h>

namespace exactvq {
namespace {

TEST(FaultSpec, NameAlone) {
  const auto s = parse_fault_spec("open");
  ASSERT_TRUE(s.has_value());
  EXPECT_EQ(s->name, "open");
  EXPECT_FALSE(s->numbered);
  EXPECT_EQ(s->n, 1);
}

TEST(FaultSpec, NameAndNumber) {
  const auto s = parse_fault_spec("alloc@12");
  ASSERT_TRUE(s.has_value());
  EXPECT_EQ(s->name, "alloc");
  EXPECT_TRUE(s->numbered);
  EXPECT_EQ(s->n, 12);
  const auto zero = parse_fault_spec("lost@0");
  ASSERT_TRUE(zero.has_value());
  EXPECT_EQ(zero->n, 0);
  const auto longest = parse_fault_spec("launch@999999999999");  // 12 digits
  ASSERT_TRUE(longest.has_value());
  EXPECT_EQ(longest->n, 999999999999);
}

TEST(FaultSpec, BadNumbersAreRefused) {
  for (const char* bad : {"alloc@", "alloc@-1", "alloc@1x", "alloc@ 1", "alloc@1@2",
                          "launch@1234567890123" /* 13 digits */, "@"})
    EXPECT_FALSE(parse_fault_spec(bad).has_value()) << bad;
}

TEST(FaultSpec, UnknownNamesAreTheCallersToRefuse) {
  // The grammar does not know the names: "bogus" parses, and each backend refuses it.
  const auto s = parse_fault_spec("bogus@3");
  ASSERT_TRUE(s.has_value());
  EXPECT_EQ(s->name, "bogus");
  EXPECT_EQ(s->n, 3);
}

}  // namespace
}  // namespace exactvq
