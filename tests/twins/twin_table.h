// The twin table, dav1d's checkasm in spirit: every optimised routine of every
// backend (each Highway target, CUDA where a GPU exists, OpenCL on PoCL) runs
// beside its scalar reference on seeded inputs, and the two outputs are compared
// with memcmp; a failure prints the row, the case and its seed. With --bench,
// each row's timed cases run beside their twin instead, and the rates are
// printed side by side.
//
// A row is one routine on one backend, named metric.operation/backend
// ("ssim.exact_sums/cuda-emulate"). Adding a backend or a metric adds rows
// (register_row, from any file of this folder), not a harness.
#pragma once

#include <cstdint>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

namespace exactvq::twins {

using Bytes = std::vector<unsigned char>;

// Appends the bytes of `n` values at `p`.
template <typename T>
void put(Bytes& out, const T* p, size_t n) {
  const size_t at = out.size();
  out.resize(at + n * sizeof(T));
  if (n) std::memcpy(out.data() + at, p, n * sizeof(T));
}
template <typename T>
void put(Bytes& out, const std::vector<T>& v) {
  put(out, v.data(), v.size());
}

// One case of a row. Every input is made from `seed` (so a failure replays);
// the other fields are the row's to interpret.
struct Case {
  uint64_t seed = 0;
  int bits = 8;
  int width = 1, height = 1;
  int fill = 0;
  int a = 0, b = 0;    // row-specific: an output range, a set of rows, a frame count...
  bool timed = false;  // one of the cases --bench times
  std::string what;    // printed on failure, beside the seed
};

// A prepared case: its input built once, the twin and the reference over it.
struct Prepared {
  std::function<Bytes()> twin;
  std::function<Bytes()> reference;
};

struct Row {
  std::string name;
  // Why the row cannot run here (no device, a target this CPU lacks); empty: it runs.
  std::function<std::string()> unavailable = [] { return std::string(); };
  std::function<std::vector<Case>()> cases;
  std::function<Prepared(const Case&)> prepare;
  // Rows of one operation over one case list share its reference's results.
  std::string reference_key;
  // Entered around the row's cases (a forced SIMD target); may be empty.
  std::function<void(bool enter)> scope;
  // Units of work a call does (pixels), for --bench's rates.
  std::function<double(const Case&)> work = [](const Case& c) {
    return double(c.width) * c.height;
  };
};

void register_row(Row row);
const std::vector<Row>& rows();

// A seed per case, from the row family's base and the case's position.
inline uint64_t case_seed(uint64_t base, size_t index) {
  uint64_t x = base + 0x9e3779b97f4a7c15ull * (index + 1);
  x ^= x >> 31;
  return x * 0xbf58476d1ce4e5b9ull;
}

// Registers rows from a static initialiser: EXACTVQ_TWIN_ROWS(name) { ... }.
struct Registrar {
  explicit Registrar(void (*add)()) { add(); }
};
#define EXACTVQ_TWIN_ROWS(name)                                                     \
  static void name();                                                               \
  [[maybe_unused]] static const ::exactvq::twins::Registrar name##_registrar{name}; \
  static void name()

}  // namespace exactvq::twins
