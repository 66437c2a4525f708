// The progress line: its text and rate limit on a fake clock, and the CLI drawing it
// only when standard error is a terminal (a pseudo-terminal here) and not with -q.
#include <fcntl.h>
#include <pty.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <thread>

#include "cli/cli_fixture.h"
#include "cli/progress.h"

namespace exactvq::clitest {
namespace {

using namespace std::chrono_literals;
using Time = std::chrono::steady_clock::time_point;

TEST(ProgressText, WithAndWithoutTotal) {
  EXPECT_EQ(ProgressLine::text(120, 300, 2.0),
            "exactvq: 120/300 frames (40%), 60.0 fps, 0:03 left");
  EXPECT_EQ(ProgressLine::text(120, std::nullopt, 2.0), "exactvq: 120 frames, 60.0 fps");
  EXPECT_EQ(ProgressLine::text(1, 100000, 1.0),
            "exactvq: 1/100000 frames (0%), 1.0 fps, 27:46:39 left");
  EXPECT_EQ(ProgressLine::text(30, 30, 3.0), "exactvq: 30/30 frames (100%), 10.0 fps, 0:00 left");
  // A container's count can be short of the frames decoded: never past 100%.
  EXPECT_EQ(ProgressLine::text(31, 30, 1.0), "exactvq: 31/30 frames (100%), 31.0 fps, 0:00 left");
  EXPECT_EQ(ProgressLine::text(0, 30, 0.0), "exactvq: 0/30 frames (0%), 0.0 fps");
}

// A ProgressLine on a clock the test moves, writing into a string.
struct FakeTerminal {
  Time now{};
  std::string written;
  int draws = 0;
  ProgressLine line{[this](std::string_view s) {
                      written += s;
                      if (s != "\r\x1b[K") ++draws;
                    },
                    [this] { return now; }};
};

TEST(ProgressLine, AtMostTenDrawsASecond) {
  FakeTerminal t;
  t.line.update(1, 1000);
  EXPECT_EQ(t.draws, 0) << "nothing before the first tenth of a second";
  for (int ms = 1; ms <= 1000; ++ms) {
    t.now += 1ms;
    t.line.update(ms, 1000);
  }
  EXPECT_EQ(t.draws, 10);
  EXPECT_TRUE(
      t.written.starts_with("\rexactvq: 100/1000 frames (10%), 1000.0 fps, 0:01 left\x1b[K"))
      << t.written;
  // Updates in a burst after a long pause draw once.
  t.now += 5s;
  for (int i = 0; i < 50; ++i) t.line.update(1000 + i, 2000);
  EXPECT_EQ(t.draws, 11);
}

TEST(ProgressLine, ClearErasesOnlyADrawnLine) {
  FakeTerminal t;
  t.line.clear();
  EXPECT_EQ(t.written, "");
  t.now += 200ms;
  t.line.update(5, std::nullopt);
  EXPECT_EQ(t.written, "\rexactvq: 5 frames, 25.0 fps\x1b[K");
  t.line.clear();
  t.line.clear();
  EXPECT_EQ(t.written, "\rexactvq: 5 frames, 25.0 fps\x1b[K\r\x1b[K");
}

TEST(ProgressLine, DestructorErases) {
  std::string written;
  Time now{};
  {
    ProgressLine line([&](std::string_view s) { written += s; }, [&] { return now; });
    now += 1s;
    line.update(3, 10);
  }
  EXPECT_TRUE(written.ends_with("\x1b[K\r\x1b[K")) << written;
}

// ---- the CLI on a pseudo-terminal ----

class ProgressCli : public CliTest {
 protected:
  void SetUp() override {
    CliTest::SetUp();
    fmt_ = make_format(16, 12);
    ref_ = write_y4m("ref.y4m", fmt_, 6, 0);
    dist_bytes_ = y4m_bytes(fmt_, make_frames(fmt_, 6, 1));
  }

  struct TtyRun {
    int status = -1;
    std::string tty;  // what the program wrote to its standard error (the terminal)
    std::string out;
  };

  // Runs exactvq -r ref -d - with `extra`, standard error on a pseudo-terminal and the
  // distorted video fed through a pipe in two halves, the second a third of a second
  // after the program has read the first, so the run lasts longer than the progress
  // line's interval on any machine.
  TtyRun run_on_tty(const std::vector<std::string>& extra) {
    TtyRun result;
    int master = -1, slave = -1;
    if (::openpty(&master, &slave, nullptr, nullptr, nullptr) != 0) {
      ADD_FAILURE() << "openpty: " << std::strerror(errno);
      return result;
    }
    int feed[2];
    EXPECT_EQ(::pipe(feed), 0);
    const std::string out_path = path("stdout.txt");
    std::vector<std::string> args{
        EXACTVQ_CLI_PATH, "--feature", "ssim", "-n", "-r", ref_, "-d", "-"};
    args.insert(args.end(), extra.begin(), extra.end());
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    const pid_t pid = ::fork();
    if (pid == 0) {
      ::dup2(feed[0], 0);
      const int out = ::open(out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      ::dup2(out, 1);
      ::dup2(slave, 2);
      ::close(feed[0]);
      ::close(feed[1]);
      ::close(master);
      ::close(slave);
      ::execv(argv[0], argv.data());
      ::_exit(127);
    }
    ::close(feed[0]);
    ::close(slave);
    // Reads the terminal while feeding, so the program never blocks on a full pty.
    std::thread reader([&] {
      char buf[4096];
      for (;;) {
        const ssize_t n = ::read(master, buf, sizeof buf);
        if (n > 0) {
          result.tty.append(buf, size_t(n));
          continue;
        }
        if (n < 0 && errno == EINTR) continue;
        break;  // EIO once the program's side is closed
      }
    });
    const size_t half = dist_bytes_.size() / 2;
    auto write_all = [&](const char* p, size_t n) {
      while (n > 0) {
        const ssize_t w = ::write(feed[1], p, n);
        if (w <= 0) return;
        p += w;
        n -= size_t(w);
      }
    };
    write_all(dist_bytes_.data(), half);
    // Once the program has read the first half it is running (its progress clock has
    // started, however slowly it was launched); the pause then outlasts the interval.
    for (int waited = 0; waited < 2000; ++waited) {
      int unread = 0;
      if (::ioctl(feed[1], FIONREAD, &unread) != 0 || unread == 0) break;
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(350));
    write_all(dist_bytes_.data() + half, dist_bytes_.size() - half);
    ::close(feed[1]);
    int status = 0;
    ::waitpid(pid, &status, 0);
    reader.join();
    ::close(master);
    result.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    result.out = read_file(out_path);
    return result;
  }

  VideoFormat fmt_;
  std::string ref_, dist_bytes_;
};

TEST_F(ProgressCli, DrawnOnATerminalThenErased) {
  const TtyRun r = run_on_tty({});
  ASSERT_EQ(r.status, 0) << r.tty;
  // The line is redrawn in place and erased before the run ends; the summary goes to
  // standard output as always.
  EXPECT_NE(r.tty.find("\rexactvq: "), std::string::npos) << r.tty;
  EXPECT_NE(r.tty.find(" frames, "), std::string::npos) << r.tty;
  EXPECT_NE(r.tty.find(" fps"), std::string::npos) << r.tty;
  EXPECT_TRUE(r.tty.ends_with("\r\x1b[K")) << r.tty;
  EXPECT_TRUE(r.out.starts_with("ssim: ")) << r.out;
}

TEST_F(ProgressCli, NothingWithQuiet) {
  const TtyRun r = run_on_tty({"-q"});
  ASSERT_EQ(r.status, 0) << r.tty;
  EXPECT_EQ(r.tty, "");
}

TEST_F(ProgressCli, NothingWhenStandardErrorIsNotATerminal) {
  const std::string dist = write("dist.y4m", dist_bytes_);
  const RunResult r = run_shell(
      "{ head -c \"$1\" \"$2\"; sleep 0.35; tail -c +\"$(($1 + 1))\" \"$2\"; } | \"$3\" -r \"$4\" "
      "-d - --feature ssim -n",
      {std::to_string(dist_bytes_.size() / 2), dist, EXACTVQ_CLI_PATH, ref_});
  ASSERT_EQ(r.status, 0) << describe(r);
  EXPECT_EQ(r.err, "");
  EXPECT_TRUE(r.out.starts_with("ssim: ")) << r.out;
}

}  // namespace
}  // namespace exactvq::clitest
