// What ranks send each other, as arrays of 64-bit words (MPI_UINT64_T): doubles as
// their binary64 bits, so that rank 0 gets every value exactly, whatever MPI's
// conversions; strings as their length and bytes.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "cli/batch_run.h"
#include "mpi/range_score.h"

namespace exactvq::mpi {

std::vector<uint64_t> encode(const RankResult& r);
// Throws std::runtime_error on words that are not an encode()d result.
RankResult decode(const std::vector<uint64_t>& words);

// --batch: the list rank 0 read, and each rank's results with their places in it.
std::vector<uint64_t> encode_pairs(const std::vector<BatchPair>& pairs);
std::vector<BatchPair> decode_pairs(const std::vector<uint64_t>& words);
std::vector<uint64_t> encode_pair_results(
    const std::vector<std::pair<uint64_t, PairResult>>& results);
std::vector<std::pair<uint64_t, PairResult>> decode_pair_results(
    const std::vector<uint64_t>& words);

namespace wire {

class Writer {
 public:
  void word(uint64_t w) { words_.push_back(w); }
  void text(const std::string& s) {
    word(s.size());
    for (size_t i = 0; i < s.size(); i += 8) {
      uint64_t w = 0;
      std::memcpy(&w, s.data() + i, std::min<size_t>(8, s.size() - i));
      word(w);
    }
  }
  std::vector<uint64_t> take() { return std::move(words_); }

 private:
  std::vector<uint64_t> words_;
};

class Reader {
 public:
  explicit Reader(const std::vector<uint64_t>& words) : words_(words) {}
  uint64_t word() {
    if (at_ >= words_.size()) throw std::runtime_error("MPI message from a rank is cut short");
    return words_[at_++];
  }
  // A count of items of at least `words_each` words that the message can still hold.
  size_t count(size_t words_each) {
    const uint64_t n = word();
    if (words_each > 0 && n > (words_.size() - at_) / words_each)
      throw std::runtime_error("MPI message from a rank is cut short");
    return size_t(n);
  }
  std::string text() {
    const uint64_t n = word();
    if (n > (words_.size() - at_) * 8)
      throw std::runtime_error("MPI message from a rank is cut short");
    std::string s(size_t(n), '\0');
    for (size_t i = 0; i < s.size(); i += 8) {
      const uint64_t w = word();
      std::memcpy(s.data() + i, &w, std::min<size_t>(8, s.size() - i));
    }
    return s;
  }
  bool done() const { return at_ == words_.size(); }

 private:
  const std::vector<uint64_t>& words_;
  size_t at_ = 0;
};

}  // namespace wire
}  // namespace exactvq::mpi
