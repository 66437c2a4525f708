#include "libvmaf_api/log.h"

#include <atomic>
#include <cstdio>

namespace exactvq::libvmaf_api {

namespace {

std::atomic<int> process_level{VMAF_LOG_LEVEL_ERROR};

const char* level_name(VmafLogLevel level) {
  switch (level) {
    case VMAF_LOG_LEVEL_ERROR:
      return "ERROR";
    case VMAF_LOG_LEVEL_WARNING:
      return "WARNING";
    case VMAF_LOG_LEVEL_INFO:
      return "INFO";
    case VMAF_LOG_LEVEL_DEBUG:
      return "DEBUG";
    case VMAF_LOG_LEVEL_NONE:
      break;
  }
  return "";
}

}  // namespace

void set_process_log_level(VmafLogLevel level) { process_level = int(level); }

void log_line(VmafLogLevel level, const std::string& message) {
  if (level == VMAF_LOG_LEVEL_NONE || int(level) > process_level.load()) return;
  std::fprintf(stderr, "libvmaf %s %s\n", level_name(level), message.c_str());
}

}  // namespace exactvq::libvmaf_api
