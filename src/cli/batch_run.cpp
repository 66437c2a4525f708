#include "cli/batch_run.h"

#include <algorithm>
#include <atomic>
#include <cctype>
#include <filesystem>
#include <mutex>
#include <new>
#include <ostream>
#include <thread>

#include <fmt/format.h>

#include "cli/cli_options.h"
#include "core/error.h"
#include "output/svg_plot.h"

namespace exactvq {

namespace fs = std::filesystem;

int default_batch_jobs(size_t pairs) {
  const int cores = std::max(1, int(std::thread::hardware_concurrency()));
  const int jobs = std::clamp(cores / 2, 2, 8);
  return std::max(1, std::min(jobs, int(std::min<size_t>(pairs, 1024))));
}

namespace {

OutputFormat format_of(const std::string& output, OutputFormat fallback) {
  std::string ext = fs::path(output).extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(),
                 [](unsigned char c) { return char(std::tolower(c)); });
  if (ext == ".json") return OutputFormat::kJson;
  if (ext == ".csv") return OutputFormat::kCsv;
  if (ext == ".xml") return OutputFormat::kXml;
  if (ext == ".sub") return OutputFormat::kSub;
  return fallback;
}

void score_pair(const BatchOptions& o, int jobs, PairResult& r) {
  const BatchPair& pair = r.pair;
  std::vector<std::string> args = o.shared_args;
  for (const char* a : {"-r", pair.ref.c_str(), "-d", pair.dist.c_str(), "-o", pair.output.c_str()})
    args.emplace_back(a);
  args.insert(args.end(), pair.options.begin(), pair.options.end());
  CliOptions c = parse_command_line(args);
  if (c.batch_path) throw UsageError("--batch cannot be one of a pair's options");
  if (c.show_help || c.show_version)
    throw UsageError("--help and --version cannot be a pair's options");
  if (c.plot_path == "-") throw UsageError("--plot -: standard output cannot be used in a batch");
  if (!c.output_format_given) c.output_format = format_of(pair.output, c.output_format);
  if (!c.threads_given) {
    const int cores = std::max(1, int(std::thread::hardware_concurrency()));
    c.run.threads = std::max(1, cores / jobs);
  }
  c.run.warn = [&r](const std::string& line) { r.warnings.push_back(line); };
  c.run.device.notice = o.notice;
  c.run.progress = nullptr;
  check_output_path(pair.output, {pair.ref, pair.dist});
  if (c.plot_path) check_output_path(*c.plot_path, {pair.ref, pair.dist});
  load_run_models(c);
  const ScoreReport report = score_videos(c.run);
  write_file_atomically(pair.output, [&](std::ostream& out) {
    write_report(out, report, c.output_format, c.number_format);
  });
  if (c.plot_path) {
    const std::string title = fmt::format("{} against {}", pair.dist, pair.ref);
    write_file_atomically(*c.plot_path,
                          [&](std::ostream& out) { write_svg_plot(out, report, title); });
  }
  r.frames = int64_t(report.frame_numbers.size());
  for (const auto& f : report.features) r.pooled_means.emplace_back(f.name, pool(f.values).mean);
  r.ok = true;
}

}  // namespace

std::vector<PairResult> run_batch(const std::vector<BatchPair>& pairs, const BatchOptions& o) {
  std::vector<PairResult> results(pairs.size());
  for (size_t i = 0; i < pairs.size(); ++i) results[i].pair = pairs[i];
  const int jobs = o.jobs > 0 ? std::min<int>(o.jobs, int(std::max<size_t>(1, pairs.size())))
                              : default_batch_jobs(pairs.size());
  std::atomic<size_t> next{0};
  std::mutex done_mutex;
  auto work = [&] {
    for (size_t i; (i = next.fetch_add(1)) < pairs.size();) {
      PairResult& r = results[i];
      try {
        score_pair(o, jobs, r);
      } catch (const UsageError& e) {
        r.error = fmt::format("bad options: {}", e.what());
      } catch (const std::bad_alloc&) {
        r.error = "out of memory";
      } catch (const std::exception& e) {
        r.error = e.what();
      }
      if (!r.ok && r.error.empty()) r.error = "failed";
      if (o.on_done) {
        std::lock_guard lock(done_mutex);
        o.on_done(r);
      }
    }
  };
  std::vector<std::thread> threads;
  for (int j = 1; j < jobs; ++j) threads.emplace_back(work);
  work();
  for (auto& t : threads) t.join();
  return results;
}

}  // namespace exactvq
