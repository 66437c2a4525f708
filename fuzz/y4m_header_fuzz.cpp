// The Y4M stream header parser on any line: it either throws InputError or returns
// a format we can hold (validate_format accepts it, the frame size fits its limits).
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "core/error.h"
#include "fuzz_check.h"
#include "io/y4m_header.h"

using namespace exactvq;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view line(reinterpret_cast<const char*>(data), size);
  try {
    const VideoFormat f = parse_y4m_header(line, "fuzz.y4m");
    validate_format(f, "fuzz.y4m");  // must not throw for a format the parser returned
    FUZZ_CHECK(f.width >= 1 && f.height >= 1 && f.width <= kMaxDimension &&
               f.height <= kMaxDimension);
    FUZZ_CHECK(int64_t{f.width} * f.height <= kMaxLumaSamples);
    FUZZ_CHECK(f.bitdepth >= 8 && f.bitdepth <= 16);
    FUZZ_CHECK(f.frame_bytes() > 0 && f.frame_bytes() <= size_t{6} * size_t(kMaxLumaSamples));
  } catch (const InputError&) {}
  // The helpers on their own, on the same bytes.
  const auto chroma = parse_y4m_chroma(line);
  if (chroma) FUZZ_CHECK(chroma->bitdepth >= 8 && chroma->bitdepth <= 16);
  const auto n = parse_decimal(line, 1000000);
  if (n) FUZZ_CHECK(*n <= 1000000 && !line.empty());
  return 0;
}
