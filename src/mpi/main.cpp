// exactvq-mpi: exactvq's command line run as MPI ranks. Each rank opens the inputs
// itself and scores a contiguous piece of the frames; rank 0 puts the pieces
// together in frame order and writes what exactvq would write, byte for byte (the
// timing field fps aside). See docs/mpi.md.
#include <mpi.h>

#include <chrono>
#include <cstdio>
#include <functional>
#include <new>
#include <optional>

#include <fmt/format.h>

#include "cli/batch_run.h"
#include "cli/cli_options.h"
#include "cli/exit_status.h"
#include "cli/run_outputs.h"
#include "core/error.h"
#include "mpi/range_score.h"
#include "mpi/transport.h"
#include "mpi/wire.h"

using namespace exactvq;
using namespace exactvq::mpi;

namespace {

constexpr const char* kName = "exactvq-mpi";

// `parsing`: the command line was being read, where status 1 is its usage error (while
// running, 1 is float_ms_ssim's picture refusal and takes no hint).
void print_error(int code, const std::string& message, bool parsing = false) {
  fmt::print(stderr, "{}: {}\n", kName, message);
  if (parsing && code == kExitUsage) fmt::print(stderr, "Try '{} --help'.\n", kName);
}

// Runs `body`, turning what it throws into exactvq's exit status and message.
template <typename Body>
int guarded(Body&& body) {
  try {
    body();
    return 0;
  } catch (...) {
    RankResult r;
    record_exception(r, std::current_exception());
    print_error(r.exit_code, r.error);
    return r.exit_code;
  }
}

// --batch LIST: the ranks take whole pairs, in turn down the list (pair i to rank
// i mod ranks), each scoring its own with exactvq's batch runner (which writes each
// pair's files); rank 0 reads the list, gathers every pair's outcome and reports
// them, in list order, as exactvq --batch does: 0 when every pair was scored.
int run_batch_ranks(const CliOptions& c, int rank, int ranks,
                    const std::function<void(const std::string&)>& note) {
  const std::string& list = *c.batch_path;
  std::vector<BatchPair> pairs;
  std::vector<uint64_t> words;
  int code = 0;
  if (rank == 0) {
    code = guarded([&] {
      pairs = read_batch_list(list);
      if (c.batch_summary && *c.batch_summary != "-") check_output_path(*c.batch_summary, {list});
      words = encode_pairs(pairs);
    });
  }
  code = broadcast_code(code);
  if (code != 0) return code;
  words = broadcast_words(std::move(words));
  if (rank != 0) pairs = decode_pairs(words);  // rank 0's own encoding: cannot fail

  std::vector<BatchPair> mine;
  std::vector<std::pair<uint64_t, PairResult>> done;
  for (size_t i = size_t(rank); i < pairs.size(); i += size_t(ranks)) {
    mine.push_back(pairs[i]);
    done.emplace_back(uint64_t(i), PairResult{});
  }
  if (!mine.empty()) {
    BatchOptions o;
    o.shared_args = c.batch_args;
    o.jobs = c.batch_jobs;
    o.notice = note;
    try {
      std::vector<PairResult> results = run_batch(mine, o);
      for (size_t k = 0; k < done.size(); ++k) done[k].second = std::move(results[k]);
    } catch (const std::exception& e) {
      for (auto& d : done) d.second.error = e.what();
    }
  }
  if (rank != 0) {
    const std::vector<uint64_t> out = encode_pair_results(done);
    MPI_Send(out.data(), int(out.size()), MPI_UINT64_T, 0, kResultTag, MPI_COMM_WORLD);
    return broadcast_code(0);
  }

  std::vector<PairResult> results(pairs.size());
  std::vector<bool> have(pairs.size(), false);
  auto take = [&](std::vector<std::pair<uint64_t, PairResult>>&& part) {
    for (auto& [index, r] : part) {
      if (index >= results.size()) continue;
      results[index] = std::move(r);
      have[index] = true;
    }
  };
  take(std::move(done));
  for (int r = 1; r < ranks; ++r) {
    try {
      take(decode_pair_results(receive_words(r)));
    } catch (const std::exception& e) {
      note(fmt::format("rank {}: {}", r, e.what()));
    }
  }
  size_t failed = 0;
  code = guarded([&] {
    for (size_t i = 0; i < results.size(); ++i) {
      PairResult& r = results[i];
      r.pair = pairs[i];
      if (!have[i]) r.error = "its rank sent no result";
      failed += r.ok ? 0 : 1;
      // As exactvq's batch prints each pair when it is done.
      if (!r.ok) {
        fmt::print(stderr, "{}: {}:{}: failed: {}\n", kName, list, r.pair.line, r.error);
        continue;
      }
      if (c.quiet) continue;
      for (const auto& w : r.warnings)
        fmt::print(stderr, "{}: {}:{}: {}\n", kName, list, r.pair.line, w);
      fmt::print(stderr, "{}: {}:{}: scored {} frame{} -> {}\n", kName, list, r.pair.line, r.frames,
                 r.frames == 1 ? "" : "s", r.pair.output);
    }
    write_batch_outputs(c, results);
    if (!c.quiet || failed > 0)
      fmt::print(stderr, "{}: {}: {} pair{}, {} scored, {} failed\n", kName, list, results.size(),
                 results.size() == 1 ? "" : "s", results.size() - failed, failed);
    std::fflush(stdout);
    if (std::ferror(stdout)) throw OutputError("cannot write to standard output");
  });
  return broadcast_code(code != 0 ? code : failed > 0 ? kExitFailure : kExitOk);
}

// A rank other than 0 checks that it sees the inputs rank 0 planned with.
void check_same_inputs(const RankSetup& s, const Header& h, int rank) {
  const VideoFormat& f = s.format;
  const int64_t ref_frames = s.ref->frame_count().value_or(-1);
  const int64_t dist_frames = s.dist->frame_count().value_or(-1);
  if (f.width != h.width || f.height != h.height || int64_t(f.chroma) != h.chroma ||
      f.bitdepth != h.bitdepth || ref_frames != h.ref_frames || dist_frames != h.dist_frames)
    throw InputError(fmt::format(
        "rank {} sees {} ({} frames) and {} ({} frames) as {}, rank 0 as {}x{} with {} and {} "
        "frames; every rank must read the same files at the same path",
        rank, s.ref->name(), ref_frames, s.dist->name(), dist_frames, f.describe(), h.width,
        h.height, h.ref_frames, h.dist_frames));
}

int run(int rank, int ranks, int argc, char** argv) {
  CliOptions c;
  try {
    c = parse_command_line(argc, argv);
    if (!c.show_help && !c.show_version && !c.batch_path) load_run_models(c);
  } catch (const std::exception& e) {
    // As exactvq: what load_run_models refuses (a malformed --model), libvmaf's parser does.
    const int code = exit_status_of(std::current_exception(), FailedWhile::kParsing);
    if (rank == 0) print_error(code, e.what(), true);
    return code;
  }
  if (c.show_help || c.show_version) {
    if (rank == 0 && c.show_help)
      fmt::print(
          "{}: the exactvq command line run as MPI ranks, e.g.\n"
          "  mpirun -n 4 {} -r ref.y4m -d dist.y4m --feature ssim -o out.xml\n"
          "Same options and output as exactvq:\n\n{}",
          kName, kName, c.help_text);
    if (rank == 0 && c.show_version) fmt::print("{} {}\n", kName, EXACTVQ_VERSION);
    return 0;
  }

  // Notes and warnings: rank 0's as exactvq's; other ranks' device notes say whose.
  auto note = [rank](const std::string& line) {
    if (rank == 0)
      fmt::print(stderr, "{}: {}\n", kName, line);
    else
      fmt::print(stderr, "{} (rank {}): {}\n", kName, rank, line);
  };
  if (!c.quiet && rank == 0) c.run.warn = note;
  c.run.device.notice = note;
  if (c.batch_path) return run_batch_ranks(c, rank, ranks, note);

  Header header;
  std::optional<RankSetup> setup;
  if (rank == 0) {
    header.code = guarded([&] {
      if (c.output_path) check_output_path(*c.output_path, {c.run.ref_path, c.run.dist_path});
      if (c.plot_path) check_output_path(*c.plot_path, {c.run.ref_path, c.run.dist_path});
      header.mode = Mode::kSolo;
      // Standard input reaches rank 0 only.
      if (c.run.ref_path == "-" || c.run.dist_path == "-") return;
      setup.emplace(open_rank(c.run));
      const auto ref_frames = setup->ref->frame_count();
      const auto dist_frames = setup->dist->frame_count();
      if (!ref_frames || !dist_frames) {
        if (ranks > 1 && !c.quiet)
          note(
              fmt::format("{} has no frame count known from its size (a decoded or "
                          "variable-size input); rank 0 scores every frame",
                          (!ref_frames ? setup->ref : setup->dist)->name()));
        return;
      }
      const SharePlan plan = plan_shares(*ref_frames, *dist_frames, c.run, ranks);
      if (plan.scored == 0) return;  // nothing to share: exactvq's own outcome
      header.mode = Mode::kSplit;
      header.ref_frames = *ref_frames;
      header.dist_frames = *dist_frames;
      header.width = setup->format.width;
      header.height = setup->format.height;
      header.chroma = int64_t(setup->format.chroma);
      header.bitdepth = setup->format.bitdepth;
    });
    if (header.code != 0) header.mode = Mode::kAbort;
    if (header.mode == Mode::kSolo) setup.reset();
  }
  broadcast_header(header);

  if (header.mode == Mode::kAbort) return int(header.code);

  if (header.mode == Mode::kSolo) {
    int code = 0;
    if (rank == 0) {
      code = guarded([&] {
        const ScoreReport report = score_videos(c.run);
        write_run_outputs(c, report);
      });
    }
    return broadcast_code(code);
  }

  // Split: each rank its piece, rank 0 the whole.
  const auto start = std::chrono::steady_clock::now();
  const SharePlan plan = plan_shares(header.ref_frames, header.dist_frames, c.run, ranks);
  const FrameRange& mine = plan.ranges[size_t(rank)];
  RankResult result;
  if (!mine.empty()) {
    try {
      if (rank != 0) {
        setup.emplace(open_rank(c.run));
        check_same_inputs(*setup, header, rank);
      }
      result = score_range(*setup, c.run, mine);
    } catch (...) {
      record_exception(result, std::current_exception());
    }
  }
  if (rank != 0) {
    send_result(result);
    return broadcast_code(0);
  }

  std::vector<RankResult> results;
  results.push_back(std::move(result));
  for (int r = 1; r < ranks; ++r) results.push_back(receive_result(r));
  int code = 0;
  if (const RankResult* failed = first_failure(results)) {
    print_error(failed->exit_code, failed->error);
    code = failed->exit_code;
  } else {
    code = guarded([&] {
      std::string warning;
      ScoreReport report = combine(*setup, c.run, plan, results, warning);
      const double seconds =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      report.fps = seconds > 0 ? double(report.frame_numbers.size()) / seconds : 0.0;
      if (!warning.empty() && c.run.warn) c.run.warn(warning);
      write_run_outputs(c, report);
    });
  }
  return broadcast_code(code);
}

}  // namespace

int main(int argc, char** argv) {
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  int rank = 0, ranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  int code = kExitFailure;
  try {
    code = run(rank, ranks, argc, argv);
  } catch (const std::exception& e) {
    // Only MPI itself can get here (everything else is caught where it happens); end
    // every rank rather than leave them waiting.
    fmt::print(stderr, "{} (rank {}): {}\n", kName, rank, e.what());
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  MPI_Finalize();
  return code;
}
