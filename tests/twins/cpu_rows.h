// Rows of the CPU's Highway kernels: one per compiled SIMD target, forced while
// the row runs (dav1d's checkasm enables CPU levels the same way); a target
// this machine lacks is skipped with a message.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "backends/cpu/simd_targets.h"
#include "twin_table.h"

namespace exactvq::twins {

// Registers `row` once per compiled target, named row.name + "/cpu-" + target.
inline void register_per_target(const Row& row) {
  for (const cpu::SimdTarget& t : cpu::compiled_targets()) {
    Row r = row;
    r.name = row.name + "/cpu-" + t.name;
    r.unavailable = [t] { return cpu::supported(t) ? std::string() : "this CPU lacks " + t.name; };
    auto forced = std::make_shared<std::unique_ptr<cpu::ForcedTarget>>();
    r.scope = [t, forced](bool enter) {
      if (enter)
        *forced = std::make_unique<cpu::ForcedTarget>(t.bits);
      else
        forced->reset();
    };
    register_row(std::move(r));
  }
}

// The row `name` of a CPU routine on every target, its reference's results
// shared by the targets.
inline void register_per_target(const std::string& name, std::function<std::vector<Case>()> cases,
                                std::function<Prepared(const Case&)> prepare) {
  Row r;
  r.name = name;
  r.cases = std::move(cases);
  r.prepare = std::move(prepare);
  r.reference_key = name;
  register_per_target(r);
}

}  // namespace exactvq::twins
