// Errors only the C API raises; each maps to its own exactvq_status.
#pragma once

#include <stdexcept>

namespace exactvq::capi {

// A null pointer, an unknown enum value or a bad count from the caller.
class ArgumentError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A call out of order: a frame after flush, files after frames, a feature not requested.
class StateError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A frame position past the frames scored.
class RangeError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace exactvq::capi
