// CSV fields on one line as --batch reads its list and writes its summary (RFC 4180
// quoting, no line breaks inside quotes).
#pragma once

#include <string>
#include <vector>

namespace exactvq {

// `s` without the blanks (spaces, tabs) at either end.
std::string trim(const std::string& s);

// One CSV record on one line (RFC 4180 quoting, no line breaks inside quotes);
// unquoted fields lose their surrounding blanks. Throws InputError "WHERE: ..." on a
// quote out of place.
std::vector<std::string> csv_fields(const std::string& line, const std::string& where);

// `s` as one field that csv_fields reads back unchanged.
std::string csv_quote(const std::string& s);

}  // namespace exactvq
