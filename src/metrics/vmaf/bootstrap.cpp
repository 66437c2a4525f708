// Every floating-point step is one binary64 operation in libvmaf's order
// (-ffp-contract=off keeps them unfused); pow goes through exactvq::libm.
#include "metrics/vmaf/bootstrap.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "core/error.h"
#include "libm/libm.h"
#include "metrics/vmaf/predict.h"

namespace exactvq::vmaf {

std::vector<std::string> bootstrap_outputs(const std::string& name, std::size_t count) {
  std::vector<std::string> out;
  for (std::size_t i = 1; i <= count; ++i) out.push_back(fmt::format("{}_{:04}", name, i));
  for (const char* suffix : {"_bagging", "_stddev", "_ci_p95_lo", "_ci_p95_hi"})
    out.push_back(name + suffix);
  return out;
}

namespace {

// libvmaf's comparison for qsort: 1, -1, or 0 for equal and for any NaN.
int compare_scores(double x, double y) {
  if (x > y) return 1;
  if (x < y) return -1;
  return 0;
}

// glibc's qsort (a top-down merge sort for arrays this small: halves of n / 2
// and the rest, merged taking the left one unless it compares greater), so
// that the order is libvmaf's even where a NaN makes the comparison no order.
void merge_sort(std::span<double> v, std::vector<double>& tmp) {
  if (v.size() <= 1) return;
  const std::size_t n1 = v.size() / 2;
  merge_sort(v.first(n1), tmp);
  merge_sort(v.subspan(n1), tmp);
  tmp.clear();
  std::size_t a = 0, b = n1;
  while (a < n1 && b < v.size()) tmp.push_back(compare_scores(v[a], v[b]) <= 0 ? v[a++] : v[b++]);
  while (a < n1) tmp.push_back(v[a++]);
  std::copy(tmp.begin(), tmp.end(), v.begin());
}

}  // namespace

double bootstrap_percentile(std::span<const double> sorted, double perc) {
  // The rank in binary64 from an unsigned count, the neighbours by floor and ceil.
  const double p = perc * static_cast<double>(static_cast<unsigned>(sorted.size() - 1)) / 100.0;
  const int below = static_cast<int>(std::floor(p));
  const int above = static_cast<int>(std::ceil(p));
  if (below == above) return sorted[static_cast<std::size_t>(below)];
  return sorted[static_cast<std::size_t>(below)] * (static_cast<double>(above) - p) +
         sorted[static_cast<std::size_t>(above)] * (p - static_cast<double>(below));
}

BootstrapScores predict_bootstrap(std::span<const Model> members,
                                  std::span<const std::vector<double>> inputs) {
  if (members.empty() || inputs.size() != members.size())
    throw InputError(fmt::format("bootstrap collection: {} members and {} input sets",
                                 members.size(), inputs.size()));
  const std::size_t n = members.size();
  BootstrapScores out;
  std::vector<double> raw(n);
  out.members.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    raw[i] = predict_untransformed(members[i], inputs[i]);
    out.members[i] = transform_and_clip(members[i], raw[i]);
  }
  const double count = static_cast<double>(static_cast<unsigned>(n));
  double sum = 0.0;
  for (const double s : raw) sum += s;
  const double mean = sum / count;
  double ssd = 0.0;
  for (const double s : raw) ssd += libm::pow(s - mean, 2.0);
  double stddev = std::sqrt(ssd / count);

  std::vector<double> sorted = raw;
  std::vector<double> tmp;
  tmp.reserve(n);
  merge_sort(sorted, tmp);
  const double lo = bootstrap_percentile(sorted, 2.5);
  const double hi = bootstrap_percentile(sorted, 97.5);

  // The statistics go through the first member's transform and clip; the
  // stddev is scaled by their slope at the mean, a central difference.
  const Model& first = members.front();
  const double delta = 0.01;
  out.bagging = transform_and_clip(first, mean);
  out.ci_p95_lo = transform_and_clip(first, lo);
  out.ci_p95_hi = transform_and_clip(first, hi);
  const double plus = transform_and_clip(first, mean + delta);
  const double minus = transform_and_clip(first, mean - delta);
  const double slope = (plus - minus) / (2.0 * delta);
  stddev *= slope;
  out.stddev = stddev;
  return out;
}

}  // namespace exactvq::vmaf
