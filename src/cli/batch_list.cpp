// --batch's list: CSV or JSON lines, read into pairs (batch_run.h).
#include <filesystem>
#include <fstream>
#include <map>
#include <utility>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cli/batch_run.h"
#include "cli/csv_fields.h"
#include "core/error.h"

namespace exactvq {

namespace fs = std::filesystem;

namespace {

bool ends_with(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

std::string resolve(const fs::path& folder, const std::string& p) {
  if (p.empty() || fs::path(p).is_absolute() || folder.empty()) return p;
  return (folder / p).string();
}

void check_paths(BatchPair& pair, const fs::path& folder, const std::string& where) {
  for (auto [value, name] : {std::pair{&pair.ref, "ref"}, std::pair{&pair.dist, "dist"},
                             std::pair{&pair.output, "output"}}) {
    if (value->empty()) throw InputError(fmt::format("{}: {} is empty", where, name));
    if (*value == "-")
      throw InputError(fmt::format(
          "{}: {} '-': standard input and output cannot be used in a batch", where, name));
    *value = resolve(folder, *value);
  }
}

}  // namespace

std::vector<std::string> split_arguments(const std::string& text) {
  std::vector<std::string> args;
  std::string word;
  bool in_word = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      if (in_word) args.push_back(std::exchange(word, {}));
      in_word = false;
      continue;
    }
    in_word = true;
    if (c == '\'') {
      const size_t close = text.find('\'', i + 1);
      if (close == std::string::npos)
        throw UsageError(fmt::format("options '{}': a single quote is not closed", text));
      word += text.substr(i + 1, close - i - 1);
      i = close;
    } else if (c == '"') {
      for (++i;; ++i) {
        if (i >= text.size())
          throw UsageError(fmt::format("options '{}': a double quote is not closed", text));
        if (text[i] == '"') break;
        if (text[i] == '\\' && i + 1 < text.size() &&
            std::string_view("\"\\$`").find(text[i + 1]) != std::string_view::npos)
          ++i;
        word += text[i];
      }
    } else if (c == '\\') {
      if (i + 1 >= text.size())
        throw UsageError(fmt::format("options '{}': a backslash ends the text", text));
      word += text[++i];
    } else {
      word += c;
    }
  }
  if (in_word) args.push_back(word);
  return args;
}

std::vector<BatchPair> read_batch_list(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(fmt::format("--batch {}: cannot open the list", path));
  const fs::path folder = fs::path(path).parent_path();
  std::vector<std::pair<int, std::string>> lines;  // meaningful lines and their numbers
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (number == 1 && line.rfind("\xEF\xBB\xBF", 0) == 0) line.erase(0, 3);  // a UTF-8 BOM
    const std::string t = trim(line);
    if (t.empty() || t[0] == '#') continue;
    lines.emplace_back(number, line);
  }
  if (in.bad()) throw InputError(fmt::format("--batch {}: read error", path));
  if (lines.empty()) throw InputError(fmt::format("{}: the list names no pairs", path));

  std::vector<BatchPair> pairs;
  const bool json = ends_with(path, ".jsonl") || ends_with(path, ".ndjson") ||
                    ends_with(path, ".json") || trim(lines[0].second)[0] == '{';
  if (json) {
    for (const auto& [number, text] : lines) {
      const std::string where = fmt::format("{}:{}", path, number);
      nlohmann::json object;
      try {
        object = nlohmann::json::parse(text);
      } catch (const nlohmann::json::exception& e) {
        throw InputError(fmt::format("{}: not valid JSON ({})", where, e.what()));
      }
      if (!object.is_object())
        throw InputError(fmt::format("{}: expected a JSON object with ref, dist, output", where));
      BatchPair pair;
      pair.line = number;
      for (const auto& [key, value] : object.items()) {
        if (key == "ref" || key == "dist" || key == "output") {
          if (!value.is_string())
            throw InputError(fmt::format("{}: \"{}\" must be a string", where, key));
          (key == "ref"    ? pair.ref
           : key == "dist" ? pair.dist
                           : pair.output) = value.get<std::string>();
        } else if (key == "options") {
          if (value.is_string()) {
            try {
              pair.options = split_arguments(value.get<std::string>());
            } catch (const UsageError& e) {
              throw InputError(fmt::format("{}: {}", where, e.what()));
            }
          } else if (value.is_array() && std::all_of(value.begin(), value.end(),
                                                     [](const auto& v) { return v.is_string(); })) {
            for (const auto& v : value) pair.options.push_back(v.get<std::string>());
          } else {
            throw InputError(
                fmt::format("{}: \"options\" must be a string or an array of strings", where));
          }
        } else {
          throw InputError(fmt::format("{}: unknown key \"{}\" (known: ref, dist, output, options)",
                                       where, key));
        }
      }
      for (auto [value, name] : {std::pair{&pair.ref, "ref"}, std::pair{&pair.dist, "dist"},
                                 std::pair{&pair.output, "output"}})
        if (!object.contains(name))
          throw InputError(fmt::format("{}: \"{}\" is missing", where, name));
      check_paths(pair, folder, where);
      pairs.push_back(std::move(pair));
    }
  } else {
    const std::string header_where = fmt::format("{}:{}", path, lines[0].first);
    const std::vector<std::string> header = csv_fields(lines[0].second, header_where);
    std::map<std::string, size_t> column;
    for (size_t i = 0; i < header.size(); ++i) {
      const std::string& name = header[i];
      if (name != "ref" && name != "dist" && name != "output" && name != "options")
        throw InputError(
            fmt::format("{}: unknown column '{}' in the header (expected "
                        "ref,dist,output[,options]; a JSON-lines "
                        "list starts with '{{')",
                        header_where, name));
      if (!column.emplace(name, i).second)
        throw InputError(
            fmt::format("{}: column '{}' appears twice in the header", header_where, name));
    }
    for (const char* name : {"ref", "dist", "output"})
      if (!column.count(name))
        throw InputError(
            fmt::format("{}: the header has no '{}' column (expected ref,dist,output[,options])",
                        header_where, name));
    if (lines.size() == 1) throw InputError(fmt::format("{}: the list names no pairs", path));
    for (size_t k = 1; k < lines.size(); ++k) {
      const auto& [number, text] = lines[k];
      const std::string where = fmt::format("{}:{}", path, number);
      const std::vector<std::string> fields = csv_fields(text, where);
      if (fields.size() != header.size())
        throw InputError(fmt::format("{}: {} field{} where the header has {}", where, fields.size(),
                                     fields.size() == 1 ? "" : "s", header.size()));
      BatchPair pair;
      pair.line = number;
      pair.ref = fields[column["ref"]];
      pair.dist = fields[column["dist"]];
      pair.output = fields[column["output"]];
      if (column.count("options")) {
        try {
          pair.options = split_arguments(fields[column["options"]]);
        } catch (const UsageError& e) {
          throw InputError(fmt::format("{}: {}", where, e.what()));
        }
      }
      check_paths(pair, folder, where);
      pairs.push_back(std::move(pair));
    }
  }
  std::map<std::string, int> outputs;
  for (const BatchPair& p : pairs) {
    const std::string key = fs::path(p.output).lexically_normal().string();
    if (auto [it, fresh] = outputs.emplace(key, p.line); !fresh)
      throw InputError(fmt::format("{}:{}: output {} is also the output of line {}", path, p.line,
                                   p.output, it->second));
  }
  return pairs;
}

}  // namespace exactvq
