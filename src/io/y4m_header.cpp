#include "io/y4m_header.h"

#include <fmt/format.h>

#include <climits>

#include "core/error.h"
#include "io/input_file.h"

namespace exactvq {

std::optional<uint64_t> parse_decimal(std::string_view s, uint64_t limit) {
  if (s.empty()) return std::nullopt;
  uint64_t v = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return std::nullopt;
    const auto d = uint64_t(c - '0');
    if (d > limit) return std::nullopt;
    if (v > (limit - d) / 10) return std::nullopt;  // v * 10 + d > limit
    v = v * 10 + d;
  }
  return v;
}

std::optional<Y4mChroma> parse_y4m_chroma(std::string_view value) {
  if (value == "420jpeg" || value == "420paldv" || value == "420mpeg2" || value == "420")
    return Y4mChroma{ChromaFormat::k420, 8};
  if (value == "422") return Y4mChroma{ChromaFormat::k422, 8};
  if (value == "444") return Y4mChroma{ChromaFormat::k444, 8};
  if (value == "mono") return Y4mChroma{ChromaFormat::kMono, 8};
  // High bit depths as FFmpeg writes them: 420p10, 422p12, 444p16, mono10, ...
  struct Prefix {
    std::string_view text;
    ChromaFormat chroma;
  };
  static constexpr Prefix kPrefixes[] = {{"420p", ChromaFormat::k420},
                                         {"422p", ChromaFormat::k422},
                                         {"444p", ChromaFormat::k444},
                                         {"mono", ChromaFormat::kMono}};
  for (const Prefix& p : kPrefixes) {
    if (value.size() <= p.text.size() || value.substr(0, p.text.size()) != p.text) continue;
    const std::string_view digits = value.substr(p.text.size());
    if (digits.size() > 2 || digits[0] == '0') return std::nullopt;
    const auto depth = parse_decimal(digits, 16);
    if (!depth || *depth < 9) return std::nullopt;
    return Y4mChroma{p.chroma, int(*depth)};
  }
  return std::nullopt;
}

namespace {

// "n:d" with both parts decimal (0:0 means unknown, as some writers put it).
bool is_ratio(std::string_view v) {
  const size_t colon = v.find(':');
  if (colon == std::string_view::npos) return false;
  return parse_decimal(v.substr(0, colon), UINT32_MAX) &&
         parse_decimal(v.substr(colon + 1), UINT32_MAX);
}

int parse_dimension(std::string_view token, size_t offset, const char* what,
                    const std::string& name) {
  const std::string_view v = token.substr(1);
  if (const auto n = parse_decimal(v, uint64_t(INT_MAX))) return int(*n);
  bool digits = !v.empty();
  for (char c : v) digits = digits && c >= '0' && c <= '9';
  if (digits)
    throw InputError(
        fmt::format("{}: Y4M header: {} in tag '{}' at byte {} is too large (at most {} per side)",
                    name, what, printable(token), offset, kMaxDimension));
  throw InputError(
      fmt::format("{}: Y4M header: {} in tag '{}' at byte {} is not a positive decimal number",
                  name, what, printable(token), offset));
}

}  // namespace

VideoFormat parse_y4m_header(std::string_view line, const std::string& name) {
  constexpr std::string_view kMagic = "YUV4MPEG2";
  if (line.substr(0, kMagic.size()) != kMagic ||
      (line.size() > kMagic.size() && line[kMagic.size()] != ' '))
    throw InputError(fmt::format("{}: not a Y4M file (no YUV4MPEG2 signature)", name));

  VideoFormat f;
  std::optional<int> width, height;
  Y4mChroma chroma{ChromaFormat::k420, 8};
  size_t pos = kMagic.size();
  while (pos < line.size()) {
    if (line[pos] == ' ') {
      ++pos;
      continue;
    }
    size_t end = line.find(' ', pos);
    if (end == std::string_view::npos) end = line.size();
    const std::string_view token = line.substr(pos, end - pos);
    const std::string_view value = token.substr(1);
    switch (token[0]) {
      case 'W':
        width = parse_dimension(token, pos, "width", name);
        break;
      case 'H':
        height = parse_dimension(token, pos, "height", name);
        break;
      case 'C': {
        const auto c = parse_y4m_chroma(value);
        if (!c)
          throw InputError(fmt::format(
              "{}: unsupported chroma tag '{}' at byte {} of the Y4M header (supported: "
              "420jpeg, 420paldv, 420mpeg2, 420, 422, 444, mono, 420p9..420p16, "
              "422p9..422p16, 444p9..444p16, mono9..mono16)",
              name, printable(value), pos));
        chroma = *c;
        break;
      }
      case 'F':
      case 'A':
        if (!is_ratio(value))
          throw InputError(fmt::format(
              "{}: Y4M header: malformed {} tag '{}' at byte {} (expected {}<num>:<den>)", name,
              token[0] == 'F' ? "frame rate" : "aspect ratio", printable(token), pos, token[0]));
        break;
      case 'I':
        if (value.size() != 1 || std::string_view("ptbm?").find(value[0]) == std::string_view::npos)
          throw InputError(fmt::format(
              "{}: Y4M header: malformed interlacing tag '{}' at byte {} (expected Ip, It, Ib, "
              "Im or I?)",
              name, printable(token), pos));
        break;
      case 'X':
        break;  // comment / extension: ignored
      default:
        throw InputError(fmt::format("{}: Y4M header: unknown tag '{}' at byte {}", name,
                                     printable(token), pos));
    }
    pos = end;
  }
  if (!width) throw InputError(fmt::format("{}: Y4M header has no width tag (W)", name));
  if (!height) throw InputError(fmt::format("{}: Y4M header has no height tag (H)", name));
  f.width = *width;
  f.height = *height;
  f.chroma = chroma.chroma;
  f.bitdepth = chroma.bitdepth;
  validate_format(f, name);
  return f;
}

}  // namespace exactvq
