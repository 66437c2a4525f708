#include "metrics/ciede/softfp_tables.h"

#include <cstring>

#include "libm/portable_functions.h"
#include "metrics/ciede/softfp_delta_e.h"

namespace exactvq::ciede {

namespace {

// Copies `entries` entries of `table` to words[at ...].
template <typename T>
void place(std::vector<uint64_t>& words, size_t at, const T* table, size_t entries) {
  std::memcpy(words.data() + at, table, entries * sizeof(T));
}

}  // namespace

std::vector<uint64_t> softfp_table_words() {
  using namespace libm::detail;
  static_assert(sizeof(PowLogEntry) == 24 && sizeof(PowfLog2Entry) == 16 &&
                sizeof(SinCosEntry) == 32 && sizeof(AtanNode) == 56);
  std::vector<uint64_t> words(CIEDE_TABLE_WORDS);
  place(words, CIEDE_TABLE_EXP, exp_table(), 256);
  place(words, CIEDE_TABLE_POW_LOG, pow_log_table(), 128);
  place(words, CIEDE_TABLE_POWF_LOG2, powf_log2_table(), 16);
  place(words, CIEDE_TABLE_POWF_EXP2, powf_exp2_table(), 32);
  place(words, CIEDE_TABLE_SINCOS, sincos_table(), 110);
  place(words, CIEDE_TABLE_ATAN, atan_nodes(), 241);
  return words;
}

}  // namespace exactvq::ciede
