// What ranks send each other, as arrays of 64-bit words (MPI_UINT64_T): doubles as
// their binary64 bits, so that rank 0 gets every value exactly, whatever MPI's
// conversions; strings as their length and bytes.
#pragma once

#include <cstdint>
#include <vector>

#include "mpi/range_score.h"

namespace exactvq::mpi {

std::vector<uint64_t> encode(const RankResult& r);
// Throws std::runtime_error on words that are not an encode()d result.
RankResult decode(const std::vector<uint64_t>& words);

}  // namespace exactvq::mpi
