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

// A device that has no engine for a feature ("feature F is not available on D"):
// a run that asks for several such features names them all in one error
// (FeatureSet).
class NoEngineError : public DeviceError {
 public:
  NoEngineError(const std::string& feature, const std::string& device)
      : DeviceError("feature " + feature + " is not available on " + device),
        feature_(feature),
        device_(device) {}
  const std::string& feature() const { return feature_; }
  const std::string& device() const { return device_; }

 private:
  std::string feature_, device_;
};

}  // namespace exactvq
