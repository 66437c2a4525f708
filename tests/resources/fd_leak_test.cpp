// No descriptor or thread leaks: score through the library many times, successful
// runs and every kind of refused input, and write reports (also failing ones); the
// process must hold the same open file descriptors and threads afterwards.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <thread>

#include "app/score_run.h"
#include "core/error.h"
#include "output/report.h"

namespace exactvq {
namespace {

namespace fs = std::filesystem;

size_t count_entries(const char* dir) {
  size_t n = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir)) ++n;
  return n;
}
size_t open_fds() { return count_entries("/proc/self/fd"); }
// The threads of this process once the count holds still for 20 ms: a thread
// just joined can stay listed in /proc/self/task for a moment after join()
// returns (the kernel reaps it a little later), which made the count flaky.
size_t threads() {
  size_t n = count_entries("/proc/self/task");
  for (int i = 0; i < 100; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    const size_t m = count_entries("/proc/self/task");
    if (m == n) return n;
    n = m;
  }
  return n;
}

class ResourceLeaks : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = fs::path(EXACTVQ_TEST_TMP) / "resources" / info->name();
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    ref_ = write("ref.y4m", y4m(16, 12, "420jpeg", 4, 0));
    dist_ = write("dist.y4m", y4m(16, 12, "420jpeg", 4, 1));
  }

  // A Y4M stream of 8-bit frames (luma and chroma from a small pattern).
  static std::string y4m(int w, int h, const std::string& tag, int frames, int variant) {
    std::string s =
        "YUV4MPEG2 W" + std::to_string(w) + " H" + std::to_string(h) + " C" + tag + "\n";
    const size_t bytes = size_t(w) * h + 2 * size_t((w + 1) / 2) * ((h + 1) / 2);
    for (int f = 0; f < frames; ++f) {
      s += "FRAME\n";
      for (size_t i = 0; i < bytes; ++i)
        s.push_back(char((i * 7 + size_t(f) * 3 + size_t(variant) * (i % 3)) & 0xff));
    }
    return s;
  }

  std::string write(const std::string& name, const std::string& bytes) {
    const fs::path p = dir_ / name;
    std::ofstream(p, std::ios::binary) << bytes;
    return p.string();
  }

  RunOptions options(const std::string& ref, const std::string& dist, int threads_ = 2) const {
    RunOptions o;
    o.ref_path = ref;
    o.dist_path = dist;
    o.threads = threads_;
    return o;
  }

  fs::path dir_;
  std::string ref_, dist_;
};

TEST_F(ResourceLeaks, ScoringManyTimes) {
  score_videos(options(ref_, dist_));  // first use: lazily made singletons, if any
  const size_t fds = open_fds(), tasks = threads();
  for (int i = 0; i < 200; ++i) {
    const ScoreReport r = score_videos(options(ref_, dist_, 1 + i % 3));
    ASSERT_EQ(r.features.at(0).values.size(), 4u);
  }
  EXPECT_EQ(open_fds(), fds);
  EXPECT_EQ(threads(), tasks);
}

TEST_F(ResourceLeaks, RefusedInputsManyTimes) {
  std::string cut = y4m(16, 12, "420jpeg", 3, 1);
  cut.resize(cut.size() - 50);
  fs::create_directories(dir_ / "a_directory.y4m");
  const std::string bad_inputs[] = {
      write("truncated.y4m", cut),
      write("bad_header.y4m", "YUV4MPEG2 W16 H0 C420jpeg\nFRAME\n"),
      write("no_marker.y4m", "YUV4MPEG2 W16 H12 C420jpeg\nFRAMX\n"),
      write("other_size.y4m", y4m(18, 12, "420jpeg", 4, 1)),
      write("empty.y4m", ""),
      write("header_only.y4m", "YUV4MPEG2 W16 H12 C420jpeg\n"),
      (dir_ / "missing.y4m").string(),
      (dir_ / "a_directory.y4m").string(),
  };
  // Warm up each path once, then count.
  for (const auto& bad : bad_inputs) EXPECT_ANY_THROW(score_videos(options(ref_, bad)));
  const size_t fds = open_fds(), tasks = threads();
  for (int i = 0; i < 30; ++i) {
    for (const auto& bad : bad_inputs) {
      EXPECT_THROW(score_videos(options(ref_, bad, 1 + i % 2)), InputError) << bad;
      EXPECT_THROW(score_videos(options(bad, dist_, 1 + i % 2)), InputError) << bad;
    }
  }
  EXPECT_EQ(open_fds(), fds);
  EXPECT_EQ(threads(), tasks);
}

TEST_F(ResourceLeaks, WritingReportsManyTimes) {
  const ScoreReport report = score_videos(options(ref_, dist_));
  const std::string out = (dir_ / "out.json").string();
  write_file_atomically(
      out, [&](std::ostream& s) { write_report(s, report, OutputFormat::kJson, NumberFormat{}); });
  const size_t fds = open_fds();
  for (int i = 0; i < 100; ++i) {
    write_file_atomically(out, [&](std::ostream& s) {
      write_report(s, report, OutputFormat(i % 3), NumberFormat{});
    });
    // A body that fails midway: the old file stays, the temporary goes, no descriptor stays open.
    EXPECT_ANY_THROW(write_file_atomically(out, [](std::ostream& s) {
      s << "partial";
      throw std::runtime_error("body failed");
    }));
    EXPECT_ANY_THROW(write_file_atomically("/dev/full", [&](std::ostream& s) {
      write_report(s, report, OutputFormat::kXml, NumberFormat{});
    }));
    EXPECT_ANY_THROW(write_file_atomically((dir_ / "missing" / "o.xml").string(),
                                           [](std::ostream& s) { s << "x"; }));
  }
  EXPECT_EQ(open_fds(), fds);
  size_t files = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir_)) ++files;
  EXPECT_EQ(files, 3u) << "ref.y4m, dist.y4m and out.json only: no temporary left behind";
}

}  // namespace
}  // namespace exactvq
