// Rows of the CPU's Highway kernels: one per compiled SIMD target (and for
// kernels with a VNNI form, AVX3 with VNNI), forced while the row runs (dav1d's checkasm enables
// CPU levels the same way); a target this machine lacks is skipped with a message.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "backends/cpu/simd_targets.h"
#include "twin_table.h"

namespace exactvq::twins {

// Registers `row` once per compiled target, named row.name + "/cpu-" + target,
// VNNI off (cpu::ForcedVnni); with `vnni`, the AVX3 target once more with it
// on, named "/cpu-AVX3_VNNI", for routines that have a VNNI form.
inline void register_per_target(const Row& row, bool vnni = false) {
  for (const cpu::SimdTarget& t : cpu::compiled_targets()) {
    for (const bool with_vnni : {false, true}) {
      if (with_vnni && !(vnni && t.name == "AVX3")) continue;
      Row r = row;
      r.name = row.name + "/cpu-" + t.name + (with_vnni ? "_VNNI" : "");
      r.unavailable = [t, with_vnni] {
        if (!cpu::supported(t)) return "this CPU lacks " + t.name;
        return with_vnni && !cpu::vnni_supported() ? std::string("this CPU lacks AVX-512 VNNI")
                                                   : std::string();
      };
      struct Forced {
        Forced(int64_t bits, bool use_vnni) : target(bits), vnni(use_vnni) {}
        cpu::ForcedTarget target;
        cpu::ForcedVnni vnni;
      };
      auto forced = std::make_shared<std::unique_ptr<Forced>>();
      r.scope = [t, with_vnni, forced](bool enter) {
        if (enter)
          *forced = std::make_unique<Forced>(t.bits, with_vnni);
        else
          forced->reset();
      };
      register_row(std::move(r));
    }
  }
}

// The row `name` of a CPU routine on every target, its reference's results
// shared by the targets.
inline void register_per_target(const std::string& name, std::function<std::vector<Case>()> cases,
                                std::function<Prepared(const Case&)> prepare, bool vnni = false) {
  Row r;
  r.name = name;
  r.cases = std::move(cases);
  r.prepare = std::move(prepare);
  r.reference_key = name;
  register_per_target(r, vnni);
}

}  // namespace exactvq::twins
