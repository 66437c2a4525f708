// The fixture every CLI test uses: a fresh directory, input writers, and the check
// that a refused run leaves no output file behind.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cli/cli_test_util.h"

namespace exactvq::clitest {

class CliTest : public ::testing::Test {
 protected:
  void SetUp() override { dir_ = test_dir(); }

  std::string path(const std::string& name) const { return (dir_ / name).string(); }

  std::string write(const std::string& name, const std::string& bytes) {
    const std::string p = path(name);
    write_file(p, bytes);
    return p;
  }

  // A Y4M file of `count` frames of make_frame(f, i, variant).
  std::string write_y4m(const std::string& name, const VideoFormat& f, int count, int variant,
                        int first_index = 0) {
    return write(name, y4m_bytes(f, make_frames(f, count, variant, first_index)));
  }

  // Runs exactvq with `args` twice, with -o naming a new file and then an existing one.
  // Each run must exit with `status`, print to stderr a message starting "exactvq: " that
  // contains every one of `needles`, print nothing on stdout, create no file (no report,
  // no leftover temporary) and leave the existing file byte-identical. Returns the last run.
  RunResult expect_refused(const std::vector<std::string>& args, int status,
                           const std::vector<std::string>& needles, const RunIo& io = {}) {
    const fs::path out_dir = dir_ / "out";
    fs::remove_all(out_dir);
    fs::create_directories(out_dir);
    const std::string fresh = (out_dir / "new.xml").string();
    const std::string existing = (out_dir / "existing.xml").string();
    const std::string previous = "<previous report, must survive>\n";
    write_file(existing, previous);
    const auto before = list_dir(out_dir);
    RunResult r;
    for (int pass = 0; pass < 2; ++pass) {
      std::vector<std::string> a = args;
      a.push_back("-o");
      a.push_back(pass == 0 ? fresh : existing);
      r = run_cli(a, io);
      SCOPED_TRACE(pass == 0 ? "with -o to a new file" : "with -o to an existing file");
      EXPECT_FALSE(r.timed_out) << describe(r);
      EXPECT_EQ(r.status, status) << describe(r);
      EXPECT_TRUE(r.err.starts_with("exactvq: ")) << describe(r);
      for (const auto& needle : needles)
        EXPECT_NE(r.err.find(needle), std::string::npos)
            << "stderr lacks '" << needle << "'\n"
            << describe(r);
      if (status == 2) {
        EXPECT_NE(r.err.find("Try 'exactvq --help'"), std::string::npos) << describe(r);
      }
      EXPECT_EQ(r.out, "") << describe(r);
      EXPECT_FALSE(fs::exists(fresh)) << fresh << " was created";
      EXPECT_EQ(read_file(existing), previous) << existing << " was changed";
      EXPECT_EQ(list_dir(out_dir), before) << "files appeared in " << out_dir;
    }
    return r;
  }

  fs::path dir_;
};

}  // namespace exactvq::clitest
