// The "name" or "name@N" grammar of the fault-injection variables
// (EXACTVQ_CUDA_FAULT, EXACTVQ_OPENCL_FAULT): one parser, so both backends
// accept and refuse exactly the same spellings; each backend decides which
// names it knows and whether they need an N.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace exactvq {

struct FaultSpec {
  std::string_view name;  // the text before '@' (all of it without one)
  bool numbered = false;  // an '@' was given
  int64_t n = 1;          // the number after '@'; 1 when there is none
};

// Splits `text` into name and number. Empty when the '@' is not followed by 1
// to 12 decimal digits (so N cannot overflow and "alloc@", "lost@-1",
// "launch@1x" are refused).
std::optional<FaultSpec> parse_fault_spec(std::string_view text);

}  // namespace exactvq
