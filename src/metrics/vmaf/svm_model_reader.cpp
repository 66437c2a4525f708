// libsvm's model text, strictly: a header of "key value..." lines up to a line
// "SV", then one line per support vector, "coef index:value ...". Numbers are
// read correctly rounded (std::from_chars), as libsvm's istream reading of
// glibc's strtod gives them.
#include <charconv>
#include <cmath>
#include <set>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include <fmt/format.h>

#include "core/error.h"
#include "metrics/vmaf/svm_model.h"

namespace exactvq::vmaf {

namespace {

class SvmTextError {
 public:
  SvmTextError(const std::string& source, const std::string& field)
      : source_(source), field_(field) {}
  [[noreturn]] void fail(std::size_t line, const std::string& what) const {
    throw InputError(
        fmt::format("model {}: field '{}': libsvm text line {}: {}", source_, field_, line, what));
  }
  [[noreturn]] void fail(const std::string& what) const {
    throw InputError(fmt::format("model {}: field '{}': libsvm text: {}", source_, field_, what));
  }

 private:
  const std::string& source_;
  const std::string& field_;
};

bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r'; }

std::vector<std::string_view> split_tokens(std::string_view line) {
  std::vector<std::string_view> tokens;
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && is_blank(line[i])) ++i;
    const std::size_t start = i;
    while (i < line.size() && !is_blank(line[i])) ++i;
    if (i > start) tokens.push_back(line.substr(start, i - start));
  }
  return tokens;
}

std::vector<std::string_view> split_lines(std::string_view text) {
  std::vector<std::string_view> lines;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) {
      lines.push_back(text.substr(start));
      break;
    }
    lines.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return lines;
}

// A finite decimal number making up the whole token (one leading '+' allowed).
bool parse_finite(std::string_view token, double& out) {
  if (!token.empty() && token[0] == '+') {
    token.remove_prefix(1);
    if (!token.empty() && token[0] == '-') return false;
  }
  if (token.empty()) return false;
  const auto [end, ec] = std::from_chars(token.data(), token.data() + token.size(), out);
  return ec == std::errc() && end == token.data() + token.size() && std::isfinite(out);
}

bool parse_int(std::string_view token, long long lo, long long hi, long long& out) {
  if (!token.empty() && token[0] == '+') {
    token.remove_prefix(1);
    if (!token.empty() && token[0] == '-') return false;
  }
  if (token.empty()) return false;
  const auto [end, ec] = std::from_chars(token.data(), token.data() + token.size(), out);
  return ec == std::errc() && end == token.data() + token.size() && out >= lo && out <= hi;
}

}  // namespace

SvmModel parse_svm_model(std::string_view text, const std::string& source,
                         const std::string& field) {
  const SvmTextError error(source, field);
  const std::vector<std::string_view> lines = split_lines(text);
  SvmModel model;
  std::set<std::string, std::less<>> seen;
  long long nr_class = 0;
  long long total_sv = -1;
  bool have_gamma = false;

  std::size_t at = 0;
  bool found_sv = false;
  for (; at < lines.size(); ++at) {
    const std::size_t line_no = at + 1;
    const std::vector<std::string_view> tokens = split_tokens(lines[at]);
    if (tokens.empty()) continue;
    const std::string key(tokens[0]);
    if (key == "SV") {
      if (tokens.size() != 1) error.fail(line_no, "text after \"SV\"");
      found_sv = true;
      ++at;
      break;
    }
    if (!seen.insert(key).second) error.fail(line_no, fmt::format("'{}' given twice", key));
    const std::size_t n_values = tokens.size() - 1;
    auto one_value = [&]() {
      if (n_values != 1) error.fail(line_no, fmt::format("'{}' needs one value", key));
      return tokens[1];
    };
    if (key == "svm_type") {
      const std::string_view v = one_value();
      if (v == "nu_svr")
        model.type = SvmType::kNuSvr;
      else if (v == "epsilon_svr")
        model.type = SvmType::kEpsilonSvr;
      else if (v == "c_svc" || v == "nu_svc" || v == "one_class")
        error.fail(line_no, fmt::format("svm_type {} is not a regression (known: nu_svr, "
                                        "epsilon_svr)",
                                        v));
      else
        error.fail(line_no, fmt::format("unknown svm_type '{}' (known: nu_svr, epsilon_svr)", v));
    } else if (key == "kernel_type") {
      const std::string_view v = one_value();
      if (v == "rbf")
        model.kernel = SvmKernel::kRbf;
      else if (v == "linear" || v == "polynomial" || v == "sigmoid" || v == "precomputed")
        error.fail(line_no,
                   fmt::format("kernel_type {} is not supported (VMAF models use rbf)", v));
      else
        error.fail(line_no, fmt::format("unknown kernel_type '{}' (known: rbf)", v));
    } else if (key == "gamma") {
      if (!parse_finite(one_value(), model.gamma))
        error.fail(line_no, "gamma is not a finite number");
      have_gamma = true;
    } else if (key == "coef0") {
      double ignored;
      if (!parse_finite(one_value(), ignored)) error.fail(line_no, "coef0 is not a finite number");
    } else if (key == "degree") {
      long long ignored;
      if (!parse_int(one_value(), -2147483647LL - 1, 2147483647LL, ignored))
        error.fail(line_no, "degree is not an integer");
    } else if (key == "nr_class") {
      if (!parse_int(one_value(), 2, 2, nr_class))
        error.fail(line_no, "nr_class must be 2 for a regression");
    } else if (key == "total_sv") {
      if (!parse_int(one_value(), 0, static_cast<long long>(kMaxSupportVectors), total_sv))
        error.fail(line_no,
                   fmt::format("total_sv must be an integer in 0..{}", kMaxSupportVectors));
    } else if (key == "rho") {
      if (!parse_finite(one_value(), model.rho)) error.fail(line_no, "rho is not a finite number");
    } else if (key == "probA" || key == "probB") {
      double ignored;
      if (!parse_finite(one_value(), ignored))
        error.fail(line_no, fmt::format("{} is not a finite number", key));
    } else if (key == "label" || key == "nr_sv") {
      if (n_values != 2) error.fail(line_no, fmt::format("'{}' needs nr_class (2) values", key));
      for (std::size_t i = 1; i < tokens.size(); ++i) {
        long long ignored;
        if (!parse_int(tokens[i], -2147483647LL - 1, 2147483647LL, ignored))
          error.fail(line_no, fmt::format("{} is not a list of integers", key));
      }
    } else {
      error.fail(line_no, fmt::format("unknown header key '{}'", key));
    }
  }
  if (!found_sv) error.fail("no \"SV\" line");
  for (const char* required : {"svm_type", "kernel_type", "nr_class", "total_sv", "rho"})
    if (!seen.count(required)) error.fail(fmt::format("header lacks '{}'", required));
  if (!have_gamma) error.fail("header lacks 'gamma' (needed by the rbf kernel)");

  model.support_vectors.reserve(static_cast<std::size_t>(total_sv));
  for (long long k = 0; k < total_sv; ++k, ++at) {
    const std::vector<std::string_view> tokens =
        at < lines.size() ? split_tokens(lines[at]) : std::vector<std::string_view>{};
    if (tokens.empty())
      error.fail(fmt::format("total_sv is {} but only {} support vectors follow", total_sv, k));
    const std::size_t line_no = at + 1;
    SupportVector sv;
    if (!parse_finite(tokens[0], sv.coefficient))
      error.fail(line_no, "the coefficient is not a finite number");
    int last_index = 0;
    for (std::size_t i = 1; i < tokens.size(); ++i) {
      const std::string_view t = tokens[i];
      const std::size_t colon = t.find(':');
      long long index = 0;
      SvmNode node;
      if (colon == std::string_view::npos ||
          !parse_int(t.substr(0, colon), 1, kMaxSvmIndex, index) ||
          !parse_finite(t.substr(colon + 1), node.value))
        error.fail(line_no, fmt::format("'{}' is not index:value (index 1..{}, a finite value)", t,
                                        kMaxSvmIndex));
      node.index = static_cast<int>(index);
      if (node.index <= last_index) error.fail(line_no, "indices are not ascending");
      last_index = node.index;
      sv.nodes.push_back(node);
    }
    model.support_vectors.push_back(std::move(sv));
  }
  for (; at < lines.size(); ++at)
    if (!split_tokens(lines[at]).empty())
      error.fail(at + 1, fmt::format("text after the {} support vectors of total_sv", total_sv));
  return model;
}

}  // namespace exactvq::vmaf
