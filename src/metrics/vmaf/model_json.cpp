#include "metrics/vmaf/model_json.h"

#include <cmath>
#include <vector>

#include <fmt/format.h>

#include "core/error.h"

namespace exactvq::vmaf {

namespace {

using json = nlohmann::json;

// nlohmann reads "-0" as the integer 0; as "-0.0" it stays a negative zero.
// Rewrites each number token "-0" outside strings.
std::string keep_negative_zero(std::string_view text) {
  std::string out;
  out.reserve(text.size() + 16);
  bool in_string = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    out.push_back(c);
    if (in_string) {
      if (c == '\\' && i + 1 < text.size())
        out.push_back(text[++i]);
      else if (c == '"')
        in_string = false;
      continue;
    }
    if (c == '"') {
      in_string = true;
    } else if (c == '-' && i + 1 < text.size() && text[i + 1] == '0' &&
               (i == 0 || (text[i - 1] != 'e' && text[i - 1] != 'E'))) {  // not an exponent's
      const char after = i + 2 < text.size() ? text[i + 2] : ' ';
      const bool more =
          (after >= '0' && after <= '9') || after == '.' || after == 'e' || after == 'E';
      if (!more) {
        out += "0.0";
        ++i;
      }
    }
  }
  return out;
}

class StrictDomBuilder final : public nlohmann::json_sax<json> {
 public:
  explicit StrictDomBuilder(JsonDocument& doc) : doc_(doc) {}

  const std::string& error() const { return error_; }

  bool null() override { return put(json(nullptr)) != nullptr; }
  bool boolean(bool v) override { return put(json(v)) != nullptr; }
  bool number_integer(number_integer_t v) override {
    return put_number(json(v), std::to_string(v));
  }
  bool number_unsigned(number_unsigned_t v) override {
    return put_number(json(v), std::to_string(v));
  }
  bool number_float(number_float_t v, const string_t& s) override {
    if (!std::isfinite(v)) return fail(fmt::format("number {} is beyond binary64's range", s));
    return put_number(json(v), s);
  }
  bool string(string_t& v) override { return put(json(std::move(v))) != nullptr; }
  bool binary(binary_t&) override { return fail("binary values are not JSON"); }
  bool start_object(std::size_t) override { return open(json::object()); }
  bool key(string_t& k) override {
    if (stack_.back()->contains(k))
      return fail(fmt::format("key \"{}\" given twice in {}", k,
                              paths_.back().empty() ? "/" : paths_.back()));
    doc_.key_order[paths_.back()].push_back(k);
    key_ = std::move(k);
    return true;
  }
  bool end_object() override { return close(); }
  bool start_array(std::size_t) override { return open(json::array()); }
  bool end_array() override { return close(); }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception& e) override {
    if (error_.empty()) error_ = e.what();
    return false;
  }

 private:
  bool fail(std::string message) {
    if (error_.empty()) error_ = std::move(message);
    return false;
  }
  // Places a value in the open container (or as the root); returns it.
  json* put(json&& value) {
    if (stack_.empty()) {
      doc_.root = std::move(value);
      last_path_.clear();
      return &doc_.root;
    }
    json& top = *stack_.back();
    if (top.is_array()) {
      last_path_ = paths_.back() + "/" + std::to_string(top.size());
      top.push_back(std::move(value));
      return &top.back();
    }
    last_path_ = json_pointer_child(paths_.back(), key_);
    return &(top[key_] = std::move(value));
  }
  bool put_number(json&& value, std::string text) {
    if (put(std::move(value)) == nullptr) return false;
    doc_.number_text[last_path_] = std::move(text);
    return true;
  }
  bool open(json&& container) {
    if (stack_.size() >= kMaxJsonDepth)
      return fail(fmt::format("nesting deeper than {} levels", kMaxJsonDepth));
    json* placed = put(std::move(container));
    stack_.push_back(placed);
    paths_.push_back(last_path_);
    return true;
  }
  bool close() {
    stack_.pop_back();
    paths_.pop_back();
    return true;
  }

  JsonDocument& doc_;
  std::vector<json*> stack_;        // the open containers, innermost last
  std::vector<std::string> paths_;  // their JSON pointers
  std::string key_;                 // the key of the next object member
  std::string last_path_;
  std::string error_;
};

}  // namespace

std::string json_pointer_child(const std::string& parent, std::string_view key) {
  std::string out = parent;
  out.push_back('/');
  for (const char c : key) {
    if (c == '~')
      out += "~0";
    else if (c == '/')
      out += "~1";
    else
      out.push_back(c);
  }
  return out;
}

JsonDocument read_json_document(std::string_view text, const std::string& what) {
  JsonDocument doc;
  const std::string rewritten = keep_negative_zero(text);
  StrictDomBuilder builder(doc);
  bool ok = false;
  try {
    ok = json::sax_parse(rewritten, &builder);
  } catch (const nlohmann::json::exception& e) {
    throw InputError(fmt::format("{}: not valid JSON: {}", what, e.what()));
  }
  if (!ok || !builder.error().empty())
    throw InputError(fmt::format("{}: not valid JSON: {}", what,
                                 builder.error().empty() ? "parse failed" : builder.error()));
  return doc;
}

}  // namespace exactvq::vmaf
