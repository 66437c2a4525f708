// The raster-order binary64 sum (libvmaf's: terms added one at a time, in order, from +0)
// computed from integer increments per binade (docs/spec/raster_sum.md): the bits of the
// sequential sum, with the records of chunks computed side by side on a pool's threads.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/binade_step.h"
#include "core/raster_replay.h"
#include "core/thread_pool.h"

namespace exactvq {

// The sequential sum's bits: +0 + terms[0] + ... + terms[count - 1], each addition rounded.
// `pool` may be null (one thread); `counts` (may be null) says how the replay went.
double chunked_raster_sum(const double* terms, size_t count, ThreadPool* pool = nullptr,
                          ReplayCounts* counts = nullptr);

// The pieces, for tests and the device's twin: a run's record at exponent e (the terms'
// increments composed in order), and each chunk's candidate exponent from the binary64
// prefix of the chunks' sums (in order: any order gives the same final bits).
exactvq_run_record run_record(const double* terms, size_t count, int32_t e);
std::vector<int32_t> chunk_candidates(const double* terms, size_t count);

}  // namespace exactvq
