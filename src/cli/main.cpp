// exactvq: score a distorted video against its reference.
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <new>
#include <string_view>

#include <fmt/format.h>

#include "cli/batch_run.h"
#include "cli/cli_options.h"
#include "cli/exit_status.h"
#include "cli/progress.h"
#include "cli/run_outputs.h"
#include "core/error.h"
#include "core/startup_trace.h"

using namespace exactvq;

namespace {

// Says what `e` holds and returns its exit status.
int report_failure(std::exception_ptr e, FailedWhile stage) {
  try {
    std::rethrow_exception(e);
  } catch (const UsageError& u) {
    fmt::print(stderr, "exactvq: {}\nTry 'exactvq --help'.\n", u.what());
  } catch (const std::bad_alloc&) {
    fmt::print(stderr,
               "exactvq: out of memory (frames of this size need more than is available)\n");
  } catch (const std::exception& x) {
    fmt::print(stderr, "exactvq: {}\n", x.what());
  } catch (...) {
    fmt::print(stderr, "exactvq: unknown error\n");
  }
  return exit_status_of(e, stage);
}

// --batch: every pair of the list; 0 when all were scored, kExitFailure when any failed.
int run_batch_command(const CliOptions& c) {
  const std::string& list = *c.batch_path;
  const std::vector<BatchPair> pairs = read_batch_list(list);
  if (c.batch_summary && *c.batch_summary != "-") check_output_path(*c.batch_summary, {list});
  BatchOptions o;
  o.shared_args = c.batch_args;
  o.jobs = c.batch_jobs;
  o.notice = [](const std::string& line) { fmt::print(stderr, "exactvq: {}\n", line); };
  o.on_done = [&](const PairResult& r) {
    if (!r.ok) {
      fmt::print(stderr, "exactvq: {}:{}: failed: {}\n", list, r.pair.line, r.error);
      return;
    }
    if (c.quiet) return;
    for (const auto& w : r.warnings)
      fmt::print(stderr, "exactvq: {}:{}: {}\n", list, r.pair.line, w);
    fmt::print(stderr, "exactvq: {}:{}: scored {} frame{} -> {}\n", list, r.pair.line, r.frames,
               r.frames == 1 ? "" : "s", r.pair.output);
  };
  const std::vector<PairResult> results = run_batch(pairs, o);
  size_t failed = 0;
  for (const auto& r : results) failed += r.ok ? 0 : 1;
  write_batch_outputs(c, results);
  if (!c.quiet || failed > 0)
    fmt::print(stderr, "exactvq: {}: {} pair{}, {} scored, {} failed\n", list, results.size(),
               results.size() == 1 ? "" : "s", results.size() - failed, failed);
  std::fflush(stdout);
  if (std::ferror(stdout)) throw OutputError("cannot write to standard output");
  return failed > 0 ? kExitFailure : kExitOk;
}

}  // namespace

int main(int argc, char** argv) {
  startup::mark("libraries loaded");
  CliOptions c;
  try {
    c = parse_command_line(argc, argv);
  } catch (...) {
    return report_failure(std::current_exception(), FailedWhile::kParsing);
  }
  if (c.show_help) {
    fmt::print("{}", c.help_text);
    return 0;
  }
  if (c.show_version) {
    fmt::print("exactvq {}\n", EXACTVQ_VERSION);
    return 0;
  }
  try {
    if (c.batch_path) return run_batch_command(c);
    startup::mark("options");
    const DeviceWarmup warmup(c.run.device);
    // A malformed --model or two models of one name: libvmaf's parser refuses them.
    try {
      load_run_models(c);
    } catch (...) {
      return report_failure(std::current_exception(), FailedWhile::kParsing);
    }
    startup::mark("models");
    // On a terminal, a progress line that warnings and errors erase first.
    std::optional<ProgressLine> progress;
    auto to_stderr = [&](const std::string& line) {
      if (progress) progress->clear();
      fmt::print(stderr, "exactvq: {}\n", line);
    };
    if (!c.quiet) c.run.warn = to_stderr;
    // Which device scores, and a fallback to the CPU, are said even with -q.
    c.run.device.notice = to_stderr;
    if (c.output_path) check_output_path(*c.output_path, {c.run.ref_path, c.run.dist_path});
    if (c.plot_path) check_output_path(*c.plot_path, {c.run.ref_path, c.run.dist_path});
    if (!c.quiet && stderr_is_terminal()) {
      progress.emplace([](std::string_view s) { std::fwrite(s.data(), 1, s.size(), stderr); });
      c.run.progress = [&](int64_t done, std::optional<int64_t> total) {
        progress->update(done, total);
      };
    }
    const auto report_out = [&](const ScoreReport& report) {
      if (progress) progress->clear();
      write_run_outputs(c, report);
      startup::mark("report");
      if (c.verbose) {
        const std::string spent = startup::tallies();
        if (!spent.empty()) fmt::print(stderr, "exactvq: time spent on: {}\n", spent);
        fmt::print(stderr, "exactvq: time: {}\n", startup::summary());
      }
    };
    // What is left of a CUDA run once its report is out is letting go of the
    // inputs, pictures and engines (decoder sessions, GPU memory: 0.1-0.3 s
    // with GPU decoding) and the runtime's teardown at exit (the context and
    // its memory), which the end of the process does as well: the report is
    // written and closed, so the run leaves without them (unless
    // EXACTVQ_FULL_TEARDOWN=1: a leak checker's run lets go of everything).
    const char* full_teardown = std::getenv("EXACTVQ_FULL_TEARDOWN");
    if (c.run.device.backend == Backend::kCuda &&
        !(full_teardown && std::string_view(full_teardown) == "1"))
      c.run.scored = [&](const ScoreReport& report) {
        startup::mark("run closed");  // left to the process's end
        report_out(report);
        std::fflush(nullptr);
        std::_Exit(std::ferror(stdout) ? kExitFailure : kExitOk);
      };
    const ScoreReport report = score_videos(c.run);
    startup::mark("run closed");  // the inputs, pictures and engines let go
    report_out(report);
    return kExitOk;
  } catch (...) {
    return report_failure(std::current_exception(), FailedWhile::kRunning);
  }
}
