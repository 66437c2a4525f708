// The sequential pass of the parallel raster-order sum (docs/spec/raster_sum.md, "The
// replay"): a block's record if it is accepted, else its chunks' records, else a chunk's
// terms one rounded addition at a time (the definition). The same code on the host and,
// one thread an array, on CUDA devices; OpenCL's replay (backends/opencl/raster_sum.cl)
// takes the same steps on bits, with softfp_add_bits for the additions.
#pragma once

#include <cstdint>

#include "core/binade_step.h"
#include "core/portable_bits.h"

#if defined(__CUDACC__)
#define EXACTVQ_HOST_DEVICE __host__ __device__
#else
#define EXACTVQ_HOST_DEVICE
#endif

namespace exactvq {

// `sum` plus terms[0], ..., terms[n - 1], one binary64 addition (round to nearest even) at a
// time: the definition, for the runs no record may replay.
EXACTVQ_HOST_DEVICE inline double add_terms_in_order(double sum, const double* terms, int64_t n) {
#if defined(__CUDA_ARCH__)
#pragma unroll 8
  for (int64_t i = 0; i < n; ++i) sum = __dadd_rn(sum, terms[i]);
#else
  for (int64_t i = 0; i < n; ++i) sum += terms[i];
#endif
  return sum;
}

// How a replay went, for tests and benchmarks: records accepted and chunks added in order.
struct ReplayCounts {
  int64_t blocks = 0, chunks = 0, chunks_in_order = 0;
};

// Replays a run's record on `sum` if the record is accepted at sum's state (Theorem of the
// spec); returns whether it did.
EXACTVQ_HOST_DEVICE inline bool replay_record(double& sum, const exactvq_run_record& record) {
  uint64_t bits = exactvq_f64_bits(sum);
  if (!exactvq_run_replay(&bits, record)) return false;
  sum = exactvq_f64_of_bits(bits);
  return true;
}

// One block of the replay: `terms` its first term, `count` its terms (at most
// EXACTVQ_RASTER_CHUNK * EXACTVQ_RASTER_BLOCK_CHUNKS), `chunks` its chunks' records.
// `counts` may be null.
EXACTVQ_HOST_DEVICE inline double replay_block(double sum, const exactvq_run_record& block,
                                               const exactvq_run_record* chunks,
                                               const double* terms, int64_t count,
                                               ReplayCounts* counts = nullptr) {
  if (replay_record(sum, block)) {
    if (counts) ++counts->blocks;
    return sum;
  }
  for (int64_t c = 0; c * EXACTVQ_RASTER_CHUNK < count; ++c) {
    const int64_t first = c * EXACTVQ_RASTER_CHUNK;
    const int64_t n = count - first < EXACTVQ_RASTER_CHUNK ? count - first : EXACTVQ_RASTER_CHUNK;
    if (replay_record(sum, chunks[c])) {
      if (counts) ++counts->chunks;
      continue;
    }
    if (counts) ++counts->chunks_in_order;
    sum = add_terms_in_order(sum, terms + first, n);
  }
  return sum;
}

}  // namespace exactvq
