// Helpers for the CLI tests: run the built exactvq as a subprocess, make small
// Y4M / raw YUV inputs, read the three report formats back.
#pragma once

#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "cli/exit_status.h"
#include "core/picture.h"

namespace exactvq::clitest {

namespace fs = std::filesystem;

// ---------------------------------------------------------------------------
// Subprocess

struct RunResult {
  int status = -1;         // exit status; -1 when killed by a signal
  int signal = 0;          // the signal that ended it, 0 when it exited
  bool timed_out = false;  // killed by us after the timeout
  std::string out, err;    // everything written to stdout / stderr
  double seconds = 0;      // wall time
};

struct RunIo {
  std::string stdin_path = "/dev/null";
  std::string stdout_path;  // empty: captured into RunResult::out
  double timeout_s = 30;
};

inline RunIo stdin_from(const std::string& path) {
  RunIo io;
  io.stdin_path = path;
  return io;
}
inline RunIo stdout_to(const std::string& path) {
  RunIo io;
  io.stdout_path = path;
  return io;
}
inline RunIo with_timeout(double seconds) {
  RunIo io;
  io.timeout_s = seconds;
  return io;
}

// Runs argv[0] (a path, not searched in PATH) with argv, stdin / stdout / stderr redirected
// to files; kills its whole process group after io.timeout_s (then timed_out is set).
RunResult run_program(const std::vector<std::string>& argv, const RunIo& io = {});

// `args` with "--feature ssim" added when they name no feature, model or batch list,
// and -n when they name no model (nor -n; with --batch, for every pair): the command-line tests
// exercise the plumbing on tiny pictures with the feature alone; the default run (VMAF v0.6.1, also
// beside --feature) has tests of its own (tests/metrics/vmaf/, and tests/cli/libvmaf_diff_test.cpp
// through run_program).
std::vector<std::string> with_ssim_default(std::vector<std::string> args);

// Runs the built exactvq with with_ssim_default(args).
RunResult run_cli(const std::vector<std::string>& args, const RunIo& io = {});

// Runs `/bin/sh -c script`, with "$@" = args (so paths need no quoting).
RunResult run_shell(const std::string& script, const std::vector<std::string>& args = {},
                    const RunIo& io = {});

// A printable summary of a run, for assertion messages.
std::string describe(const RunResult& r);

// ---------------------------------------------------------------------------
// Files

// A fresh directory for the running test: EXACTVQ_TEST_TMP/cli/<suite>.<test>/.
fs::path test_dir();

std::string read_file(const fs::path& p);
void write_file(const fs::path& p, const std::string& bytes);
std::set<std::string> list_dir(const fs::path& dir);

// ---------------------------------------------------------------------------
// Videos

using Frame = std::array<std::vector<uint16_t>, 3>;

VideoFormat make_format(int w, int h, ChromaFormat c = ChromaFormat::k420, int bitdepth = 8);

// A deterministic frame: `variant` 0 is a reference pattern; any other value adds a
// bounded pseudo-random distortion (different per variant) to it.
Frame make_frame(const VideoFormat& f, int index, int variant);
std::vector<Frame> make_frames(const VideoFormat& f, int count, int variant, int first_index = 0);

// The Y4M C tag for a format: 420jpeg, 422, 444, mono; 420p10, ... above 8 bits.
std::string c_tag(const VideoFormat& f);
std::string y4m_header(const VideoFormat& f);  // "YUV4MPEG2 W.. H.. F25:1 Ip A1:1 C..\n"
std::string frame_payload(const VideoFormat& f, const Frame& frame);  // planes, LE above 8 bits
std::string y4m_bytes(const VideoFormat& f, const std::vector<Frame>& frames);
std::string raw_bytes(const VideoFormat& f, const std::vector<Frame>& frames);

Picture to_picture(const VideoFormat& f, const Frame& frame);

// ---------------------------------------------------------------------------
// Reports

struct Report {
  std::vector<int64_t> frames;                                  // frameNum of each frame
  std::vector<std::string> names;                               // metric names, in order
  std::map<std::string, std::vector<double>> values;            // per frame; JSON null -> +inf
  std::map<std::string, std::map<std::string, double>> pooled;  // name -> min/max/mean/...
  std::vector<std::string> json_nulls;  // "<frame index>/<name>" of JSON nulls
};

// Parse a report; failures are reported as gtest failures and leave it partial.
Report parse_json(const std::string& text);
Report parse_xml(const std::string& text);
Report parse_csv(const std::string& text);

// Exact double parse of a decimal (strtod, C locale); fails the test on junk.
double parse_double(const std::string& s);

// The binary64 bits, for bit-exact comparisons.
uint64_t bits(double v);

}  // namespace exactvq::clitest
