// Strict JSON reading for VMAF model files (and the tests' vector files):
// nlohmann-json's parser behind a SAX handler that keeps what its DOM would
// lose: the sign of "-0", each number's text as written, and duplicate keys
// (refused, where nlohmann keeps the last and libvmaf's streaming reader
// would act on both).
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace exactvq::vmaf {

struct JsonDocument {
  nlohmann::json root;
  // The text of every number, keyed by its JSON pointer ("/model_dict/slopes/0").
  std::map<std::string, std::string, std::less<>> number_text;
  // The keys of every object in the file's order (root's is ""), which the DOM
  // sorts: a model collection's models are read in file order, as libvmaf does.
  std::map<std::string, std::vector<std::string>, std::less<>> key_order;
};

// The deepest nesting read (the model format needs 4).
inline constexpr std::size_t kMaxJsonDepth = 64;

// Parses `text`; throws InputError "WHAT: not valid JSON: ..." (or a duplicate
// key, too deep a nesting, a number beyond binary64's range).
JsonDocument read_json_document(std::string_view text, const std::string& what);

// The JSON pointer of `key` inside the object at `parent` ("" is the root).
std::string json_pointer_child(const std::string& parent, std::string_view key);

}  // namespace exactvq::vmaf
