// Parsing of the YUV4MPEG2 stream header, kept apart from I/O so it can be tested
// and fuzzed on plain strings.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "core/picture.h"

namespace exactvq {

inline constexpr std::string_view kY4mSignature = "YUV4MPEG2 ";
// Longest stream header or FRAME line we read before giving up.
inline constexpr size_t kY4mMaxLine = 4096;

struct Y4mChroma {
  ChromaFormat chroma;
  int bitdepth;
};

// The value of a C tag ("420jpeg", "422p10", "mono16", ...); nullopt when unsupported.
std::optional<Y4mChroma> parse_y4m_chroma(std::string_view value);

// Digits only, no sign, no leading space; nullopt when empty, not decimal or above `limit`.
std::optional<uint64_t> parse_decimal(std::string_view s, uint64_t limit);

// Parses a stream header line without its '\n' (it starts with "YUV4MPEG2") and
// returns a validated format. Throws InputError naming `name` for a missing or bad
// W/H, an unknown tag, an unsupported chroma tag or a malformed F/A/I value.
VideoFormat parse_y4m_header(std::string_view line, const std::string& name);

}  // namespace exactvq
