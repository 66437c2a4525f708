// glibc 2.36's pow (Arm optimized-routines, FMA variant), pinned: log(x) in
// double-double from a 128-entry table and a degree-8 polynomial, multiplied
// by y (one product and its fma error), then exp of that sum with the core
// exp shares (exp_core.h). The fusions are those of the FMA build's machine
// code (docs/spec/libm.md). Host and device alike (portable.h); libm::pow is
// this function.
#pragma once

#include <cstdint>

#include "libm/exp_core.h"
#include "libm/fp_bits.h"
#include "libm/portable.h"

namespace exactvq::libm::detail {

// ln 2 split: a 42-bit head (k ln2hi exact for any exponent k) and its tail.
inline constexpr double kPowLn2Hi = 0x1.62e42fefa38p-1;
inline constexpr double kPowLn2Lo = 0x1.ef35793c7673p-45;
// log1p(r) ~ r + A0 r^2 + ... + A6 r^8, A0 = -1/2.
inline constexpr double kPowA0 = -0x1p-1;
inline constexpr double kPowA1 = -0x1.555555555556p-1;
inline constexpr double kPowA2 = 0x1.0000000000006p-1;
inline constexpr double kPowA3 = 0x1.999999959554ep-1;
inline constexpr double kPowA4 = -0x1.555555529a47ap-1;
inline constexpr double kPowA5 = -0x1.2495b9b4845e9p+0;
inline constexpr double kPowA6 = 0x1.0002b8b263fc3p+0;

// For each of 128 subintervals of [0x1.69555p-1, 0x1.69555p0): 1/c (a short
// value, so z/c - 1 is exact with one fma) and log(c) as a double-double.
struct PowLogEntry {
  double inv_c, log_c, log_c_tail;
};
EXACTVQ_LIBM_TABLE(PowLogEntry, pow_log_table,
                   {
                       {0x1.6ap+0, -0x1.62c82f2b9c8p-2, 0x1.ab4242837568p-48},
                       {0x1.68p+0, -0x1.5d1bdbf5808p-2, -0x1.ca508d8e0f72p-46},
                       {0x1.66p+0, -0x1.57677174558p-2, -0x1.362a4d5b6506dp-45},
                       {0x1.64p+0, -0x1.51aad872df8p-2, -0x1.684e49eb067d5p-49},
                       {0x1.62p+0, -0x1.4be5f957778p-2, -0x1.41b6993293eep-47},
                       {0x1.6p+0, -0x1.4618bc21c6p-2, 0x1.3d82f484c84ccp-46},
                       {0x1.5ep+0, -0x1.404308686a8p-2, 0x1.c42f3ed820b3ap-50},
                       {0x1.5cp+0, -0x1.3a64c556948p-2, 0x1.0b1c68651946p-45},
                       {0x1.5ap+0, -0x1.347dd9a988p-2, 0x1.5594dd4c58092p-45},
                       {0x1.58p+0, -0x1.2e8e2bae12p-2, 0x1.67b1e99b72bd8p-45},
                       {0x1.56p+0, -0x1.2895a13de88p-2, 0x1.5ca14b6cfb03fp-46},
                       {0x1.56p+0, -0x1.2895a13de88p-2, 0x1.5ca14b6cfb03fp-46},
                       {0x1.54p+0, -0x1.22941fbcf78p-2, -0x1.65a242853da76p-46},
                       {0x1.52p+0, -0x1.1c898c16998p-2, -0x1.fafbc68e75404p-46},
                       {0x1.5p+0, -0x1.1675cababa8p-2, 0x1.f1fc63382a8fp-46},
                       {0x1.4ep+0, -0x1.1058bf9ae48p-2, -0x1.6a8c4fd055a66p-45},
                       {0x1.4cp+0, -0x1.0a324e2739p-2, -0x1.c6bee7ef4030ep-47},
                       {0x1.4ap+0, -0x1.0402594b4dp-2, -0x1.036b89ef42d7fp-48},
                       {0x1.4ap+0, -0x1.0402594b4dp-2, -0x1.036b89ef42d7fp-48},
                       {0x1.48p+0, -0x1.fb9186d5e4p-3, 0x1.d572aab993c87p-47},
                       {0x1.46p+0, -0x1.ef0adcbdc6p-3, 0x1.b26b79c86af24p-45},
                       {0x1.44p+0, -0x1.e27076e2afp-3, -0x1.72f4f543fff1p-46},
                       {0x1.42p+0, -0x1.d5c216b4fcp-3, 0x1.1ba91bbca681bp-45},
                       {0x1.4p+0, -0x1.c8ff7c79aap-3, 0x1.7794f689f8434p-45},
                       {0x1.4p+0, -0x1.c8ff7c79aap-3, 0x1.7794f689f8434p-45},
                       {0x1.3ep+0, -0x1.bc286742d9p-3, 0x1.94eb0318bb78fp-46},
                       {0x1.3cp+0, -0x1.af3c94e80cp-3, 0x1.a4e633fcd9066p-52},
                       {0x1.3ap+0, -0x1.a23bc1fe2bp-3, -0x1.58c64dc46c1eap-45},
                       {0x1.3ap+0, -0x1.a23bc1fe2bp-3, -0x1.58c64dc46c1eap-45},
                       {0x1.38p+0, -0x1.9525a9cf45p-3, -0x1.ad1d904c1d4e3p-45},
                       {0x1.36p+0, -0x1.87fa06520dp-3, 0x1.bbdbf7fdbfa09p-45},
                       {0x1.34p+0, -0x1.7ab890210ep-3, 0x1.bdb9072534a58p-45},
                       {0x1.34p+0, -0x1.7ab890210ep-3, 0x1.bdb9072534a58p-45},
                       {0x1.32p+0, -0x1.6d60fe719dp-3, -0x1.0e46aa3b2e266p-46},
                       {0x1.3p+0, -0x1.5ff3070a79p-3, -0x1.e9e439f105039p-46},
                       {0x1.3p+0, -0x1.5ff3070a79p-3, -0x1.e9e439f105039p-46},
                       {0x1.2ep+0, -0x1.526e5e3a1bp-3, -0x1.0de8b90075b8fp-45},
                       {0x1.2cp+0, -0x1.44d2b6ccb8p-3, 0x1.70cc16135783cp-46},
                       {0x1.2cp+0, -0x1.44d2b6ccb8p-3, 0x1.70cc16135783cp-46},
                       {0x1.2ap+0, -0x1.371fc201e9p-3, 0x1.178864d27543ap-48},
                       {0x1.28p+0, -0x1.29552f81ffp-3, -0x1.48d301771c408p-45},
                       {0x1.26p+0, -0x1.1b72ad52f6p-3, -0x1.e80a41811a396p-45},
                       {0x1.26p+0, -0x1.1b72ad52f6p-3, -0x1.e80a41811a396p-45},
                       {0x1.24p+0, -0x1.0d77e7cd09p-3, 0x1.a699688e85bf4p-47},
                       {0x1.24p+0, -0x1.0d77e7cd09p-3, 0x1.a699688e85bf4p-47},
                       {0x1.22p+0, -0x1.fec9131dbep-4, -0x1.575545ca333f2p-45},
                       {0x1.2p+0, -0x1.e27076e2bp-4, 0x1.a342c2af0003cp-45},
                       {0x1.2p+0, -0x1.e27076e2bp-4, 0x1.a342c2af0003cp-45},
                       {0x1.1ep+0, -0x1.c5e548f5bcp-4, -0x1.d0c57585fbe06p-46},
                       {0x1.1cp+0, -0x1.a926d3a4aep-4, 0x1.53935e85baac8p-45},
                       {0x1.1cp+0, -0x1.a926d3a4aep-4, 0x1.53935e85baac8p-45},
                       {0x1.1ap+0, -0x1.8c345d631ap-4, 0x1.37c294d2f5668p-46},
                       {0x1.1ap+0, -0x1.8c345d631ap-4, 0x1.37c294d2f5668p-46},
                       {0x1.18p+0, -0x1.6f0d28ae56p-4, -0x1.69737c93373dap-45},
                       {0x1.16p+0, -0x1.51b073f062p-4, 0x1.f025b61c65e57p-46},
                       {0x1.16p+0, -0x1.51b073f062p-4, 0x1.f025b61c65e57p-46},
                       {0x1.14p+0, -0x1.341d7961bep-4, 0x1.c5edaccf913dfp-45},
                       {0x1.14p+0, -0x1.341d7961bep-4, 0x1.c5edaccf913dfp-45},
                       {0x1.12p+0, -0x1.16536eea38p-4, 0x1.47c5e768fa309p-46},
                       {0x1.1p+0, -0x1.f0a30c0118p-5, 0x1.d599e83368e91p-45},
                       {0x1.1p+0, -0x1.f0a30c0118p-5, 0x1.d599e83368e91p-45},
                       {0x1.0ep+0, -0x1.b42dd71198p-5, 0x1.c827ae5d6704cp-46},
                       {0x1.0ep+0, -0x1.b42dd71198p-5, 0x1.c827ae5d6704cp-46},
                       {0x1.0cp+0, -0x1.77458f632cp-5, -0x1.cfc4634f2a1eep-45},
                       {0x1.0cp+0, -0x1.77458f632cp-5, -0x1.cfc4634f2a1eep-45},
                       {0x1.0ap+0, -0x1.39e87b9fecp-5, 0x1.502b7f526feaap-48},
                       {0x1.0ap+0, -0x1.39e87b9fecp-5, 0x1.502b7f526feaap-48},
                       {0x1.08p+0, -0x1.f829b0e78p-6, -0x1.980267c7e09e4p-45},
                       {0x1.08p+0, -0x1.f829b0e78p-6, -0x1.980267c7e09e4p-45},
                       {0x1.06p+0, -0x1.7b91b07d58p-6, -0x1.88d5493faa639p-45},
                       {0x1.04p+0, -0x1.fc0a8b0fcp-7, -0x1.f1e7cf6d3a69cp-50},
                       {0x1.04p+0, -0x1.fc0a8b0fcp-7, -0x1.f1e7cf6d3a69cp-50},
                       {0x1.02p+0, -0x1.fe02a6b1p-8, -0x1.9e23f0dda40e4p-46},
                       {0x1.02p+0, -0x1.fe02a6b1p-8, -0x1.9e23f0dda40e4p-46},
                       {0x1p+0, 0x0p+0, 0x0p+0},
                       {0x1p+0, 0x0p+0, 0x0p+0},
                       {0x1.fcp-1, 0x1.010157589p-7, -0x1.0c76b999d2be8p-46},
                       {0x1.f8p-1, 0x1.0205658938p-6, -0x1.3dc5b06e2f7d2p-45},
                       {0x1.f4p-1, 0x1.8492528c9p-6, -0x1.aa0ba325a0c34p-45},
                       {0x1.fp-1, 0x1.0415d89e74p-5, 0x1.111c05cf1d753p-47},
                       {0x1.ecp-1, 0x1.466aed42ep-5, -0x1.c167375bdfd28p-45},
                       {0x1.e8p-1, 0x1.894aa149fcp-5, -0x1.97995d05a267dp-46},
                       {0x1.e4p-1, 0x1.ccb73cdddcp-5, -0x1.a68f247d82807p-46},
                       {0x1.e2p-1, 0x1.eea31c006cp-5, -0x1.e113e4fc93b7bp-47},
                       {0x1.dep-1, 0x1.1973bd1466p-4, -0x1.5325d560d9e9bp-45},
                       {0x1.dap-1, 0x1.3bdf5a7d1ep-4, 0x1.cc85ea5db4ed7p-45},
                       {0x1.d6p-1, 0x1.5e95a4d97ap-4, -0x1.c69063c5d1d1ep-45},
                       {0x1.d4p-1, 0x1.700d30aeacp-4, 0x1.c1e8da99ded32p-49},
                       {0x1.dp-1, 0x1.9335e5d594p-4, 0x1.3115c3abd47dap-45},
                       {0x1.ccp-1, 0x1.b6ac88dad6p-4, -0x1.390802bf768e5p-46},
                       {0x1.cap-1, 0x1.c885801bc4p-4, 0x1.646d1c65aacd3p-45},
                       {0x1.c6p-1, 0x1.ec739830a2p-4, -0x1.dc068afe645ep-45},
                       {0x1.c4p-1, 0x1.fe89139dbep-4, -0x1.534d64fa10afdp-45},
                       {0x1.cp-1, 0x1.1178e8227ep-3, 0x1.1ef78ce2d07f2p-45},
                       {0x1.bep-1, 0x1.1aa2b7e23fp-3, 0x1.ca78e44389934p-45},
                       {0x1.bap-1, 0x1.2d1610c868p-3, 0x1.39d6ccb81b4a1p-47},
                       {0x1.b8p-1, 0x1.365fcb0159p-3, 0x1.62fa8234b7289p-51},
                       {0x1.b4p-1, 0x1.4913d8333bp-3, 0x1.5837954fdb678p-45},
                       {0x1.b2p-1, 0x1.527e5e4a1bp-3, 0x1.633e8e5697dc7p-45},
                       {0x1.aep-1, 0x1.6574ebe8c1p-3, 0x1.9cf8b2c3c2e78p-46},
                       {0x1.acp-1, 0x1.6f0128b757p-3, -0x1.5118de59c21e1p-45},
                       {0x1.aap-1, 0x1.7898d85445p-3, -0x1.c661070914305p-46},
                       {0x1.a6p-1, 0x1.8beafeb39p-3, -0x1.73d54aae92cd1p-47},
                       {0x1.a4p-1, 0x1.95a5adcf7p-3, 0x1.7f22858a0ff6fp-47},
                       {0x1.ap-1, 0x1.a93ed3c8aep-3, -0x1.8724350562169p-45},
                       {0x1.9ep-1, 0x1.b31d8575bdp-3, -0x1.c358d4eace1aap-47},
                       {0x1.9cp-1, 0x1.bd087383bep-3, -0x1.d4bc4595412b6p-45},
                       {0x1.9ap-1, 0x1.c6ffbc6f01p-3, -0x1.1ec72c5962bd2p-48},
                       {0x1.96p-1, 0x1.db13db0d49p-3, -0x1.aff2af715b035p-45},
                       {0x1.94p-1, 0x1.e530effe71p-3, 0x1.212276041f43p-51},
                       {0x1.92p-1, 0x1.ef5ade4ddp-3, -0x1.a211565bb8e11p-51},
                       {0x1.9p-1, 0x1.f991c6cb3bp-3, 0x1.bcbecca0cdf3p-46},
                       {0x1.8cp-1, 0x1.07138604d58p-2, 0x1.89cdb16ed4e91p-48},
                       {0x1.8ap-1, 0x1.0c42d67616p-2, 0x1.7188b163ceae9p-45},
                       {0x1.88p-1, 0x1.1178e8227e8p-2, -0x1.c210e63a5f01cp-45},
                       {0x1.86p-1, 0x1.16b5ccbacf8p-2, 0x1.b9acdf7a51681p-45},
                       {0x1.84p-1, 0x1.1bf99635a68p-2, 0x1.ca6ed5147bdb7p-45},
                       {0x1.82p-1, 0x1.214456d0eb8p-2, 0x1.a87deba46baeap-47},
                       {0x1.7ep-1, 0x1.2bef07cdc9p-2, 0x1.a9cfa4a5004f4p-45},
                       {0x1.7cp-1, 0x1.314f1e1d36p-2, -0x1.8e27ad3213cb8p-45},
                       {0x1.7ap-1, 0x1.36b6776be1p-2, 0x1.16ecdb0f177c8p-46},
                       {0x1.78p-1, 0x1.3c25277333p-2, 0x1.83b54b606bd5cp-46},
                       {0x1.76p-1, 0x1.419b423d5e8p-2, 0x1.8e436ec90e09dp-47},
                       {0x1.74p-1, 0x1.4718dc271c8p-2, -0x1.f27ce0967d675p-45},
                       {0x1.72p-1, 0x1.4c9e09e173p-2, -0x1.e20891b0ad8a4p-45},
                       {0x1.7p-1, 0x1.522ae0738ap-2, 0x1.ebe708164c759p-45},
                       {0x1.6ep-1, 0x1.57bf753c8dp-2, 0x1.fadedee5d40efp-46},
                       {0x1.6cp-1, 0x1.5d5bddf596p-2, -0x1.a0b2a08a465dcp-47},
                   })

inline constexpr uint64_t kPowTableOrigin = 0x3fe6955500000000;  // bits of 0x1.69555p-1
inline constexpr uint64_t kPowSignBias = uint64_t{0x800}
                                         << 7;  // sets the sign bit once shifted by 45

// log(x) = hi + lo with about 68 bits, for the normalised bits ix of x > 0
// (a subnormal's exponent already below -1022).
EXACTVQ_LIBM_FN double pow_log_double_double(uint64_t ix, double* lo_out) {
  const uint64_t offset = ix - kPowTableOrigin;
  const int i = static_cast<int>((offset >> 45) % 128);
  const int k = static_cast<int>(static_cast<int64_t>(offset) >> 52);
  const uint64_t iz = ix - (offset & (uint64_t{0xfff} << 52));
  const double z = double_of(iz);
  const double kd = static_cast<double>(k);
  const PowLogEntry& e = pow_log_table()[i];

  const double t1 = fused(kd, kPowLn2Hi, e.log_c);
  const double lo1 = fused(kd, kPowLn2Lo, e.log_c_tail);
  const double r = fused(z, e.inv_c, -1.0);
  const double ar = r * kPowA0;
  const double a12 = fused(r, kPowA2, kPowA1);
  const double a34 = fused(r, kPowA4, kPowA3);
  const double t2 = r + t1;
  const double ar2 = r * ar;
  const double ar3 = r * ar2;
  const double lo3 = fused(ar, r, -ar2);  // ar * r - ar2, exactly
  const double lo2 = (t1 - t2) + r;
  const double a56 = fused(r, kPowA6, kPowA5);
  const double hi = t2 + ar2;
  const double inner = fused(a56, ar2, a34);
  const double lo4 = (t2 - hi) + ar2;
  const double p = fused(ar2, inner, a12);
  double lo = lo1 + lo2;
  lo = lo + lo3;
  lo = lo + lo4;
  lo = fused(ar3, p, lo);
  const double y = hi + lo;
  *lo_out = (hi - y) + lo;
  return y;
}

// sign * exp(x + xtail), |xtail| < 2^-15 |x|; sign_bias is 0 or kPowSignBias.
EXACTVQ_LIBM_FN double pow_exp_with_tail(double x, double xtail, uint64_t sign_bias) {
  uint32_t abstop = top12(x) & 0x7ffu;
  bool out_of_range = false;
  if (abstop - top12(0x1p-54) >= top12(512.0) - top12(0x1p-54)) {
    if (abstop < top12(0x1p-54)) {
      const double one = 1.0 + x;
      return sign_bias != 0 ? -one : one;
    }
    if (abstop >= top12(1024.0)) {
      const bool negative = sign_bias != 0;
      return bits_of(x) >> 63 ? underflow_result(negative) : overflow_result(negative);
    }
    out_of_range = true;
  }
  double kd = fused(x, kExpInvLn2N, kExpShift);
  const uint64_t ki = bits_of(kd);
  kd = kd - kExpShift;
  double r = fused(kd, kExpNegLn2HiN, x);
  r = fused(kd, kExpNegLn2LoN, r);
  r = xtail + r;
  return exp_of_reduced(r, ki, sign_bias, out_of_range);
}

// 0 if iy (finite, non-zero) is not an integer, 1 if odd, 2 if even.
EXACTVQ_LIBM_FN int pow_integer_kind(uint64_t iy) {
  const int e = static_cast<int>(iy >> 52 & 0x7ff);
  if (e < 0x3ff) return 0;
  if (e > 0x3ff + 52) return 2;
  const uint64_t unit = uint64_t{1} << (0x3ff + 52 - e);
  if ((iy & (unit - 1)) != 0) return 0;
  return (iy & unit) != 0 ? 1 : 2;
}

// Zero, infinity or NaN.
EXACTVQ_LIBM_FN bool pow_zero_inf_nan(uint64_t i) { return 2 * i - 1 >= 2 * kInfinityBits - 1; }

EXACTVQ_LIBM_FN bool signalling_nan(double x) {
  // A NaN whose quiet bit is clear: flipping it makes 2*bits exceed 2*inf's.
  return 2 * (bits_of(x) ^ 0x0008000000000000u) > 2 * uint64_t{0x7ff8000000000000};
}

}  // namespace exactvq::libm::detail

namespace exactvq::libm::portable {
EXACTVQ_LIBM_FN double pow(double x, double y) {
  using namespace detail;
  uint64_t sign_bias = 0;
  uint64_t ix = bits_of(x);
  const uint64_t iy = bits_of(y);
  uint32_t topx = top12(x);
  const uint32_t topy = top12(y);
  if (topx - 0x001u >= 0x7ffu - 0x001u || (topy & 0x7ffu) - 0x3beu >= 0x43eu - 0x3beu) {
    // x is zero, subnormal, negative, infinite or NaN, or |y| < 2^-65,
    // |y| >= 2^63 or y is NaN.
    if (pow_zero_inf_nan(iy)) {
      if (2 * iy == 0) return signalling_nan(x) ? nan_sum(x, y) : 1.0;
      if (ix == bits_of(1.0)) return signalling_nan(y) ? nan_sum(x, y) : 1.0;
      if (2 * ix > 2 * kInfinityBits || 2 * iy > 2 * kInfinityBits) return nan_sum(x, y);
      if (2 * ix == 2 * bits_of(1.0)) return 1.0;
      if ((2 * ix < 2 * bits_of(1.0)) == !(iy >> 63)) return 0.0;  // |x| < 1, y = inf; or > 1, -inf
      return y * y;
    }
    if (pow_zero_inf_nan(ix)) {
      if (2 * ix > 2 * kInfinityBits) {
        // NaN x: x86's x * x and 1 / x2 give x quieted, and the negation below
        // flips its sign; a GPU's product would give its own NaN instead.
        uint64_t r = ix | 0x0008000000000000u;
        if (ix >> 63 && pow_integer_kind(iy) == 1) r ^= 0x8000000000000000u;
        return double_of(r);
      }
      double x2 = x * x;
      bool negative = false;
      if (ix >> 63 && pow_integer_kind(iy) == 1) {
        x2 = -x2;
        negative = true;
      }
      if (2 * ix == 0 && iy >> 63) return divide_by_zero(negative);
      return iy >> 63 ? 1 / x2 : x2;
    }
    // x and y finite and non-zero.
    if (ix >> 63) {
      const int kind = pow_integer_kind(iy);
      if (kind == 0) return invalid_result(x);
      if (kind == 1) sign_bias = kPowSignBias;
      ix &= 0x7fffffffffffffffu;
      topx &= 0x7ffu;
    }
    if ((topy & 0x7ffu) - 0x3beu >= 0x43eu - 0x3beu) {
      if (ix == bits_of(1.0)) return 1.0;
      if ((topy & 0x7ffu) < 0x3beu) return ix > bits_of(1.0) ? 1.0 + y : 1.0 - y;  // |y| < 2^-65
      return (ix > bits_of(1.0)) == (topy < 0x800u) ? overflow_result(false)
                                                    : underflow_result(false);
    }
    if (topx == 0) {
      // Subnormal x: normalise, the exponent going below -1022.
      ix = bits_of(x * 0x1p52);
      ix &= 0x7fffffffffffffffu;
      ix -= uint64_t{52} << 52;
    }
  }
  double lo;
  const double hi = pow_log_double_double(ix, &lo);
  const double ehi = y * hi;
  const double elo = fused(y, lo, fused(hi, y, -ehi));
  return pow_exp_with_tail(ehi, elo, sign_bias);
}

}  // namespace exactvq::libm::portable
