// Runs tests/libvmaf_api/vmaf_api_score.c's program with exactvq's or upstream's
// libvmaf.so.3 and reads what it prints.
#pragma once

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>
#include <string>

#include "command_output.h"

namespace exactvq::libvmaf_test {

namespace fs = std::filesystem;

inline fs::path shared_dir() { return EXACTVQ_SHARED_DIR; }

// A folder holding libvmaf.so.3 -> upstream's library (the shared folder's own
// link may be stored as a plain file); empty when upstream's library is absent.
inline std::string upstream_library_dir() {
  if (!fs::exists(UPSTREAM_LIBVMAF)) return "";
  const fs::path dir = fs::path(EXACTVQ_TEST_TMP) / "upstream_libvmaf";
  fs::create_directories(dir);
  const fs::path link = dir / "libvmaf.so.3";
  std::error_code ec;
  fs::remove(link, ec);
  fs::create_symlink(UPSTREAM_LIBVMAF, link);
  return dir.string();
}

// "frame I KEY" / "pooled KEY METHOD" -> value, as the program printed them.
using Values = std::map<std::string, double>;

// cpumask: VmafConfiguration.cpumask (kPlainC: upstream's plain C; exactvq ignores it).
constexpr const char* kPlainC = "0xffffffff";
constexpr const char* kDefaultDispatch = "0";

// `env`: more of the program's environment ("LIBVMAF_API_SCORE_COLLECTION=... ").
inline Values run_scores(const std::string& library_dir, const fs::path& ref, const fs::path& dist,
                         int threads, const char* cpumask = kDefaultDispatch,
                         const std::string& output_prefix = "", const std::string& env = "") {
  // The chosen library's folder first; the caller's path after it (the other libraries a
  // relocated build finds there).
  std::string cmd = env + " LD_LIBRARY_PATH='" + library_dir +
                    "'${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} '" + LIBVMAF_API_SCORE + "' '" +
                    ref.string() + "' '" + dist.string() + "' " + std::to_string(threads) + " " +
                    cpumask;
  if (!output_prefix.empty()) cmd += " '" + output_prefix + "'";
  std::istringstream in(testing_commands::command_output(cmd));
  Values values;
  std::string kind, a, b, number;
  while (in >> kind >> a >> b >> number)
    values[kind + " " + a + " " + b] = std::strtod(number.c_str(), nullptr);
  return values;
}

inline std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// The version: exactvq's (as its command line writes it) against libvmaf's.
inline std::string without_version(const std::string& text) {
  static const std::regex xml_version(R"(<VMAF version="[^"]*">)"),
      json_version(R"("version": "[^"]*",)");
  return std::regex_replace(std::regex_replace(text, xml_version, "<VMAF version=\"\">"),
                            json_version, "\"version\": \"\",");
}

// The fps is measured, so it differs between any two runs.
inline std::string without_fps(const std::string& text) {
  static const std::regex xml_fps(R"(<fyi fps="[^"]*" />)"), json_fps(R"("fps": [^,]*,)");
  return std::regex_replace(std::regex_replace(text, xml_fps, "<fyi fps=\"\" />"), json_fps,
                            "\"fps\": ,");
}

}  // namespace exactvq::libvmaf_test
