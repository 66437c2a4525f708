#include "cli/csv_fields.h"

#include <fmt/format.h>

#include "core/error.h"

namespace exactvq {

std::string trim(const std::string& s) {
  const size_t a = s.find_first_not_of(" \t");
  if (a == std::string::npos) return "";
  const size_t b = s.find_last_not_of(" \t");
  return s.substr(a, b - a + 1);
}

std::vector<std::string> csv_fields(const std::string& line, const std::string& where) {
  std::vector<std::string> fields;
  size_t i = 0;
  for (;;) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
    std::string field;
    if (i < line.size() && line[i] == '"') {
      ++i;
      for (;;) {
        if (i >= line.size())
          throw InputError(fmt::format("{}: a quoted field is not closed on its line", where));
        if (line[i] == '"') {
          if (i + 1 < line.size() && line[i + 1] == '"') {
            field += '"';
            i += 2;
            continue;
          }
          ++i;
          break;
        }
        field += line[i++];
      }
      while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
      if (i < line.size() && line[i] != ',')
        throw InputError(fmt::format("{}: text after a closing quote (column {})", where, i + 1));
    } else {
      const size_t comma = line.find(',', i);
      field = trim(line.substr(i, comma == std::string::npos ? std::string::npos : comma - i));
      if (field.find('"') != std::string::npos)
        throw InputError(
            fmt::format("{}: a quote inside an unquoted field (quote the whole field, "
                        "doubling quotes inside it)",
                        where));
      i = comma == std::string::npos ? line.size() : comma;
    }
    fields.push_back(field);
    if (i >= line.size()) return fields;
    ++i;  // the comma
  }
}

std::string csv_quote(const std::string& s) {
  if (s.find_first_of(",\"\n\r") == std::string::npos && trim(s) == s) return s;
  std::string q = "\"";
  for (char c : s) {
    if (c == '"') q += '"';
    q += c;
  }
  return q + "\"";
}

}  // namespace exactvq
