// The host's half of cambi's pooling from the device kernels' records
// (pool_device.h): the records of a scale merged, and the pooled value they
// give where it provably equals pool_topk's (docs/spec/cambi.md, "On CUDA and
// OpenCL"). Plain arithmetic, apart from the engines, so the twin table (the
// Arm build's too) checks it beside pool_topk.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>

#include "metrics/cambi/pool_device.h"

namespace exactvq::cambi {

// The records' merged partial.
CambiPoolPartial merge_records(const uint64_t* words, size_t records);

// pool_topk's value for `n` values whose merged partial is `all`, where it
// provably is that (no odd value, at most k positive, their sum below 2^53
// times the smallest one's unit in the last place); empty elsewhere.
std::optional<double> pooled_from_partial(const CambiPoolPartial& all, size_t n, double topk);

}  // namespace exactvq::cambi
