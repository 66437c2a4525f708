// vmaf_write_output: the scores as exactvq's command line writes them (XML,
// JSON, CSV through src/output), and libvmaf's SUB subtitles.
#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <string>
#include <ostream>

#include <fmt/format.h>

#include "core/error.h"
#include "libvmaf_api/context.h"
#include "libvmaf_api/log.h"
#include "output/report.h"

namespace exactvq::libvmaf_api {

namespace {

// Frames are the scored indices at which every score is known (all of them once
// the context is flushed).
ScoreReport report_of(const VmafContext& v) {
  ScoreReport r;
  r.version = EXACTVQ_VERSION;
  r.width = int(v.w);
  r.height = int(v.h);
  const auto end = v.flushed ? v.end : std::chrono::steady_clock::now();
  const double seconds = std::chrono::duration<double>(end - v.begin).count();
  r.fps = v.started && seconds > 0 ? double(v.pic_cnt) / seconds : 0.0;
  const std::vector<std::string> names = score_names(v);
  for (const auto& name : names) r.features.push_back({name, {}});
  size_t frames = v.pic_cnt;
  for (const auto& i : v.imported) frames = std::max(frames, i.values.size());
  std::vector<double> row(names.size());
  for (size_t index = 0; index < frames; ++index) {
    bool complete = index_scored(v, unsigned(index));
    for (size_t c = 0; complete && c < names.size(); ++c) {
      const std::optional<double> s = score_of(v, names[c], unsigned(index));
      if (s)
        row[c] = *s;
      else
        complete = false;
    }
    if (!complete) continue;
    r.frame_numbers.push_back(uint32_t(index));
    for (size_t c = 0; c < names.size(); ++c) r.features[c].values.push_back(row[c]);
  }
  return r;
}

}  // namespace

}  // namespace exactvq::libvmaf_api

using namespace exactvq::libvmaf_api;

extern "C" int vmaf_write_output(VmafContext* vmaf, const char* output_path, VmafOutputFormat fmt) {
  if (!vmaf || !output_path) return -EINVAL;
  if (fmt <= VMAF_OUTPUT_FORMAT_NONE || fmt > VMAF_OUTPUT_FORMAT_SUB) {
    log_line(VMAF_LOG_LEVEL_ERROR,
             fmt::format("vmaf_write_output {}: unknown output format {}", output_path, int(fmt)));
    return -EINVAL;
  }
  try {
    settle(*vmaf);
    const exactvq::ScoreReport report = report_of(*vmaf);
    exactvq::NumberFormat number_format;
    // As the VMAF_JSON_FULL_PRECISION=1 of libvmaf's tool in shared/libvmaf: every JSON
    // value round-trips (exactvq's shortest form; that tool prints %.17g).
    const char* full = std::getenv("VMAF_JSON_FULL_PRECISION");
    if (fmt == VMAF_OUTPUT_FORMAT_JSON && full && std::string(full) == "1")
      number_format.shortest = true;
    exactvq::write_file_atomically(output_path, [&](std::ostream& out) {
      switch (fmt) {
        case VMAF_OUTPUT_FORMAT_XML:
          exactvq::write_report(out, report, exactvq::OutputFormat::kXml, number_format);
          break;
        case VMAF_OUTPUT_FORMAT_JSON:
          exactvq::write_report(out, report, exactvq::OutputFormat::kJson, number_format);
          break;
        case VMAF_OUTPUT_FORMAT_CSV:
          exactvq::write_report(out, report, exactvq::OutputFormat::kCsv, number_format);
          break;
        default:
          exactvq::write_report(out, report, exactvq::OutputFormat::kSub, number_format);
          break;
      }
    });
    return 0;
  } catch (const std::bad_alloc&) {
    return -ENOMEM;
  } catch (const std::exception& e) {
    log_line(VMAF_LOG_LEVEL_ERROR, fmt::format("vmaf_write_output: {}", e.what()));
    return -EINVAL;
  }
}
