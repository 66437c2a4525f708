#include "mpi/wire.h"

#include <bit>
#include <cstring>
#include <stdexcept>
#include <string>

namespace exactvq::mpi {

namespace {

constexpr uint64_t kMagic = 0x6578767172616e6bULL;  // "exvqrank"

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
  // A count of items of `words_each` words that the message can still hold.
  size_t count(size_t words_each) {
    const uint64_t n = word();
    if (words_each > 0 && n > (words_.size() - at_) / words_each)
      throw std::runtime_error("MPI message from a rank is cut short");
    return size_t(n);
  }
  std::string text() {
    const uint64_t n = word();
    if (n > (words_.size() - at_) * 8) throw std::runtime_error("MPI message from a rank is cut short");
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

}  // namespace

std::vector<uint64_t> encode(const RankResult& r) {
  Writer w;
  w.word(kMagic);
  w.word(uint64_t(int64_t(r.exit_code)));
  w.text(r.error);
  w.text(r.warning);
  w.word(uint64_t(r.frames));
  w.word(r.columns.size());
  for (const auto& column : r.columns) {
    w.word(column.size());
    for (const double v : column) w.word(std::bit_cast<uint64_t>(v));
  }
  w.word(r.states.size());
  for (size_t f = 0; f < r.states.size(); ++f) {
    w.word(f < r.unmergeable.size() ? r.unmergeable[f] : 0);
    w.word(r.states[f].size());
    for (const AggregateWord v : r.states[f]) {
      w.word(uint64_t(v));
      w.word(uint64_t(v >> 64));
    }
  }
  return w.take();
}

RankResult decode(const std::vector<uint64_t>& words) {
  Reader in(words);
  if (in.word() != kMagic) throw std::runtime_error("MPI message from a rank is not a result");
  RankResult r;
  r.exit_code = int(int64_t(in.word()));
  r.error = in.text();
  r.warning = in.text();
  r.frames = int64_t(in.word());
  r.columns.resize(in.count(1));
  for (auto& column : r.columns) {
    column.resize(in.count(1));
    for (double& v : column) v = std::bit_cast<double>(in.word());
  }
  const size_t features = in.count(2);
  r.states.resize(features);
  r.unmergeable.resize(features);
  for (size_t f = 0; f < features; ++f) {
    r.unmergeable[f] = uint8_t(in.word() != 0);
    r.states[f].resize(in.count(2));
    for (AggregateWord& v : r.states[f]) {
      const uint64_t lo = in.word();
      const uint64_t hi = in.word();
      v = (AggregateWord(hi) << 64) | lo;
    }
  }
  if (!in.done()) throw std::runtime_error("MPI message from a rank has trailing words");
  return r;
}

}  // namespace exactvq::mpi
