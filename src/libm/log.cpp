// glibc 2.36's log (Arm optimized-routines, FMA variant), pinned: log10
// calls it. A 128-entry table of 1/c and log(c) reduces x = 2^k z to
// r = z/c - 1 and a degree-6 polynomial finishes; inputs within 1/16 of 1
// take a degree-12 polynomial with r^2/2 in double-double instead. The
// fusions are those of the FMA build's machine code (docs/spec/libm.md).
#include <bit>
#include <cmath>
#include <cstdint>

#include "libm/fp_bits.h"
#include "libm/libm.h"

namespace exactvq::libm {

namespace {

using namespace detail;

// ln 2 split: a 42-bit head (k ln2hi exact) and its tail.
constexpr double kLn2Hi = 0x1.62e42fefa38p-1;
constexpr double kLn2Lo = 0x1.ef35793c7673p-45;
// log1p(r) - r ~ A0 r^2 + A1 r^3 + ... + A4 r^6 for |r| < 1/256.
constexpr double kPoly[5] = {-0x1.0000000000001p-1, 0x1.555555551305bp-2, -0x1.fffffffeb459p-3,
                             0x1.999b324f10111p-3, -0x1.55575e506c89fp-3};
// Near 1: log1p(r) - r ~ B0 r^2 + B1 r^3 + ... + B10 r^12, B0 = -1/2.
constexpr double kNearOnePoly[11] = {-0x1p-1,
                                     0x1.5555555555577p-2,
                                     -0x1.ffffffffffdcbp-3,
                                     0x1.999999995dd0cp-3,
                                     -0x1.55555556745a7p-3,
                                     0x1.24924a344de3p-3,
                                     -0x1.fffffa4423d65p-4,
                                     0x1.c7184282ad6cap-4,
                                     -0x1.999eb43b068ffp-4,
                                     0x1.78182f7afd085p-4,
                                     -0x1.5521375d145cdp-4};

// For each of 128 subintervals of [0x1.6p-1, 0x1.6p0): 1/c and log(c) for a c
// near its centre.
struct Entry {
  double inv_c, log_c;
};
constexpr Entry kTable[128] = {
    {0x1.734f0c3e0de9fp+0, -0x1.7cc7f79e69p-2},  {0x1.713786a2ce91fp+0, -0x1.76feec20dp-2},
    {0x1.6f26008fab5ap+0, -0x1.713e31351ep-2},   {0x1.6d1a61f138c7dp+0, -0x1.6b85b382878p-2},
    {0x1.6b1490bc5b4d1p+0, -0x1.65d55908078p-2}, {0x1.69147332f0cbap+0, -0x1.602d07618p-2},
    {0x1.6719f18224223p+0, -0x1.5a8ca86909p-2},  {0x1.6524f99a51ed9p+0, -0x1.54f4356035p-2},
    {0x1.63356aa8f24c4p+0, -0x1.4f637c36b4p-2},  {0x1.614b36b9ddc14p+0, -0x1.49da7fda85p-2},
    {0x1.5f66452c65c4cp+0, -0x1.445923989a8p-2}, {0x1.5d867b5912c4fp+0, -0x1.3edf439b0b8p-2},
    {0x1.5babccb5b90dep+0, -0x1.396ce448f7p-2},  {0x1.59d61f2d91a78p+0, -0x1.3401e17bdap-2},
    {0x1.5805612465687p+0, -0x1.2e9e2ef468p-2},  {0x1.56397cee76bd3p+0, -0x1.2941b3830ep-2},
    {0x1.54725e2a77f93p+0, -0x1.23ec58cda88p-2}, {0x1.52aff42064583p+0, -0x1.1e9e129279p-2},
    {0x1.50f22dbb2bddfp+0, -0x1.1956d2b48f8p-2}, {0x1.4f38f4734ded7p+0, -0x1.141679ab9f8p-2},
    {0x1.4d843cfde284p+0, -0x1.0edd094ef98p-2},  {0x1.4bd3ec078a3c8p+0, -0x1.09aa518db1p-2},
    {0x1.4a27fc3e0258ap+0, -0x1.047e65263b8p-2}, {0x1.4880524d48434p+0, -0x1.feb224586fp-3},
    {0x1.46dce1b192d0bp+0, -0x1.f474a7517bp-3},  {0x1.453d9d3391854p+0, -0x1.ea4443d103p-3},
    {0x1.43a2744b4845ap+0, -0x1.e020d44e9bp-3},  {0x1.420b54115f8fbp+0, -0x1.d60a22977fp-3},
    {0x1.40782da3ef4b1p+0, -0x1.cc00104959p-3},  {0x1.3ee8f5d57fe8fp+0, -0x1.c202956891p-3},
    {0x1.3d5d9a00b4ce9p+0, -0x1.b81178d811p-3},  {0x1.3bd60c010c12bp+0, -0x1.ae2c9ccd3dp-3},
    {0x1.3a5242b75dab8p+0, -0x1.a45402e129p-3},  {0x1.38d22cd9fd002p+0, -0x1.9a877681dfp-3},
    {0x1.3755bc5847a1cp+0, -0x1.90c6d69483p-3},  {0x1.35dce49ad36e2p+0, -0x1.87120a645cp-3},
    {0x1.34679984dd44p+0, -0x1.7d68fb4143p-3},   {0x1.32f5cceffcb24p+0, -0x1.73cb83c627p-3},
    {0x1.3187775a10d49p+0, -0x1.6a39a9b376p-3},  {0x1.301c8373e399p+0, -0x1.60b3154b7ap-3},
    {0x1.2eb4ebb95f841p+0, -0x1.5737d76243p-3},  {0x1.2d50a0219a9d1p+0, -0x1.4dc7b8fc23p-3},
    {0x1.2bef9a8b7fd2ap+0, -0x1.4462c51d2p-3},   {0x1.2a91c7a0c1babp+0, -0x1.3b08abc83p-3},
    {0x1.293726014b53p+0, -0x1.31b996b49p-3},    {0x1.27dfa5757a1f5p+0, -0x1.2875490a44p-3},
    {0x1.268b39b1d3bbfp+0, -0x1.1f3b9f879ap-3},  {0x1.2539d838ff5bdp+0, -0x1.160c8252cap-3},
    {0x1.23eb7aac9083bp+0, -0x1.0ce7f57f72p-3},  {0x1.22a012ba940b6p+0, -0x1.03cdc49feap-3},
    {0x1.2157996cc4132p+0, -0x1.f57bdbc4b8p-4},  {0x1.201201dd2fc9bp+0, -0x1.e370896404p-4},
    {0x1.1ecf4494d480bp+0, -0x1.d17983ef94p-4},  {0x1.1d8f5528f6569p+0, -0x1.bf9674ed8ap-4},
    {0x1.1c52311577e7cp+0, -0x1.adc79202f6p-4},  {0x1.1b17c74cb26e9p+0, -0x1.9c0c3e7288p-4},
    {0x1.19e010c2c1ab6p+0, -0x1.8a646b372cp-4},  {0x1.18ab07bb670bdp+0, -0x1.78d01b3acp-4},
    {0x1.1778a25efbcb6p+0, -0x1.674f14538p-4},   {0x1.1648d354c31dap+0, -0x1.55e0e6d878p-4},
    {0x1.151b990275fddp+0, -0x1.4485cdea1ep-4},  {0x1.13f0ea432d24cp+0, -0x1.333d94d6aap-4},
    {0x1.12c8b7210f9dap+0, -0x1.22079f8c56p-4},  {0x1.11a3028ecb531p+0, -0x1.10e4698622p-4},
    {0x1.107fbda8434afp+0, -0x1.ffa6c6ad2p-5},   {0x1.0f5ee0f4e6bb3p+0, -0x1.dda8d4a774p-5},
    {0x1.0e4065d2a9fcep+0, -0x1.bbcece485p-5},   {0x1.0d244632ca521p+0, -0x1.9a1894012cp-5},
    {0x1.0c0a77ce2981ap+0, -0x1.788583302cp-5},  {0x1.0af2f83c636d1p+0, -0x1.5715e67d68p-5},
    {0x1.09ddb98a01339p+0, -0x1.35c8a49658p-5},  {0x1.08cabaf52e7dfp+0, -0x1.149e364154p-5},
    {0x1.07b9f2f4e28fbp+0, -0x1.e72c082eb8p-6},  {0x1.06ab58c358f19p+0, -0x1.a55f152528p-6},
    {0x1.059eea5ecf92cp+0, -0x1.63d62cf818p-6},  {0x1.04949cdd12c9p+0, -0x1.228fb8caap-6},
    {0x1.038c6c6f0ada9p+0, -0x1.c317b20f9p-7},   {0x1.02865137932a9p+0, -0x1.419355daap-7},
    {0x1.0182427ea7348p+0, -0x1.81203c2ecp-8},   {0x1.008040614b195p+0, -0x1.004097924p-9},
    {0x1.fe01ff726fa1ap-1, 0x1.feff3849p-9},     {0x1.fa11cc261ea74p-1, 0x1.7dc41353dp-7},
    {0x1.f6310b081992ep-1, 0x1.3cea3c4c28p-6},   {0x1.f25f63ceeadcdp-1, 0x1.b9fc11489p-6},
    {0x1.ee9c8039113e7p-1, 0x1.1b0d8ce11p-5},    {0x1.eae8078cbb1abp-1, 0x1.58a5bd001cp-5},
    {0x1.e741aa29d0c9bp-1, 0x1.95c8340d88p-5},   {0x1.e3a91830a99b5p-1, 0x1.d276aef578p-5},
    {0x1.e01e009609a56p-1, 0x1.07598e598cp-4},   {0x1.dca01e577bb98p-1, 0x1.253f5e30d2p-4},
    {0x1.d92f20b7c9103p-1, 0x1.42edd8b38p-4},    {0x1.d5cac66fb5ccep-1, 0x1.606598757cp-4},
    {0x1.d272caa5ede9dp-1, 0x1.7da76356ap-4},    {0x1.cf26e3e6b2ccdp-1, 0x1.9ab434e1c6p-4},
    {0x1.cbe6da2a77902p-1, 0x1.b78c7bb0d6p-4},   {0x1.c8b266d37086dp-1, 0x1.d431332e72p-4},
    {0x1.c5894bd5d5804p-1, 0x1.f0a3171de6p-4},   {0x1.c26b533bb9f8cp-1, 0x1.067152b914p-3},
    {0x1.bf583eeece73fp-1, 0x1.147858292bp-3},   {0x1.bc4fd75db96c1p-1, 0x1.2266ecdca3p-3},
    {0x1.b951e0c864a28p-1, 0x1.303d7a6c55p-3},   {0x1.b65e2c5ef3e2cp-1, 0x1.3dfc33c331p-3},
    {0x1.b374867c9888bp-1, 0x1.4ba366b7a8p-3},   {0x1.b094b211d304ap-1, 0x1.5933928d1fp-3},
    {0x1.adbe885f2ef7ep-1, 0x1.66acd2418fp-3},   {0x1.aaf1d31603da2p-1, 0x1.740f8ec669p-3},
    {0x1.a82e63fd358a7p-1, 0x1.815c0f51afp-3},   {0x1.a5740ef09738bp-1, 0x1.8e92954f68p-3},
    {0x1.a2c2a90ab4b27p-1, 0x1.9bb3602f84p-3},   {0x1.a01a01393f2d1p-1, 0x1.a8bed1c2cp-3},
    {0x1.9d79f24db3c1bp-1, 0x1.b5b515c01dp-3},   {0x1.9ae2505c7b19p-1, 0x1.c2967ccbccp-3},
    {0x1.9852ef297ce2fp-1, 0x1.cf635d5486p-3},   {0x1.95cbaeea44b75p-1, 0x1.dc1bd3446cp-3},
    {0x1.934c69de74838p-1, 0x1.e8c01b8cfep-3},   {0x1.90d4f2f6752e6p-1, 0x1.f5509c0179p-3},
    {0x1.8e6528effd79dp-1, 0x1.00e6c121fb8p-2},  {0x1.8bfce9fcc007cp-1, 0x1.071b80e93dp-2},
    {0x1.899c0dabec30ep-1, 0x1.0d46b9e867p-2},   {0x1.87427aa2317fbp-1, 0x1.13687334bdp-2},
    {0x1.84f00acb39a08p-1, 0x1.1980d672348p-2},  {0x1.82a49e8653e55p-1, 0x1.1f8ffe0cc8p-2},
    {0x1.8060195f4026p-1, 0x1.2595fd76368p-2},   {0x1.7e22563e0a329p-1, 0x1.2b9300914a8p-2},
    {0x1.7beb377dcb5adp-1, 0x1.3187210436p-2},   {0x1.79baa679725c2p-1, 0x1.377266dec18p-2},
    {0x1.77907f2170657p-1, 0x1.3d54ffbaf3p-2},   {0x1.756cadbd6130cp-1, 0x1.432eee32fep-2},
};

constexpr uint64_t kTableOrigin = std::bit_cast<uint64_t>(0x1.6p-1);
// Inputs in [1 - 2^-4, 1 + 0x1.09p-4) take the near-one polynomial.
constexpr uint64_t kNearOneLow = std::bit_cast<uint64_t>(1.0 - 0x1p-4);
constexpr uint64_t kNearOneHigh = std::bit_cast<uint64_t>(1.0 + 0x1.09p-4);

double near_one(double x) {
  const double* b = kNearOnePoly;
  const double r = x - 1.0;
  const double b12 = fused(r, b[2], b[1]);
  const double b45 = fused(r, b[5], b[4]);
  const double r2 = r * r;
  const double b78 = fused(r, b[8], b[7]);
  const double b123 = fused(r2, b[3], b12);
  const double b456 = fused(r2, b[6], b45);
  const double r3 = r * r2;
  double upper = fused(r2, b[9], b78);
  upper = fused(r3, b[10], upper);
  const double middle = fused(upper, r3, b456);
  const double poly = fused(middle, r3, b123);  // y = r3 * poly below
  // r^2/2 in double-double: r's head has 26 bits, so its square is exact.
  const double w = fused(r, 0x1p27, r);
  const double rhi = fused(-0x1p27, r, w);
  const double rhi2 = rhi * rhi;
  const double rlo = r - rhi;
  const double hi = fused(rhi2, b[0], r);
  const double r_less_hi = r - hi;
  const double r_plus_rhi = r + rhi;
  double lo = fused(rhi2, b[0], r_less_hi);
  lo = fused(b[0] * rlo, r_plus_rhi, lo);
  const double y = fused(poly, r3, lo);
  return hi + y;
}

}  // namespace

double log(double x) {
  uint64_t ix = bits_of(x);
  if (ix - kNearOneLow < kNearOneHigh - kNearOneLow) {
    if (ix == bits_of(1.0)) return 0.0;
    return near_one(x);
  }
  const uint32_t top = static_cast<uint32_t>(ix >> 48);
  if (top - 0x0010u >= 0x7ff0u - 0x0010u) {
    // Zero, subnormal, negative, infinite or NaN.
    if (ix * 2 == 0) return divide_by_zero(true);
    if (ix == bits_of(HUGE_VAL)) return x;
    if ((top & 0x8000u) != 0 || (top & 0x7ff0u) == 0x7ff0u) return invalid_result(x);
    ix = bits_of(x * 0x1p52);
    ix -= uint64_t{52} << 52;
  }
  const uint64_t offset = ix - kTableOrigin;
  const int i = static_cast<int>((offset >> 45) % 128);
  const int k = static_cast<int>(static_cast<int64_t>(offset) >> 52);
  const uint64_t iz = ix - (offset & (uint64_t{0xfff} << 52));
  const double z = double_of(iz);
  const double kd = static_cast<double>(k);

  const double w = fused(kd, kLn2Hi, kTable[i].log_c);
  const double r = fused(z, kTable[i].inv_c, -1.0);
  const double a12 = fused(r, kPoly[2], kPoly[1]);
  const double hi = r + w;
  const double r2 = r * r;
  double lo = (w - hi) + r;
  lo = fused(kd, kLn2Lo, lo);
  const double r3 = r * r2;
  const double a34 = fused(r, kPoly[4], kPoly[3]);
  lo = fused(r2, kPoly[0], lo);
  const double p = fused(a34, r2, a12);
  const double y = fused(r3, p, lo);
  return y + hi;
}

}  // namespace exactvq::libm
