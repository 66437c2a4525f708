// Runs a shell command for a test and returns its standard output; a non-zero
// exit status fails the calling test (the output is still returned).
#pragma once

#include <cstdio>
#include <memory>
#include <string>

#include <gtest/gtest.h>

namespace exactvq::testing_commands {

inline std::string command_output(const std::string& cmd) {
  std::unique_ptr<FILE, int (*)(FILE*)> pipe(popen(cmd.c_str(), "r"), pclose);
  std::string out;
  if (!pipe) {
    ADD_FAILURE() << "cannot start: " << cmd;
    return out;
  }
  char buf[4096];
  size_t got;
  while ((got = fread(buf, 1, sizeof buf, pipe.get())) > 0) out.append(buf, got);
  const int status = pclose(pipe.release());
  EXPECT_EQ(status, 0) << cmd;
  return out;
}

}  // namespace exactvq::testing_commands
