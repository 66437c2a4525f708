#include "metrics/adm/csf.h"

namespace exactvq::adm {

void csf_row_s0(const int16_t* src, int begin, int end, uint16_t factor, int shift, int32_t round,
                int16_t* csf, int16_t* flt) {
  for (int j = begin; j < end; ++j) {
    // libvmaf's int32 product and sum; they wrap modulo 2^32 for factors the
    // default viewing geometry never produces.
    const uint32_t product = static_cast<uint32_t>(int32_t{factor} * int32_t{src[j]});
    const int32_t rounded = static_cast<int32_t>(product + static_cast<uint32_t>(round));
    const int16_t value = static_cast<int16_t>(rounded >> shift);
    csf[j] = value;
    const int32_t magnitude = value < 0 ? -int32_t{value} : int32_t{value};
    flt[j] = static_cast<int16_t>((4369 * magnitude + 2048) >> 12);
  }
}

void csf_row_s123(const int32_t* src, int begin, int end, uint32_t factor, int32_t* csf, int32_t* flt) {
  for (int j = begin; j < end; ++j) {
    const int32_t value =
        static_cast<int32_t>((int64_t{factor} * src[j] + (int64_t{1} << 27)) >> 28);
    csf[j] = value;
    const int64_t magnitude = value < 0 ? -int64_t{value} : int64_t{value};
    flt[j] = static_cast<int32_t>((int64_t{143165577} * magnitude + kRoundBeforeShift32) >> 32);
  }
}

}  // namespace exactvq::adm
