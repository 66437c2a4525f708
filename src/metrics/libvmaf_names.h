// libvmaf's names for a feature's outputs under options (its feature_name.c):
// an output computed with options that differ from their defaults carries a
// suffix, so that two extractors of one feature with different options never
// share a key (e.g. integer_adm2 and the NEG model's integer_adm2_egl_1).
#pragma once

#include <string>
#include <vector>

namespace exactvq {

// One option that libvmaf flags as a feature parameter.
struct NamedOption {
  const char* name;   // e.g. "adm_enhn_gain_limit": the suffixes are sorted by it
  const char* alias;  // e.g. "egl": what the suffix shows (the name when null)
  bool is_bool = false;
  double value = 0;  // bools: 0 or 1
  double default_value = 0;
  // String options (e.g. speed_prescale_method): the value and the default as
  // text, shown as given; null for numbers and bools.
  const char* text = nullptr;
  const char* default_text = nullptr;
};

// "_<alias>_<value as %g>" (bools: "_<alias>"; strings: "_<alias>_<text>") for
// each option whose value is not its default, in the alphabetical order of the options' names.
std::string libvmaf_key_suffix(std::vector<NamedOption> options);

}  // namespace exactvq
