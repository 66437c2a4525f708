// libvmaf's logging: one line on stderr per failure, as the context's log level
// allows ("libvmaf ERROR ...").
#pragma once

#include <string>

#include "libvmaf/libvmaf.h"

namespace exactvq::libvmaf_api {

// The level of lines written where no context is at hand (pictures, models):
// the last level a context was opened with, ERROR before any.
void set_process_log_level(VmafLogLevel level);

void log_line(VmafLogLevel level, const std::string& message);

}  // namespace exactvq::libvmaf_api
