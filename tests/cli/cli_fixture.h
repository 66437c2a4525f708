// The fixture every CLI test uses: a fresh directory, input writers, and the check
// that a refused run leaves no output file behind.
#pragma once

#include <gtest/gtest.h>

#include <unistd.h>

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
    // An unprivileged run must be able to write there, so only the input is at fault.
    if (as_nobody_) fs::permissions(out_dir, fs::perms::all);
    const std::string fresh = (out_dir / "new.xml").string();
    const std::string existing = (out_dir / "existing.xml").string();
    const std::string previous = "<previous report, must survive>\n";
    write_file(existing, previous);
    if (as_nobody_) fs::permissions(existing, fs::perms::all);
    const auto before = list_dir(out_dir);
    RunResult r;
    for (int pass = 0; pass < 2; ++pass) {
      std::vector<std::string> a = args;
      a.push_back("-o");
      a.push_back(pass == 0 ? fresh : existing);
      r = as_nobody_ ? run_cli_as_nobody(a, io) : run_cli(a, io);
      SCOPED_TRACE(pass == 0 ? "with -o to a new file" : "with -o to an existing file");
      EXPECT_FALSE(r.timed_out) << describe(r);
      EXPECT_EQ(r.status, status) << describe(r);
      EXPECT_TRUE(r.err.starts_with("exactvq: ")) << describe(r);
      for (const auto& needle : needles)
        EXPECT_NE(r.err.find(needle), std::string::npos) << "stderr lacks '" << needle << "'\n"
                                                         << describe(r);
      if (status == kExitUsage) {
        EXPECT_NE(r.err.find("Try 'exactvq --help'"), std::string::npos) << describe(r);
      }
      EXPECT_EQ(r.out, "") << describe(r);
      EXPECT_FALSE(fs::exists(fresh)) << fresh << " was created";
      EXPECT_EQ(read_file(existing), previous) << existing << " was changed";
      EXPECT_EQ(list_dir(out_dir), before) << "files appeared in " << out_dir;
    }
    return r;
  }

  // The CLI without root's power to ignore file modes: as user nobody through setpriv
  // (util-linux) when the tests run as root, else as we are.
  static RunResult run_cli_as_nobody(const std::vector<std::string>& args, const RunIo& io = {}) {
    std::vector<std::string> all{EXACTVQ_CLI_PATH};
    all.insert(all.end(), args.begin(), args.end());
    if (::geteuid() != 0) return run_shell("exec \"$@\"", all, io);
    return run_shell("exec setpriv --reuid=65534 --regid=65534 --clear-groups \"$@\"", all, io);
  }

  // Whether user nobody can run the CLI, read `input` and write into this test's
  // directory (the checkout may sit in a folder only root can enter).
  bool nobody_can_run_on(const std::string& input) const {
    if (::geteuid() != 0) return true;
    fs::permissions(dir_, fs::perms::all);
    return run_shell(
               "exec setpriv --reuid=65534 --regid=65534 --clear-groups sh -c "
               "'\"$0\" --version >/dev/null && test -r \"$1\" && test -w \"$2\"' \"$@\"",
               {EXACTVQ_CLI_PATH, input, dir_.string()})
               .status == 0;
  }

  fs::path dir_;
  bool as_nobody_ = false;  // expect_refused runs the CLI through run_cli_as_nobody
};

}  // namespace exactvq::clitest
