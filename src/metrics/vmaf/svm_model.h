// The libsvm regression a VMAF model embeds as text (model_dict "model"):
// libsvm 3.24's model file format, as libvmaf's svm.cpp reads it.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace exactvq::vmaf {

// One coordinate of a support vector: feature `index` (1-based) has `value`.
struct SvmNode {
  int index = 0;
  double value = 0.0;
};

struct SupportVector {
  double coefficient = 0.0;    // its weight in the decision function (sv_coef)
  std::vector<SvmNode> nodes;  // ascending indices; an absent index is 0
};

// The regression types whose prediction is the decision value itself.
enum class SvmType { kEpsilonSvr, kNuSvr };

// exp(-gamma |x - sv|^2): the only kernel VMAF's models use.
enum class SvmKernel { kRbf };

struct SvmModel {
  SvmType type = SvmType::kNuSvr;
  SvmKernel kernel = SvmKernel::kRbf;
  double gamma = 0.0;
  double rho = 0.0;                            // subtracted from the kernel sum
  std::vector<SupportVector> support_vectors;  // in the file's order, the sum's order
};

// The most support vectors and coordinates per vector read.
inline constexpr std::size_t kMaxSupportVectors = 1000000;
inline constexpr int kMaxSvmIndex = 64;

// Parses libsvm's text. Problems throw InputError "model SOURCE: field 'FIELD':
// <what>" (FIELD is where the text sits in the JSON, e.g. "model_dict.model").
SvmModel parse_svm_model(std::string_view text, const std::string& source,
                         const std::string& field);

}  // namespace exactvq::vmaf
