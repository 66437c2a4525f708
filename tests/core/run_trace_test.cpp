// The run trace (core/run_trace.h): nothing is recorded outside start()..stop();
// spans nest on their thread; a pool loop's tasks carry the name of the span it
// was made in and their index, on whichever thread runs them; write() gives
// trace-event JSON with every thread named and the start()ing thread as "main".
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "core/run_trace.h"
#include "core/thread_pool.h"

namespace exactvq {
namespace {

nlohmann::json recorded() {
  std::ostringstream out;
  run_trace::write(out);
  return nlohmann::json::parse(out.str());
}

std::vector<nlohmann::json> spans_named(const nlohmann::json& trace, const std::string& name) {
  std::vector<nlohmann::json> out;
  for (const auto& e : trace["traceEvents"])
    if (e["ph"] == "X" && e["name"] == name) out.push_back(e);
  return out;
}

TEST(RunTrace, RecordsOnlyBetweenStartAndStop) {
  { const run_trace::Span before("before"); }
  EXPECT_FALSE(run_trace::active());
  run_trace::start();
  EXPECT_TRUE(run_trace::active());
  { const run_trace::Span during("during", 7); }
  run_trace::stop();
  { const run_trace::Span after("after"); }
  const nlohmann::json trace = recorded();
  EXPECT_TRUE(spans_named(trace, "before").empty());
  EXPECT_TRUE(spans_named(trace, "after").empty());
  const auto during = spans_named(trace, "during");
  ASSERT_EQ(during.size(), 1u);
  EXPECT_EQ(during[0]["tid"], 0);
  EXPECT_EQ(during[0]["args"]["index"], 7);
  EXPECT_GE(during[0]["dur"].get<double>(), 0.0);
  // A new recording forgets the last one.
  run_trace::start();
  run_trace::stop();
  EXPECT_TRUE(spans_named(recorded(), "during").empty());
}

TEST(RunTrace, NestedSpansAndTheCurrentName) {
  EXPECT_EQ(run_trace::current_name(), nullptr);
  run_trace::start();
  {
    const run_trace::Span outer("outer");
    EXPECT_STREQ(run_trace::current_name(), "outer");
    {
      const run_trace::Span inner("inner");
      EXPECT_STREQ(run_trace::current_name(), "inner");
    }
    EXPECT_STREQ(run_trace::current_name(), "outer");
  }
  run_trace::stop();
  EXPECT_EQ(run_trace::current_name(), nullptr);
  const nlohmann::json trace = recorded();
  const auto outer = spans_named(trace, "outer"), inner = spans_named(trace, "inner");
  ASSERT_EQ(outer.size(), 1u);
  ASSERT_EQ(inner.size(), 1u);
  EXPECT_LE(outer[0]["ts"].get<double>(), inner[0]["ts"].get<double>());
  EXPECT_GE(outer[0]["ts"].get<double>() + outer[0]["dur"].get<double>(),
            inner[0]["ts"].get<double>() + inner[0]["dur"].get<double>());
}

TEST(RunTrace, PoolTasksCarryTheirLoopsNameAndIndex) {
  ThreadPool pool(4);
  run_trace::start();
  {
    const run_trace::Span feature("feature");
    pool.parallel_for(64, [](int) {
      volatile double x = 0;
      for (int k = 0; k < 20000; ++k) x = x + 1.0;
    });
  }
  pool.post([] {});
  pool.help_until([] { return true; });
  run_trace::stop();
  const nlohmann::json trace = recorded();
  const auto tasks = spans_named(trace, "feature");
  // The span itself and its loop's 64 tasks.
  ASSERT_EQ(tasks.size(), 65u);
  std::set<int> indices;
  std::set<int> threads;
  for (const auto& t : tasks) {
    threads.insert(t["tid"].get<int>());
    if (t.contains("args")) indices.insert(t["args"]["index"].get<int>());
  }
  EXPECT_EQ(indices.size(), 64u);
  EXPECT_EQ(*indices.begin(), 0);
  EXPECT_EQ(*indices.rbegin(), 63);
  // Every thread that recorded a span is named; the starting thread is "main".
  std::map<int, std::string> names;
  for (const auto& e : trace["traceEvents"])
    if (e["ph"] == "M") names[e["tid"].get<int>()] = e["args"]["name"].get<std::string>();
  for (const int t : threads) EXPECT_TRUE(names.count(t)) << "thread " << t;
  EXPECT_EQ(names.at(0), "main");
}

}  // namespace
}  // namespace exactvq
