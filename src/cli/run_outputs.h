// What exactvq writes once a run is scored, shared by exactvq and exactvq-mpi (rank
// 0) so both give the same bytes: the report to -o (or the pooled summary on
// stdout), the --plot chart, and a --batch summary.
#pragma once

#include <vector>

#include "cli/batch_run.h"
#include "cli/cli_options.h"
#include "output/report.h"

namespace exactvq {

// Throws OutputError when a file or standard output cannot be written.
void write_run_outputs(const CliOptions& c, const ScoreReport& report);

// --batch-summary FILE (JSON when it ends in .json, else CSV), `-`, or stdout unless -q.
void write_batch_outputs(const CliOptions& c, const std::vector<PairResult>& results);

}  // namespace exactvq
