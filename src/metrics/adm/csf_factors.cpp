#include "libm/libm.h"
#include "metrics/adm/csf_factors.h"

#include <cmath>
#include <cstdint>
#include <optional>

#include <fmt/format.h>

#include "core/error.h"
#include "metrics/adm/barten_csf.h"
#include "metrics/adm/options.h"

namespace exactvq::adm {

const WatsonModel kWatsonLuma = {
    0.495f,
    0.466f,
    0.401f,
    {1.501f, 1.0f, 0.534f, 1.0f},
    {{0.62171f, 0.67234f, 0.72709f, 0.67234f},
     {0.34537f, 0.41317f, 0.49428f, 0.41317f},
     {0.18004f, 0.22727f, 0.28688f, 0.22727f},
     {0.091401f, 0.11792f, 0.15214f, 0.11792f}},
};

namespace {

// Every value below as libvmaf 3.2.0 computes it for nvd * rdh = 3240 with
// glibc (tests/adm recomputes each one with extended precision).
constexpr CsfFactors kDefault = {
    {0x1.1cc774p-6f, 0x1.06050cp-5f, 0x1.634f1p-5f, 0x1.762816p-5f},
    {0x1.820d54p-8f, 0x1.d48d46p-7f, 0x1.8fb80cp-6f, 0x1.008392p-5f},
    {0x1.60682e40ca298p-18, 0x1.127cb41f44aabp-15, 0x1.5638de3f6e459p-14, 0x1.8f9f6fa0b6d35p-14},
    {0x1.b6f67955c18e8p-23, 0x1.88675620541cbp-19, 0x1.e740af5557bdcp-17, 0x1.018b80fefe987p-15},
    {36453, 36453, 49417},
    {0, 137373792, 186284160, 196165808},
    {0, 61414028, 104783920, 134487184},
};

constexpr double kPi = 3.14159265358979323846264338327;

// x86-64's truncating conversions (cvttsd2si): toward zero, and the
// "integer indefinite" (the most negative value) for NaN and out of range.
int32_t truncate_to_i32(double v) {
  if (!(v > -2147483649.0 && v < 2147483648.0)) return INT32_MIN;
  return static_cast<int32_t>(v);
}
int64_t truncate_to_i64(double v) {
  if (!(v >= -9223372036854775808.0 && v < 9223372036854775808.0)) return INT64_MIN;
  return static_cast<int64_t>(v);
}

// (uint16_t)(double) as gcc emits it on x86-64: through an int32, low 16 bits.
uint16_t to_u16_truncated(double v) {
  return static_cast<uint16_t>(static_cast<uint32_t>(truncate_to_i32(v)));
}

// (uint32_t)(double) as gcc emits it on x86-64: through an int64, low 32 bits.
uint32_t to_u32_truncated(double v) {
  return static_cast<uint32_t>(static_cast<uint64_t>(truncate_to_i64(v)));
}

// libvmaf's dwt_quant_step, operation for operation.
float quant_step(int lambda, int theta, float r) {
  const WatsonModel& m = kWatsonLuma;
  const float temp =
      static_cast<float>(libm::log10(libm::pow(2.0, lambda + 1) * m.f0 * m.g[theta] / r));
  return static_cast<float>(2.0 * m.a * libm::pow(10.0, m.k * temp * temp) /
                            m.amplitude[lambda][theta]);
}

}  // namespace

float pixels_per_degree(double norm_view_dist, int ref_display_height) {
  return static_cast<float>(norm_view_dist * ref_display_height * kPi / 180.0);
}

double exact_cube(float f) {
  if (f == 0) return 0.0 * f;
  int e = 0;
  const double m = std::frexp(static_cast<double>(f), &e);      // f = m * 2^e, m in [0.5, 1)
  const int64_t sig = static_cast<int64_t>(std::ldexp(m, 24));  // exact: 24 bits
  __extension__ typedef unsigned __int128 u128;
  const u128 c = static_cast<u128>(sig < 0 ? -sig : sig) * static_cast<u128>(sig < 0 ? -sig : sig) *
                 static_cast<u128>(sig < 0 ? -sig : sig);  // < 2^72
  int bits = 0;
  for (u128 t = c; t != 0; t >>= 1) ++bits;
  const int drop = bits > 53 ? bits - 53 : 0;
  u128 kept = c >> drop;
  if (drop > 0) {
    const u128 rest = c & ((u128{1} << drop) - 1);
    const u128 half = u128{1} << (drop - 1);
    if (rest > half || (rest == half && (kept & 1) != 0)) kept += 1;
  }
  const double magnitude =
      std::ldexp(static_cast<double>(static_cast<uint64_t>(kept)), drop + 3 * (e - 24));
  return sig < 0 ? -magnitude : magnitude;
}

const CsfFactors& default_csf_factors() { return kDefault; }

namespace {

// The factors' derived forms; `pinned_scale0`: libvmaf's constants for
// scale 0 (Watson's at the default geometry).
CsfFactors complete(CsfFactors f, bool pinned_scale0) {
  for (int lambda = 0; lambda < 4; ++lambda) {
    f.cube_hv[lambda] = exact_cube(f.factor_hv[lambda]);
    f.cube_d[lambda] = exact_cube(f.factor_d[lambda]);
    if (lambda > 0) {
      f.fixed_hv[lambda] = to_u32_truncated(f.factor_hv[lambda] * 4294967296.0);
      f.fixed_d[lambda] = to_u32_truncated(f.factor_d[lambda] * 4294967296.0);
    }
  }
  if (pinned_scale0) {
    f.scale0_fixed[0] = 36453;
    f.scale0_fixed[1] = 36453;
    f.scale0_fixed[2] = 49417;
  } else {
    f.scale0_fixed[0] = to_u16_truncated(f.factor_hv[0] * 2097152.0);
    f.scale0_fixed[1] = f.scale0_fixed[0];
    f.scale0_fixed[2] = to_u16_truncated(f.factor_d[0] * 8388608.0);
  }
  return f;
}

}  // namespace

CsfFactors csf_factors(double norm_view_dist, int ref_display_height) {
  const double product = norm_view_dist * ref_display_height;
  if (product == 3.0 * 1080) return kDefault;
  CsfFactors f{};
  const float r = pixels_per_degree(norm_view_dist, ref_display_height);
  for (int lambda = 0; lambda < 4; ++lambda) {
    f.factor_hv[lambda] = 1.0f / quant_step(lambda, 1, r);
    f.factor_d[lambda] = 1.0f / quant_step(lambda, 2, r);
  }
  // libvmaf keeps its constants for any product within 1e-8 of the default.
  return complete(f, std::fabs(product - 3.0 * 1080) < 1.0e-8);
}

CsfFactors csf_factors(const AdmOptions& o) {
  const double nvd = o.norm_view_dist;
  const int rdh = o.ref_display_height;
  CsfFactors f{};
  switch (o.csf_mode) {
    case CsfMode::kWatson97:
      return csf_factors(nvd, rdh);
    case CsfMode::kBarten:
      for (int lambda = 0; lambda < 4; ++lambda) {
        f.factor_hv[lambda] = barten_csf(lambda, nvd, rdh, o.csf_scale);
        f.factor_d[lambda] = barten_csf(lambda, nvd, rdh, o.csf_diag_scale);
      }
      return complete(f, false);
    case CsfMode::kBartenWatsonBlend:
    case CsfMode::kBartenWatsonBlendMae: {
      const bool mae = o.csf_mode == CsfMode::kBartenWatsonBlendMae;
      for (int lambda = 0; lambda < 4; ++lambda) {
        const std::optional<float> hv = blended_csf(lambda, false, mae, nvd, rdh);
        const std::optional<float> d = blended_csf(lambda, true, mae, nvd, rdh);
        if (!hv || !d)
          throw UsageError(fmt::format(
              "feature adm: adm_csf_mode={} has CSF tables only for adm_ref_display_height, "
              "adm_norm_view_dist of 1080, 3; 1080, 5; 2160, 1.5; 2160, 3; 2160, 5; 720, 3; "
              "720, 5; 480, 3; 480, 5 (got {}, {:g}: libvmaf would use an error code as the "
              "factor)",
              static_cast<int>(o.csf_mode), rdh, nvd));
        f.factor_hv[lambda] = *hv;
        f.factor_d[lambda] = *d;
      }
      return complete(f, false);
    }
  }
  throw UsageError(
      fmt::format("feature adm: adm_csf_mode={} is not one of 0..3", static_cast<int>(o.csf_mode)));
}

}  // namespace exactvq::adm
