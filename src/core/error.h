// Errors that reach the user: each carries a complete, specific message.
#pragma once

#include <stdexcept>
#include <string>

namespace exactvq {

// Anything wrong with what the user gave us: files, headers, samples, options.
class InputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Wrong command-line usage (unknown option, bad value); reported with a hint to --help.
class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Failure to write results (disk full, missing directory, permissions).
class OutputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A compute device that cannot be used: none present, out of device memory, a
// failed launch or kernel build. `--backend auto` falls back to the CPU on it.
class DeviceError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace exactvq
