// How every score is printed: printf's "%.Nf", or the shortest round-trip decimal.
#include <array>
#include <charconv>
#include <cmath>
#include <stdexcept>
#include <string>
#include <system_error>

#include "output/report.h"

namespace exactvq {

// std::to_chars is locale-independent and specified to match printf in the "C" locale:
// with a precision it prints exactly what printf("%.*f") prints (exact decimal value of
// the binary64, rounded to nearest, ties to even; -0.0 gives "-0.000000"); without one
// it prints the shortest decimal that reads back to the same binary64, choosing plain or
// exponent form (e.g. "1e-05", "1.5e+300"), whichever is shorter. Both forms are valid
// numbers in JSON, XML attributes and CSV, and strtod reads them back.
//
// Negative zero prints as "-0.0" in the shortest form rather than to_chars' "-0": JSON
// readers that keep integers apart (nlohmann::json, Python's json) read "-0" as the
// integer 0 and lose the sign, while "-0.0" is a float everywhere.
//
// Non-finite values print as "inf", "-inf" and "nan" (never "-nan"), which strtod also
// reads; the JSON writer prints null instead and never calls this for them.
//
// decimals must be in 0..17 (the CLI validates the option); anything else is a
// programming error and throws std::invalid_argument.
std::string format_number(double v, const NumberFormat& nf) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v < 0 ? "-inf" : "inf";
  if (!nf.shortest && (nf.decimals < 0 || nf.decimals > 17))
    throw std::invalid_argument("format_number: decimals must be in 0..17, got " +
                                std::to_string(nf.decimals));
  if (nf.shortest && v == 0.0 && std::signbit(v)) return "-0.0";
  // Largest fixed output: "-" + 309 integer digits + "." + 17 decimals.
  std::array<char, 400> buf;
  const std::to_chars_result r = nf.shortest ? std::to_chars(buf.data(), buf.data() + buf.size(), v)
                                             : std::to_chars(buf.data(), buf.data() + buf.size(), v,
                                                             std::chars_format::fixed, nf.decimals);
  if (r.ec != std::errc{}) throw std::logic_error("format_number: buffer too small");
  return std::string(buf.data(), r.ptr);
}

}  // namespace exactvq
