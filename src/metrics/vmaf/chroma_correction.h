// VMAF v1's chroma correction (libvmaf's predict.c): a frame whose chroma
// feature (speed_chroma) is exactly 0 has no chroma detail to judge, so its
// value is replaced by one guided by the luma detail feature (adm3) before the
// SVM sees it. docs/spec/vmaf.md.
#pragma once

#include <span>
#include <string>
#include <vector>

#include "metrics/vmaf/model.h"

namespace exactvq::vmaf {

// The correction of a model with parameter p: its guiding input is the one
// feature whose name contains "adm3", its guided input the one whose name
// contains "speed_chroma". Returns an error message (empty when well-formed)
// where libvmaf would fail or read an unset value: p = 0 (libvmaf then writes
// no score), no such feature or more than one.
std::string resolve_chroma_correction(const Model& model, double parameter, ChromaCorrection& out);

// Applies the correction to the normalised inputs x (model.features' order):
// both inputs un-normalised; where the guided one is then exactly 0, it
// becomes normalise(-p * guiding + p). Binary64, libvmaf's order.
void apply_chroma_correction(const Model& model, const ChromaCorrection& c, std::span<double> x);

}  // namespace exactvq::vmaf
