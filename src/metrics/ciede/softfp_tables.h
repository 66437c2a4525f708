// libm's tables in the one array softfp_delta_e.h reads (CIEDE_TABLE_*), as
// their words: what the OpenCL engine uploads and the host tests pass.
#pragma once

#include <cstdint>
#include <vector>

namespace exactvq::ciede {

std::vector<uint64_t> softfp_table_words();

}  // namespace exactvq::ciede
