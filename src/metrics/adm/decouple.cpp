#include "metrics/adm/decouple.h"

#include <bit>
#include <cstdlib>

namespace exactvq::adm {

namespace {

struct ReciprocalTable {
  int32_t entry[65537] = {};
  ReciprocalTable() {
    for (int i = 1; i <= 32768; ++i) {
      const int32_t q = (int32_t{1} << 30) / i;
      entry[32768 + i] = q;
      entry[32768 - i] = -q;
    }
  }
};

// libvmaf's angle test: the (h, v) vectors o and t are within one degree when
// o.t >= 0 and (o.t)^2 >= cos^2(1 deg) |o|^2 |t|^2, each integer converted to
// float, then scaled by 1/4096 and multiplied in binary64 left to right.
bool within_one_degree(int64_t dot, int64_t o_mag_sq, int64_t t_mag_sq) {
  const double d = static_cast<double>(static_cast<float>(dot)) / 4096.0;
  if (!(d >= 0.0)) return false;
  const double o = static_cast<double>(static_cast<float>(o_mag_sq)) / 4096.0;
  const double t = static_cast<double>(static_cast<float>(t_mag_sq)) / 4096.0;
  return d * d >= static_cast<double>(kCosOneDegreeSquared) * o * t;
}

// The restored value after the enhancement rule: where the angle test holds,
// the restored value times the gain limit, but no further from zero than t.
// libvmaf's float product (k / 32768) * (o / 64) only supplies the sign, which
// is that of o when k > 0; the products here are exact in binary64 and the
// result is in range, so the conversion truncates as C's does.
template <typename T>
T enhance(T rst, int64_t k, T o, T t, bool angle, double gain_limit) {
  if (!angle || k == 0 || o == 0) return rst;
  const double scaled = static_cast<double>(rst) * gain_limit;
  const double tt = static_cast<double>(t);
  if (o > 0) return static_cast<T>(scaled < tt ? scaled : tt);
  return static_cast<T>(scaled > tt ? scaled : tt);
}

int64_t clamp_gain(int64_t k) { return k < 0 ? 0 : (k > 32768 ? 32768 : k); }

}  // namespace

const int32_t* reciprocal_table() {
  static const ReciprocalTable table;
  return table.entry;
}

void decouple_row_s0(OrientedRows<int16_t> ref, OrientedRows<int16_t> dis, int begin, int end,
                     double gain_limit, OrientedRowsOut<int16_t> restored,
                     OrientedRowsOut<int16_t> additive) {
  const int32_t* recip = reciprocal_table();
  for (int j = begin; j < end; ++j) {
    const int16_t oh = ref.band[0][j], ov = ref.band[1][j];
    const int16_t th = dis.band[0][j], tv = dis.band[1][j];
    const int64_t dot = int64_t{oh} * th + int64_t{ov} * tv;
    const int64_t o_mag = int64_t{oh} * oh + int64_t{ov} * ov;
    const int64_t t_mag = int64_t{th} * th + int64_t{tv} * tv;
    const bool angle = within_one_degree(dot, o_mag, t_mag);
    for (int b = 0; b < 3; ++b) {
      const int16_t o = ref.band[b][j], t = dis.band[b][j];
      // k = t / o in Q15 through the reciprocal table; libvmaf keeps it in int32.
      const int32_t k_raw =
          o == 0 ? 32768 : static_cast<int32_t>((int64_t{recip[o + 32768]} * t + 16384) >> 15);
      const int32_t k = static_cast<int32_t>(clamp_gain(k_raw));
      int16_t rst = static_cast<int16_t>((k * o + 16384) >> 15);
      rst = enhance<int16_t>(rst, k, o, t, angle, gain_limit);
      restored.band[b][j] = rst;
      additive.band[b][j] = static_cast<int16_t>(t - rst);  // stored modulo 2^16, as libvmaf's
    }
  }
}

void decouple_row_s123(OrientedRows<int32_t> ref, OrientedRows<int32_t> dis, int begin, int end,
                       double gain_limit, OrientedRowsOut<int32_t> restored,
                       OrientedRowsOut<int32_t> additive) {
  const int32_t* recip = reciprocal_table();
  for (int j = begin; j < end; ++j) {
    const int32_t oh = ref.band[0][j], ov = ref.band[1][j];
    const int32_t th = dis.band[0][j], tv = dis.band[1][j];
    // libvmaf's int64 products; |o|, |t| < 2^31 keep the sums of two in range
    // in practice, and they wrap as its would otherwise.
    const int64_t dot = static_cast<int64_t>(static_cast<uint64_t>(int64_t{oh} * th) +
                                             static_cast<uint64_t>(int64_t{ov} * tv));
    const int64_t o_mag = static_cast<int64_t>(static_cast<uint64_t>(int64_t{oh} * oh) +
                                               static_cast<uint64_t>(int64_t{ov} * ov));
    const int64_t t_mag = static_cast<int64_t>(static_cast<uint64_t>(int64_t{th} * th) +
                                               static_cast<uint64_t>(int64_t{tv} * tv));
    const bool angle = within_one_degree(dot, o_mag, t_mag);
    for (int b = 0; b < 3; ++b) {
      const int32_t o = ref.band[b][j], t = dis.band[b][j];
      int64_t k_raw = 32768;
      if (o != 0) {
        // The divisor |o| rounded to its top 15 bits (shift s), so that the
        // Q30 table applies; the rounding constant 1 << (14 + s) is an int,
        // which for s = 17 is INT32_MIN in libvmaf's arithmetic.
        const uint32_t abs_o = static_cast<uint32_t>(o < 0 ? -static_cast<int64_t>(o) : o);
        int shift = 0;
        uint32_t divisor = abs_o;
        if (abs_o >= 32768) {
          shift = 17 - std::countl_zero(abs_o);
          divisor = static_cast<uint16_t>((abs_o + (uint32_t{1} << (shift - 1))) >> shift);
        }
        const int64_t sign = o < 0 ? -1 : 1;
        const int64_t round = static_cast<int32_t>(uint32_t{1} << (14 + shift));
        k_raw = ((int64_t{recip[divisor + 32768]} * t) * sign + round) >> (15 + shift);
      }
      const int64_t k = clamp_gain(k_raw);
      int32_t rst = static_cast<int32_t>((k * o + 16384) >> 15);
      rst = enhance<int32_t>(rst, k, o, t, angle, gain_limit);
      restored.band[b][j] = rst;
      additive.band[b][j] = static_cast<int32_t>(static_cast<uint32_t>(t) - static_cast<uint32_t>(rst));
    }
  }
}

}  // namespace exactvq::adm
