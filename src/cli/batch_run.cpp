#include "cli/batch_run.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <new>
#include <ostream>
#include <thread>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cli/cli_options.h"
#include "core/error.h"
#include "output/svg_plot.h"

namespace exactvq {

namespace fs = std::filesystem;

namespace {

std::string trim(const std::string& s) {
  const size_t a = s.find_first_not_of(" \t");
  if (a == std::string::npos) return "";
  const size_t b = s.find_last_not_of(" \t");
  return s.substr(a, b - a + 1);
}

bool ends_with(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

// One CSV record on one line (RFC 4180 quoting, no line breaks inside quotes);
// unquoted fields lose their surrounding blanks.
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
        throw InputError(fmt::format("{}: a quote inside an unquoted field (quote the whole field, "
                                     "doubling quotes inside it)", where));
      i = comma == std::string::npos ? line.size() : comma;
    }
    fields.push_back(field);
    if (i >= line.size()) return fields;
    ++i;  // the comma
  }
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
      throw InputError(fmt::format("{}: {} '-': standard input and output cannot be used in a batch",
                                   where, name));
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
          (key == "ref" ? pair.ref : key == "dist" ? pair.dist : pair.output) = value.get<std::string>();
        } else if (key == "options") {
          if (value.is_string()) {
            try {
              pair.options = split_arguments(value.get<std::string>());
            } catch (const UsageError& e) {
              throw InputError(fmt::format("{}: {}", where, e.what()));
            }
          } else if (value.is_array() &&
                     std::all_of(value.begin(), value.end(), [](const auto& v) { return v.is_string(); })) {
            for (const auto& v : value) pair.options.push_back(v.get<std::string>());
          } else {
            throw InputError(fmt::format("{}: \"options\" must be a string or an array of strings", where));
          }
        } else {
          throw InputError(fmt::format("{}: unknown key \"{}\" (known: ref, dist, output, options)",
                                       where, key));
        }
      }
      for (auto [value, name] : {std::pair{&pair.ref, "ref"}, std::pair{&pair.dist, "dist"},
                                 std::pair{&pair.output, "output"}})
        if (!object.contains(name)) throw InputError(fmt::format("{}: \"{}\" is missing", where, name));
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
        throw InputError(fmt::format(
            "{}: unknown column '{}' in the header (expected ref,dist,output[,options]; a JSON-lines "
            "list starts with '{{')", header_where, name));
      if (!column.emplace(name, i).second)
        throw InputError(fmt::format("{}: column '{}' appears twice in the header", header_where, name));
    }
    for (const char* name : {"ref", "dist", "output"})
      if (!column.count(name))
        throw InputError(fmt::format("{}: the header has no '{}' column (expected ref,dist,output[,options])",
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

int default_batch_jobs(size_t pairs) {
  const int cores = std::max(1, int(std::thread::hardware_concurrency()));
  const int jobs = std::clamp(cores / 2, 2, 8);
  return std::max(1, std::min(jobs, int(std::min<size_t>(pairs, 1024))));
}

namespace {

OutputFormat format_of(const std::string& output, OutputFormat fallback) {
  std::string ext = fs::path(output).extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return char(std::tolower(c)); });
  if (ext == ".json") return OutputFormat::kJson;
  if (ext == ".csv") return OutputFormat::kCsv;
  if (ext == ".xml") return OutputFormat::kXml;
  return fallback;
}

void score_pair(const BatchOptions& o, int jobs, PairResult& r) {
  const BatchPair& pair = r.pair;
  std::vector<std::string> args = o.shared_args;
  for (const char* a : {"-r", pair.ref.c_str(), "-d", pair.dist.c_str(), "-o", pair.output.c_str()})
    args.emplace_back(a);
  args.insert(args.end(), pair.options.begin(), pair.options.end());
  CliOptions c = parse_command_line(args);
  if (c.batch_path) throw UsageError("--batch cannot be one of a pair's options");
  if (c.show_help || c.show_version) throw UsageError("--help and --version cannot be a pair's options");
  if (c.plot_path == "-") throw UsageError("--plot -: standard output cannot be used in a batch");
  if (!c.output_format_given) c.output_format = format_of(pair.output, c.output_format);
  if (!c.threads_given) {
    const int cores = std::max(1, int(std::thread::hardware_concurrency()));
    c.run.threads = std::max(1, cores / jobs);
  }
  c.run.warn = [&r](const std::string& line) { r.warnings.push_back(line); };
  c.run.device.notice = o.notice;
  c.run.progress = nullptr;
  check_output_path(pair.output, {pair.ref, pair.dist});
  if (c.plot_path) check_output_path(*c.plot_path, {pair.ref, pair.dist});
  load_run_models(c);
  const ScoreReport report = score_videos(c.run);
  write_file_atomically(pair.output, [&](std::ostream& out) {
    write_report(out, report, c.output_format, c.number_format);
  });
  if (c.plot_path) {
    const std::string title = fmt::format("{} against {}", pair.dist, pair.ref);
    write_file_atomically(*c.plot_path, [&](std::ostream& out) { write_svg_plot(out, report, title); });
  }
  r.frames = int64_t(report.frame_numbers.size());
  for (const auto& f : report.features) r.pooled_means.emplace_back(f.name, pool(f.values).mean);
  r.ok = true;
}

}  // namespace

std::vector<PairResult> run_batch(const std::vector<BatchPair>& pairs, const BatchOptions& o) {
  std::vector<PairResult> results(pairs.size());
  for (size_t i = 0; i < pairs.size(); ++i) results[i].pair = pairs[i];
  const int jobs = o.jobs > 0 ? std::min<int>(o.jobs, int(std::max<size_t>(1, pairs.size())))
                              : default_batch_jobs(pairs.size());
  std::atomic<size_t> next{0};
  std::mutex done_mutex;
  auto work = [&] {
    for (size_t i; (i = next.fetch_add(1)) < pairs.size();) {
      PairResult& r = results[i];
      try {
        score_pair(o, jobs, r);
      } catch (const UsageError& e) {
        r.error = fmt::format("bad options: {}", e.what());
      } catch (const std::bad_alloc&) {
        r.error = "out of memory";
      } catch (const std::exception& e) {
        r.error = e.what();
      }
      if (!r.ok && r.error.empty()) r.error = "failed";
      if (o.on_done) {
        std::lock_guard lock(done_mutex);
        o.on_done(r);
      }
    }
  };
  std::vector<std::thread> threads;
  for (int j = 1; j < jobs; ++j) threads.emplace_back(work);
  work();
  for (auto& t : threads) t.join();
  return results;
}

namespace {

std::string csv_quote(const std::string& s) {
  if (s.find_first_of(",\"\n\r") == std::string::npos && trim(s) == s) return s;
  std::string q = "\"";
  for (char c : s) {
    if (c == '"') q += '"';
    q += c;
  }
  return q + "\"";
}

std::string json_string(const std::string& s) {
  return nlohmann::json(s).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::string json_number(double v, const NumberFormat& nf) {
  return std::isfinite(v) ? format_number(v, nf) : "null";
}

}  // namespace

void write_batch_summary(std::ostream& out, const std::vector<PairResult>& results, bool json,
                         const NumberFormat& nf) {
  if (!json) {
    out << "line,ref,dist,output,status,frames,ssim,error\n";
    for (const PairResult& r : results) {
      std::string ssim;
      for (const auto& [name, mean] : r.pooled_means)
        if (name == "ssim") ssim = format_number(mean, nf);
      out << r.pair.line << ',' << csv_quote(r.pair.ref) << ',' << csv_quote(r.pair.dist) << ','
          << csv_quote(r.pair.output) << ',' << (r.ok ? "ok" : "failed") << ','
          << (r.ok ? std::to_string(r.frames) : "") << ',' << ssim << ',' << csv_quote(r.error)
          << '\n';
    }
    return;
  }
  size_t failed = 0;
  out << "{\n  \"pairs\": [";
  for (size_t i = 0; i < results.size(); ++i) {
    const PairResult& r = results[i];
    failed += r.ok ? 0 : 1;
    out << (i ? ",\n" : "\n") << "    {\"line\": " << r.pair.line
        << ", \"ref\": " << json_string(r.pair.ref)
        << ", \"dist\": " << json_string(r.pair.dist)
        << ", \"output\": " << json_string(r.pair.output)
        << ", \"status\": \"" << (r.ok ? "ok" : "failed") << "\"";
    if (r.ok) {
      out << ", \"frames\": " << r.frames << ", \"pooled_mean\": {";
      for (size_t k = 0; k < r.pooled_means.size(); ++k)
        out << (k ? ", " : "") << json_string(r.pooled_means[k].first) << ": "
            << json_number(r.pooled_means[k].second, nf);
      out << "}";
    } else {
      out << ", \"error\": " << json_string(r.error);
    }
    out << "}";
  }
  out << (results.empty() ? "],\n" : "\n  ],\n") << "  \"scored\": " << results.size() - failed
      << ",\n  \"failed\": " << failed << "\n}\n";
}

}  // namespace exactvq
