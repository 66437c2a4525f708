// The thread pool (core/thread_pool.h): every index run once, loops started from
// inside a body and from several threads at once (a run's features side by side,
// each looping over its frames), exceptions rethrown to the loop's caller and the
// pool usable after them; a thread in wait_until runs none of the tasks.
#include <gtest/gtest.h>

#include <atomic>
#include <mutex>
#include <set>
#include <stdexcept>
#include <thread>
#include <vector>

#include "core/thread_pool.h"

namespace exactvq {
namespace {

TEST(ThreadPool, RunsEveryIndexOnceAtEverySize) {
  for (int threads : {1, 2, 3, 8}) {
    ThreadPool pool(threads);
    for (int count : {0, 1, 2, 7, 100}) {
      std::vector<std::atomic<int>> runs(static_cast<size_t>(count));
      pool.parallel_for(count, [&](int i) { runs[size_t(i)]++; });
      for (int i = 0; i < count; ++i)
        EXPECT_EQ(runs[size_t(i)].load(), 1)
            << threads << " threads, index " << i << " of " << count;
    }
  }
}

TEST(ThreadPool, NestedLoopsFinishEveryInnerIndex) {
  for (int threads : {2, 3, 8}) {
    ThreadPool pool(threads);
    for (int round = 0; round < 50; ++round) {
      constexpr int kOuter = 5, kInner = 9;
      std::vector<std::atomic<int>> runs(kOuter * kInner);
      std::vector<int> finished(kOuter, 0);
      pool.parallel_for(kOuter, [&](int f) {
        pool.parallel_for(kInner, [&](int i) { runs[size_t(f * kInner + i)]++; });
        // Every inner index of this outer one has run when its loop returns.
        int done = 0;
        for (int i = 0; i < kInner; ++i) done += runs[size_t(f * kInner + i)].load();
        finished[size_t(f)] = done;
      });
      for (int f = 0; f < kOuter; ++f) EXPECT_EQ(finished[size_t(f)], kInner) << threads;
      for (auto& r : runs) EXPECT_EQ(r.load(), 1) << threads;
    }
  }
}

TEST(ThreadPool, LoopsFromSeveralThreadsAtOnce) {
  ThreadPool pool(3);
  std::atomic<long> total{0};
  std::vector<std::thread> callers;
  for (int c = 0; c < 4; ++c)
    callers.emplace_back([&] {
      for (int round = 0; round < 100; ++round) pool.parallel_for(16, [&](int i) { total += i; });
    });
  for (auto& t : callers) t.join();
  EXPECT_EQ(total.load(), 4L * 100 * (15 * 16 / 2));
}

TEST(ThreadPool, RethrowsTheFirstErrorToItsCallerAndStaysUsable) {
  ThreadPool pool(4);
  for (int round = 0; round < 20; ++round) {
    std::atomic<int> inner_runs{0};
    EXPECT_THROW(pool.parallel_for(3,
                                   [&](int f) {
                                     if (f == 1) throw std::runtime_error("feature 1 failed");
                                     pool.parallel_for(8, [&](int) { inner_runs++; });
                                   }),
                 std::runtime_error);
    // The loops that did not fail ran whole; their callers waited for them.
    EXPECT_EQ(inner_runs.load() % 8, 0);
    // An inner loop's error reaches the outer body that started it.
    EXPECT_THROW(pool.parallel_for(2,
                                   [&](int) {
                                     pool.parallel_for(5, [](int i) {
                                       if (i == 3) throw std::invalid_argument("frame 3");
                                     });
                                   }),
                 std::invalid_argument);
    std::atomic<int> after{0};
    pool.parallel_for(10, [&](int) { after++; });
    EXPECT_EQ(after.load(), 10);
  }
}

// `count` tasks posted to `pool`, each noting the thread it ran on.
struct PostedTasks {
  PostedTasks(ThreadPool& pool, int count) : count(count) {
    for (int i = 0; i < count; ++i)
      pool.post([this, &pool] {
        {
          std::lock_guard lock(mutex);
          ran_on.insert(std::this_thread::get_id());
        }
        ++done;
        pool.notify();
      });
  }
  bool all_done() const { return done == count; }
  bool ran_on_this_thread() {
    std::lock_guard lock(mutex);
    return ran_on.count(std::this_thread::get_id()) != 0;
  }

  const int count;
  std::mutex mutex;
  std::set<std::thread::id> ran_on;
  std::atomic<int> done = 0;
};

// wait_until (a thread that feeds the pool) leaves every task to the workers,
// and wakes when the condition turns true with a notify().
TEST(ThreadPool, WaitUntilRunsNoTask) {
  ThreadPool pool(3);  // two workers
  PostedTasks tasks(pool, 40);
  pool.wait_until([&] { return tasks.all_done(); });
  EXPECT_EQ(tasks.done, 40);
  EXPECT_FALSE(tasks.ran_on_this_thread());
}

// parallel_for_own runs every index once, and its caller none of the tasks
// of other loops waiting beside it.
TEST(ThreadPool, ParallelForOwnRunsOnlyItsOwnTasksOnTheCaller) {
  for (int threads : {1, 2, 4}) {
    ThreadPool pool(threads);
    PostedTasks others(pool, 20);
    std::vector<std::atomic<int>> runs(50);
    pool.parallel_for_own(int(runs.size()), [&](int i) { runs[size_t(i)]++; });
    for (const auto& r : runs) EXPECT_EQ(r, 1) << "threads " << threads;
    if (threads == 1) {
      pool.help_until([&] { return others.all_done(); });  // no workers: run them here
      continue;
    }
    pool.wait_until([&] { return others.all_done(); });
    EXPECT_FALSE(others.ran_on_this_thread()) << "threads " << threads;
  }
  ThreadPool pool(3);
  EXPECT_THROW(pool.parallel_for_own(5,
                                     [](int i) {
                                       if (i == 2) throw std::runtime_error("index 2");
                                     }),
               std::runtime_error);
}

}  // namespace
}  // namespace exactvq
