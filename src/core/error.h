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

// Input that cannot be scored picture by picture: a frame cut short or misframed, no
// frame at all, pictures a feature cannot take (size, bit depth). libvmaf's `vmaf` reads
// such input as far as its scoring and fails there, so the command line gives these
// libvmaf's status for that failure (cli/exit_status.h).
class PictureError : public InputError {
 public:
  // `libvmaf_status`: the status libvmaf's `vmaf` exits with for this input where its
  // feature extractor fails with a code of its own (float_ms_ssim's 1); 0 for the usual.
  explicit PictureError(const std::string& what, int libvmaf_status = 0)
      : InputError(what), libvmaf_status_(libvmaf_status) {}
  int libvmaf_status() const { return libvmaf_status_; }

 private:
  int libvmaf_status_;
};

// Wrong command-line usage (unknown option, bad value); reported with a hint to --help.
class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A well-formed option that names nothing this run can use: an unknown feature or
// built-in model. libvmaf's `vmaf` finds these when it sets the run up, not when it
// parses its command line, and the command line's exit status follows it.
class SetupError : public UsageError {
 public:
  using UsageError::UsageError;
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
