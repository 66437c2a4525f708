// Helpers for the io tests: temporary files and error capture.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include "core/error.h"
#include "core/picture.h"

namespace exactvq::test {

inline std::filesystem::path io_tmp_dir() {
  std::filesystem::path dir = std::filesystem::path(EXACTVQ_TEST_TMP) / "io";
  std::filesystem::create_directories(dir);
  return dir;
}

inline VideoFormat fmt_of(int w, int h, ChromaFormat c, int b) { return VideoFormat{w, h, c, b}; }

// Writes `bytes` to a file named after the running test plus `suffix`; returns its path.
inline std::string write_tmp(const std::string& suffix, const std::string& bytes) {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  std::string stem = std::string(info->test_suite_name()) + "_" + info->name();
  for (char& c : stem)
    if (c == '/') c = '_';
  const std::filesystem::path p = io_tmp_dir() / (stem + suffix);
  std::ofstream out(p, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), std::streamsize(bytes.size()));
  out.close();
  EXPECT_TRUE(out.good()) << p;
  return p.string();
}

// The InputError message `f` throws, or "(no error)".
inline std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  } catch (const std::exception& e) {
    return std::string("(unexpected exception) ") + e.what();
  }
  return "(no error)";
}

// `n` bytes with values start, start+1, ... (wrapping).
inline std::string ramp(size_t n, unsigned start = 0) {
  std::string s(n, '\0');
  for (size_t i = 0; i < n; ++i) s[i] = char((start + i) & 0xff);
  return s;
}

// Little-endian 16-bit samples.
inline std::string le16(const std::vector<uint16_t>& v) {
  std::string s;
  for (uint16_t x : v) {
    s.push_back(char(x & 0xff));
    s.push_back(char(x >> 8));
  }
  return s;
}

}  // namespace exactvq::test
