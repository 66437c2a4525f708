#include "mpi/wire.h"

#include <bit>

namespace exactvq::mpi {

namespace {

using wire::Reader;
using wire::Writer;

constexpr uint64_t kMagic = 0x6578767172616e6bULL;         // "exvqrank"
constexpr uint64_t kPairsMagic = 0x6578767170616972ULL;    // "exvqpair"
constexpr uint64_t kResultsMagic = 0x6578767172736c74ULL;  // "exvqrslt"

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

std::vector<uint64_t> encode_pairs(const std::vector<BatchPair>& pairs) {
  Writer w;
  w.word(kPairsMagic);
  w.word(pairs.size());
  for (const BatchPair& p : pairs) {
    w.word(uint64_t(int64_t(p.line)));
    w.text(p.ref);
    w.text(p.dist);
    w.text(p.output);
    w.word(p.options.size());
    for (const auto& o : p.options) w.text(o);
  }
  return w.take();
}

std::vector<BatchPair> decode_pairs(const std::vector<uint64_t>& words) {
  Reader in(words);
  if (in.word() != kPairsMagic) throw std::runtime_error("MPI message is not a batch list");
  std::vector<BatchPair> pairs(in.count(5));
  for (BatchPair& p : pairs) {
    p.line = int(int64_t(in.word()));
    p.ref = in.text();
    p.dist = in.text();
    p.output = in.text();
    p.options.resize(in.count(1));
    for (auto& o : p.options) o = in.text();
  }
  if (!in.done()) throw std::runtime_error("MPI message has trailing words");
  return pairs;
}

std::vector<uint64_t> encode_pair_results(
    const std::vector<std::pair<uint64_t, PairResult>>& results) {
  Writer w;
  w.word(kResultsMagic);
  w.word(results.size());
  for (const auto& [index, r] : results) {
    w.word(index);
    w.word(r.ok ? 1 : 0);
    w.text(r.error);
    w.word(uint64_t(r.frames));
    w.word(r.pooled_means.size());
    for (const auto& [name, mean] : r.pooled_means) {
      w.text(name);
      w.word(std::bit_cast<uint64_t>(mean));
    }
    w.word(r.warnings.size());
    for (const auto& warning : r.warnings) w.text(warning);
  }
  return w.take();
}

std::vector<std::pair<uint64_t, PairResult>> decode_pair_results(
    const std::vector<uint64_t>& words) {
  Reader in(words);
  if (in.word() != kResultsMagic) throw std::runtime_error("MPI message is not batch results");
  std::vector<std::pair<uint64_t, PairResult>> results(in.count(6));
  for (auto& [index, r] : results) {
    index = in.word();
    r.ok = in.word() != 0;
    r.error = in.text();
    r.frames = int64_t(in.word());
    r.pooled_means.resize(in.count(2));
    for (auto& [name, mean] : r.pooled_means) {
      name = in.text();
      mean = std::bit_cast<double>(in.word());
    }
    r.warnings.resize(in.count(1));
    for (auto& warning : r.warnings) warning = in.text();
  }
  if (!in.done()) throw std::runtime_error("MPI message has trailing words");
  return results;
}

}  // namespace exactvq::mpi
