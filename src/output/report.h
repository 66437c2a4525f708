// Scores of one run and how they are written (libvmaf's XML, JSON, CSV and SUB schemas).
#pragma once

#include <cstdint>
#include <functional>
#include <iosfwd>
#include <string>
#include <vector>

namespace exactvq {

struct FeatureSeries {
  std::string name;            // "ssim", "ssim_cb", ...
  std::vector<double> values;  // one per entry of ScoreReport::frame_numbers
};

// A value over the whole run rather than per frame (libvmaf's aggregate_metrics).
struct AggregateMetric {
  std::string name;  // "apsnr_y", ...
  double value = 0;
};

struct ScoreReport {
  std::string version;                  // exactvq's version string
  double fps = 0;                       // frames scored per second of processing
  int width = 0, height = 0;            // luma size (XML <params>)
  std::vector<uint32_t> frame_numbers;  // frameNum of each scored frame
  std::vector<FeatureSeries> features;
  std::vector<AggregateMetric> aggregates;  // XML and JSON only, as in libvmaf
};

// libvmaf's pooling over the frames of a series, in frame order:
// min, max, mean = sum/n, harmonic_mean = n / sum(1/(v+1)) - 1.
struct Pooled {
  double min = 0, max = 0, mean = 0, harmonic_mean = 0;
};
Pooled pool(const std::vector<double>& values);

// kSub: libvmaf's --sub, MicroDVD subtitles (a line a frame).
enum class OutputFormat { kXml, kJson, kCsv, kSub };

// How numbers are printed: `decimals` places ("%.6f" by default, libvmaf's), or
// the shortest decimal that reads back to the same binary64 when `shortest`.
struct NumberFormat {
  int decimals = 6;
  bool shortest = false;
};

std::string format_number(double v, const NumberFormat& nf);

void write_report(std::ostream& out, const ScoreReport& r, OutputFormat fmt,
                  const NumberFormat& nf);

// Writes through a temporary file beside `path`, then renames it over `path`, so a
// failure leaves no partial file and an existing file untouched. Throws OutputError.
// Fails early (OutputError "cannot write PATH: reason") when `path` could not be
// written later: a missing or unwritable directory, a directory or special file in
// the way, a read-only file, or a file that is one of `inputs`. Checked before a
// long run, so that its result is not lost at the end.
void check_output_path(const std::string& path, const std::vector<std::string>& inputs);

void write_file_atomically(const std::string& path, const std::function<void(std::ostream&)>& body);

}  // namespace exactvq
