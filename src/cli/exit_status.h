// The command lines' exit statuses: libvmaf 3.2.0's `vmaf` statuses for the same failures,
// so a script that tests them sees no difference (README, "Usage").
#pragma once

#include <exception>

#include "core/error.h"

namespace exactvq {

inline constexpr int kExitOk = 0;
// Its command-line parser's usage(): a malformed or missing option, a bad preset version.
inline constexpr int kExitUsage = 1;
// Its flush's -EINVAL (256 - 22): input it read as far as its scoring, which then failed.
inline constexpr int kExitPicture = 234;
// Its main's -1: anything else (an input that cannot be opened or does not match, an unknown
// model or feature, an option value a feature refuses, an output that cannot be written),
// and what exactvq refuses where libvmaf exits 0 (inputs of different lengths).
inline constexpr int kExitFailure = 255;

// Where a run was when it failed: the same UsageError (a bad feature option, say) is caught
// by libvmaf's parser only while the command line is read.
enum class FailedWhile { kParsing, kRunning };

// The status for what `e` holds.
inline int exit_status_of(std::exception_ptr e, FailedWhile stage) {
  try {
    std::rethrow_exception(e);
  } catch (const PictureError& p) {
    return p.libvmaf_status() != 0 ? p.libvmaf_status() : kExitPicture;
  } catch (const SetupError&) {
    return kExitFailure;
  } catch (const UsageError&) {
    return stage == FailedWhile::kParsing ? kExitUsage : kExitFailure;
  } catch (...) {
    return kExitFailure;
  }
}

}  // namespace exactvq
