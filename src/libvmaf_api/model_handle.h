// VmafModel: a model as exactvq's --model names it, checked when loaded.
#pragma once

#include <string>

#include "libvmaf/model.h"

struct VmafModel {
  std::string spec;  // "version=vmaf_v0.6.1:name=vmaf", as --model takes it
  std::string name;  // its score's name
};
