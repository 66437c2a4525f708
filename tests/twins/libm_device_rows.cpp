// Rows of the pinned C-library functions on a CUDA device (libm/portable.h: one
// definition for host and device) beside the host's libm::, bit for bit, on
// seeded operands: the ranges ciede meets (its pow of 2.4 and 1/3, pow and powf
// of 7, exp of -t^2, sin and cos of hue angles and their forms, atan2 of L*a*b*
// components), wider ranges (every binade of the reduction paths), any bits,
// and operands at table nodes and quadrant edges. NaN results too: the
// functions write an invalid operation's NaN on the bits, as x86 gives it, not
// as the GPU's arithmetic would (docs/spec/libm.md, "On devices").
#include <cuda_runtime_api.h>

#include <bit>
#include <utility>
#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "backends/cuda/cuda_check.h"
#include "backends/cuda/cuda_resources.h"
#include "libm/device/libm_kernels.h"
#include "libm/libm.h"
#include "twin_devices.h"
#include "twin_table.h"

namespace exactvq::twins {
namespace {

using libm::device_testing::Function;

constexpr size_t kOperands = size_t{1} << 18;

struct Operands {
  std::vector<double> x, y;
};

double uniform(std::mt19937_64& rng, double lo, double hi) {
  return std::uniform_real_distribution<double>(lo, hi)(rng);
}
// A double whose bits are uniform between those of lo and hi (0 <= lo < hi):
// every binade alike.
double in_bits(std::mt19937_64& rng, double lo, double hi) {
  return std::bit_cast<double>(std::uniform_int_distribution<uint64_t>(
      std::bit_cast<uint64_t>(lo), std::bit_cast<uint64_t>(hi))(rng));
}
double any_bits(std::mt19937_64& rng) { return std::bit_cast<double>(rng()); }
float any_float(std::mt19937_64& rng) { return std::bit_cast<float>(uint32_t(rng())); }
double near(std::mt19937_64& rng, double v, int ulps) {
  const int64_t d = std::uniform_int_distribution<int64_t>(-ulps, ulps)(rng);
  return std::bit_cast<double>(std::bit_cast<uint64_t>(v) + uint64_t(d));
}

struct Family {
  const char* what;
  void (*fill)(std::mt19937_64&, double& x, double& y);
};

struct FunctionRows {
  const char* name;
  Function f;
  std::vector<Family> families;
};

std::vector<FunctionRows> functions() {
  return {
      {"pow",
       Function::kPow,
       {{"ciede linear light: x in [0.04, 1.1], y = 2.4",
         [](std::mt19937_64& r, double& x, double& y) {
           x = uniform(r, 0.04, 1.1);
           y = 2.4;
         }},
        {"ciede lab f: x in [0.008856, 1.2], y = 1/3",
         [](std::mt19937_64& r, double& x, double& y) {
           x = uniform(r, 216.0 / 24389.0, 1.2);
           y = 1.0 / 3.0;
         }},
        {"ciede c-bar^7: x in [0, 400], y = 7",
         [](std::mt19937_64& r, double& x, double& y) {
           x = double(float(uniform(r, 0, 400)));
           y = 7.0;
         }},
        {"x of any binade up to 2^40, y in [-10, 10]",
         [](std::mt19937_64& r, double& x, double& y) {
           x = in_bits(r, 0x1p-1074, 0x1p40);
           y = uniform(r, -10, 10);
         }},
        {"x near 1 (the table's centre), y in [-2^20, 2^20]",
         [](std::mt19937_64& r, double& x, double& y) {
           x = in_bits(r, 1.0 - 0x1p-10, 1.0 + 0x1p-10);
           y = uniform(r, -0x1p20, 0x1p20);
         }},
        {"any bits",
         [](std::mt19937_64& r, double& x, double& y) {
           x = any_bits(r);
           y = r() % 4 == 0 ? double(int(r() % 64) - 32) : any_bits(r);
         }}}},
      {"powf",
       Function::kPowf,
       {{"ciede c-bar'^7: x in [0, 400], y = 7",
         [](std::mt19937_64& r, double& x, double& y) {
           x = double(float(uniform(r, 0, 400)));
           y = 7.0;
         }},
        {"any float x, y in {2, 7} or any float",
         [](std::mt19937_64& r, double& x, double& y) {
           x = double(any_float(r));
           const int k = int(r() % 3);
           y = k == 0 ? 2.0 : k == 1 ? 7.0 : double(any_float(r));
         }}}},
      {"exp",
       Function::kExp,
       {{"ciede -t^2: x in [-400, 0]",
         [](std::mt19937_64& r, double& x, double& y) {
           const float t = float(uniform(r, -12, 18));
           x = double(-(t * t));
           y = 0;
         }},
        {"x in [-750, 720] (subnormal and overflowing results)",
         [](std::mt19937_64& r, double& x, double& y) {
           x = uniform(r, -750, 720);
           y = 0;
         }},
        {"table nodes k ln2/128 +- 4 ulps",
         [](std::mt19937_64& r, double& x, double& y) {
           const int k = int(r() % 200000) - 100000;
           x = near(r, k * 0x1.62e42fefa39efp-1 / 128, 4);
           y = 0;
         }},
        {"any bits",
         [](std::mt19937_64& r, double& x, double& y) {
           x = any_bits(r);
           y = 0;
         }}}},
  };
}

// sin and cos share their families: the forms of ciede's hue angle, the
// kernels' ranges, nodes i/128, quadrant edges n pi/2, large and any arguments.
std::vector<Family> sin_cos_families() {
  constexpr double kPi = 3.14159265358979323846;
  return {{"ciede hue forms: h, h - pi/6, 2h, 3h + pi/30, 4h - 7pi/20, dh/2; h in [0, 4 pi)",
           [](std::mt19937_64& r, double& x, double& y) {
             const double h = double(float(uniform(r, 0, 4 * kPi)));
             switch (r() % 6) {
               case 0:
                 x = h;
                 break;
               case 1:
                 x = h - kPi / 6.0;
                 break;
               case 2:
                 x = 2.0 * h;
                 break;
               case 3:
                 x = 3.0 * h + kPi / 30.0;
                 break;
               case 4:
                 x = 4.0 * h - 7.0 * kPi / 20.0;
                 break;
               default:
                 x = double(float(uniform(r, -kPi, kPi))) / 2.0;
                 break;
             }
             y = 0;
           }},
          {"nodes i/128 +- 4 ulps, i < 110",
           [](std::mt19937_64& r, double& x, double& y) {
             x = near(r, double(r() % 110) / 128.0 + (r() % 2 ? 1.0 / 256 : 0.0), 4);
             if (r() % 2) x = -x;
             y = 0;
           }},
          {"quadrant edges n pi/2 +- 2 ulps, n < 2^17",
           [](std::mt19937_64& r, double& x, double& y) {
             x = near(r, double(r() % (1 << 17)) * (kPi / 2), 2);
             y = 0;
           }},
          {"x in [-8, 8] and [-1.1e8, 1.1e8]",
           [](std::mt19937_64& r, double& x, double& y) {
             x = r() % 2 ? uniform(r, -8, 8) : uniform(r, -1.1e8, 1.1e8);
             y = 0;
           }},
          {"any bits (the large reduction)", [](std::mt19937_64& r, double& x, double& y) {
             x = any_bits(r);
             y = 0;
           }}};
}

std::vector<Family> atan2_families() {
  return {{"ciede (a', b): float components in [-200, 200], zeros among them",
           [](std::mt19937_64& r, double& x, double& y) {
             x = r() % 16 == 0 ? 0.0 : double(float(uniform(r, -200, 200)));
             y = r() % 16 == 0 ? 0.0 : double(float(uniform(r, -200, 200)));
           }},
          {"ratios at nodes (i + 16)/256 +- 3 ulps, all quadrants",
           [](std::mt19937_64& r, double& x, double& y) {
             x = uniform(r, 0.5, 2.0);
             y = near(r, x * double(r() % 241 + 16) / 256.0, 3);
             if (r() % 2) std::swap(x, y);
             if (r() % 2) x = -x;
             if (r() % 2) y = -y;
           }},
          {"x and y of any binade",
           [](std::mt19937_64& r, double& x, double& y) {
             x = in_bits(r, 0x1p-1074, 0x1p1023);
             y = in_bits(r, 0x1p-1074, 0x1p1023);
             if (r() % 2) x = -x;
             if (r() % 2) y = -y;
           }},
          {"any bits", [](std::mt19937_64& r, double& x, double& y) {
             x = any_bits(r);
             y = any_bits(r);
           }}};
}

double on_host(Function f, double x, double y) {
  switch (f) {
    case Function::kExp:
      return libm::exp(x);
    case Function::kPow:
      return libm::pow(x, y);
    case Function::kPowf:
      return double(libm::powf(float(x), float(y)));
    case Function::kSin:
      return libm::sin(x);
    case Function::kCos:
      return libm::cos(x);
    case Function::kAtan2:
      return libm::atan2(y, x);
  }
  return 0;
}

Bytes result_bytes(const std::vector<double>& v) {
  Bytes out;
  put(out, v);
  return out;
}

std::vector<double> on_device(Function f, const Operands& in) {
  const size_t n = in.x.size(), bytes = n * sizeof(double);
  cuda::DeviceBuffer x(bytes), y(bytes), out(bytes);
  cuda::check(cudaMemcpy(x.get(), in.x.data(), bytes, cudaMemcpyHostToDevice), "libm operands");
  cuda::check(cudaMemcpy(y.get(), in.y.data(), bytes, cudaMemcpyHostToDevice), "libm operands");
  libm::device_testing::launch_evaluate(f, x.get<double>(), y.get<double>(), out.get<double>(), n);
  std::vector<double> host(n);
  cuda::check(cudaMemcpy(host.data(), out.get(), bytes, cudaMemcpyDeviceToHost), "libm results");
  return host;
}

void register_function(const char* name, Function f, std::vector<Family> families) {
  Row row;
  row.name = fmt::format("libm.{}/cuda", name);
  row.reference_key = row.name;
  row.unavailable = [] { return cuda_device().why; };
  row.cases = [families] {
    std::vector<Case> all;
    for (size_t i = 0; i < families.size(); ++i) {
      Case c;
      c.seed = case_seed(0x11b3'de71ce, i);
      c.a = int(i);
      c.width = int(kOperands);
      c.what = fmt::format("{} operands: {}", kOperands, families[i].what);
      all.push_back(c);
    }
    return all;
  };
  row.prepare = [f, families](const Case& c) {
    auto in = std::make_shared<Operands>();
    std::mt19937_64 rng(c.seed);
    in->x.resize(kOperands);
    in->y.resize(kOperands);
    for (size_t i = 0; i < kOperands; ++i) families[size_t(c.a)].fill(rng, in->x[i], in->y[i]);
    Prepared p;
    p.twin = [f, in] {
      cuda_device();  // opens the device (and its context) first
      return result_bytes(on_device(f, *in));
    };
    p.reference = [f, in] {
      std::vector<double> v(in->x.size());
      for (size_t i = 0; i < v.size(); ++i) v[i] = on_host(f, in->x[i], in->y[i]);
      return result_bytes(v);
    };
    return p;
  };
  register_row(std::move(row));
}

EXACTVQ_TWIN_ROWS(libm_device_rows) {
  for (const FunctionRows& r : functions()) register_function(r.name, r.f, r.families);
  register_function("sin", Function::kSin, sin_cos_families());
  register_function("cos", Function::kCos, sin_cos_families());
  register_function("atan2", Function::kAtan2, atan2_families());
}

}  // namespace
}  // namespace exactvq::twins
