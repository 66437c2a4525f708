#include "core/raster_sum.h"

#include <algorithm>

namespace exactvq {

namespace {

constexpr int64_t kChunk = EXACTVQ_RASTER_CHUNK;
constexpr int64_t kBlock = EXACTVQ_RASTER_CHUNK * EXACTVQ_RASTER_BLOCK_CHUNKS;

int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

// A chunk's terms added in binary64, for its successors' candidates only.
double approximate_sum(const double* terms, int64_t n) {
  double s = 0.0;
  for (int64_t i = 0; i < n; ++i) s += terms[i];
  return s;
}

}  // namespace

exactvq_run_record run_record(const double* terms, size_t count, int32_t e) {
  exactvq_run_record r = exactvq_run_identity(e);
  for (size_t i = 0; i < count; ++i)
    r = exactvq_run_then(r, exactvq_run_of_term(exactvq_f64_bits(terms[i]), e));
  return r;
}

std::vector<int32_t> chunk_candidates(const double* terms, size_t count) {
  const int64_t n = int64_t(count), chunks = ceil_div(n, kChunk);
  std::vector<int32_t> candidates(static_cast<size_t>(chunks));
  double prefix = 0.0;
  for (int64_t c = 0; c < chunks; ++c) {
    candidates[size_t(c)] = exactvq_exponent_of(exactvq_f64_bits(prefix));
    prefix += approximate_sum(terms + c * kChunk, std::min(kChunk, n - c * kChunk));
  }
  return candidates;
}

double chunked_raster_sum(const double* terms, size_t count, ThreadPool* pool,
                          ReplayCounts* counts) {
  const int64_t n = int64_t(count), chunks = ceil_div(n, kChunk), blocks = ceil_div(n, kBlock);
  const std::vector<int32_t> candidates = chunk_candidates(terms, count);
  std::vector<exactvq_run_record> chunk_records(static_cast<size_t>(chunks)),
      block_records(static_cast<size_t>(blocks));
  parallel_for(pool, int(blocks), [&](int b) {
    const int64_t first = b * int64_t(EXACTVQ_RASTER_BLOCK_CHUNKS);
    const int64_t last = std::min(chunks, first + EXACTVQ_RASTER_BLOCK_CHUNKS);
    for (int64_t c = first; c < last; ++c)
      chunk_records[size_t(c)] = run_record(
          terms + c * kChunk, size_t(std::min(kChunk, n - c * kChunk)), candidates[size_t(c)]);
    exactvq_run_record block = chunk_records[size_t(first)];
    for (int64_t c = first + 1; c < last; ++c)
      block = exactvq_run_then(block, chunk_records[size_t(c)]);
    block_records[size_t(b)] = block;
  });
  double sum = 0.0;
  for (int64_t b = 0; b < blocks; ++b)
    sum = replay_block(sum, block_records[size_t(b)],
                       chunk_records.data() + b * EXACTVQ_RASTER_BLOCK_CHUNKS, terms + b * kBlock,
                       std::min(kBlock, n - b * kBlock), counts);
  return sum;
}

}  // namespace exactvq
