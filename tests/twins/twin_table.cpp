#include "twin_table.h"

#include <gtest/gtest.h>

#include "core_clock.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <regex>
#include <string>

namespace exactvq::twins {

namespace {

std::vector<Row>& table() {
  static std::vector<Row> rows;
  return rows;
}

struct Scope {
  const Row& row;
  explicit Scope(const Row& r) : row(r) {
    if (row.scope) row.scope(true);
  }
  ~Scope() {
    if (row.scope) row.scope(false);
  }
};

std::string first_difference(const Bytes& twin, const Bytes& reference) {
  if (twin.size() != reference.size())
    return "sizes differ: " + std::to_string(twin.size()) + " bytes vs " +
           std::to_string(reference.size());
  size_t i = 0;
  while (i < twin.size() && twin[i] == reference[i]) ++i;
  char hex[64];
  std::snprintf(hex, sizeof hex, " (0x%02x vs 0x%02x)", twin[i], reference[i]);
  return "first difference at byte " + std::to_string(i) + " of " + std::to_string(twin.size()) +
         hex;
}

// The reference's results of the cases of one operation, shared by its rows.
Bytes cached_reference(const Row& row, const Case& c, const Prepared& p) {
  static std::map<std::string, Bytes> cache;
  if (row.reference_key.empty()) return p.reference();
  const std::string key = row.reference_key + "|" + std::to_string(c.seed) + "|" + c.what;
  auto it = cache.find(key);
  if (it == cache.end()) it = cache.emplace(key, p.reference()).first;
  return it->second;
}

class Twin : public ::testing::TestWithParam<size_t> {};

TEST_P(Twin, EqualsReference) {
  const Row& row = table()[GetParam()];
  if (const std::string why = row.unavailable(); !why.empty())
    GTEST_SKIP() << row.name << " skipped: " << why;
  const Scope scope(row);
  const std::vector<Case> cases = row.cases();
  // Under an instruction-set emulator (tools/arm64_twins.sh) the full-size timed
  // cases cost minutes each and add no code path that the smaller cases of the
  // same widths miss; they are left out there, and counted.
  const bool untimed = std::getenv("EXACTVQ_TWIN_UNTIMED") != nullptr;
  size_t compared = 0, bytes = 0, left_out = 0;
  for (const Case& c : cases) {
    if (untimed && c.timed) {
      ++left_out;
      continue;
    }
    const Prepared p = row.prepare(c);
    const Bytes want = cached_reference(row, c, p);
    const Bytes got = p.twin();
    if (got != want) {
      ADD_FAILURE() << row.name << ", case " << c.what << ", seed " << c.seed << ": "
                    << first_difference(got, want);
      if (::testing::Test::HasFailure() && compared > 0) return;
      continue;
    }
    ++compared;
    bytes += got.size();
  }
  std::printf("[ twin ] %s: %zu cases, %zu bytes equal", row.name.c_str(), compared, bytes);
  if (left_out > 0) std::printf(" (%zu timed cases left out: EXACTVQ_TWIN_UNTIMED)", left_out);
  std::printf("\n");
}

std::string test_name(const ::testing::TestParamInfo<size_t>& info) {
  std::string n = table()[info.param].name;
  for (char& ch : n)
    if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
  return n;
}

INSTANTIATE_TEST_SUITE_P(Rows, Twin, ::testing::Range(size_t{0}, table().size()), test_name);

double seconds_of(const std::function<Bytes()>& f, double min_seconds) {
  using clock = std::chrono::steady_clock;
  std::vector<double> rounds;
  for (int round = 0; round < 5; ++round) {
    int calls = 0;
    const auto start = clock::now();
    double elapsed = 0;
    do {
      f();
      ++calls;
      elapsed = std::chrono::duration<double>(clock::now() - start).count();
    } while (elapsed < min_seconds / 5);
    rounds.push_back(elapsed / calls);
  }
  std::sort(rounds.begin(), rounds.end());
  return rounds[2];
}

}  // namespace

void register_row(Row row) { table().push_back(std::move(row)); }
const std::vector<Row>& rows() { return table(); }

// --bench: every row's timed cases (of the rows whose names `filter`, an
// ECMAScript regular expression, finds), the twin beside its reference.
int run_bench(const std::string& filter, double min_seconds) {
  std::regex pick;
  try {
    pick = std::regex(filter);
  } catch (const std::regex_error& e) {
    std::fprintf(stderr, "twin_tests: --filter=%s: %s\n", filter.c_str(), e.what());
    return 2;
  }
  if (const double ghz = core_clock_ghz(min_seconds); ghz > 0)
    std::printf("core clock %.2f GHz (dependent additions): cycles a pixel = %.0f / Mpixel/s\n\n",
                ghz, 1000 * ghz);
  std::printf(
      "| row | case | twin Mpixel/s | reference Mpixel/s | twin / reference "
      "|\n|---|---|---|---|---|\n");
  for (const Row& row : table()) {
    if (!std::regex_search(row.name, pick)) continue;
    if (const std::string why = row.unavailable(); !why.empty()) {
      std::printf("| %s | skipped: %s | | | |\n", row.name.c_str(), why.c_str());
      continue;
    }
    const Scope scope(row);
    for (const Case& c : row.cases()) {
      if (!c.timed) continue;
      const Prepared p = row.prepare(c);
      if (!std::getenv("TWIN_TIME_ANYWAY") && p.twin() != p.reference()) {
        std::printf("| %s | %s | DIFFERS from the reference (seed %llu) | | |\n", row.name.c_str(),
                    c.what.c_str(), static_cast<unsigned long long>(c.seed));
        continue;
      }
      const double t = seconds_of(p.twin, min_seconds), r = seconds_of(p.reference, min_seconds);
      const double units = row.work(c) / 1e6;
      std::printf("| %s | %s | %.1f | %.1f | %.2f |\n", row.name.c_str(), c.what.c_str(), units / t,
                  units / r, r / t);
      std::fflush(stdout);
    }
  }
  return 0;
}

}  // namespace exactvq::twins
