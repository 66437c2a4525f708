// --batch: many (reference, distorted) pairs from one list file, scored several at
// a time, one result file each, and a summary. A pair that fails is reported with
// its line and the others go on.
//
// The list is CSV or JSON lines (docs/multi-gpu-and-batch.md):
//   ref,dist,output,options                       <- header, columns in any order;
//   a.y4m,a_x264.y4m,out/a.xml,                      options is optional
//   b.yuv,b_av1.yuv,out/b.json,"-w 1920 -h 1080 -p 420 -b 8 --feature psnr"
// or
//   {"ref": "a.y4m", "dist": "a_x264.y4m", "output": "out/a.xml"}
//   {"ref": "b.yuv", "dist": "b_av1.yuv", "output": "out/b.json", "options": "-w 1920 -h 1080"}
// ("options" may also be an array of arguments). Blank lines and lines starting
// with # are skipped. Relative paths in ref, dist and output are taken from the
// list file's folder (so a list and its videos can move together); paths inside
// options are passed on as typed, relative to the current directory.
#pragma once

#include <cstdint>
#include <functional>
#include <iosfwd>
#include <string>
#include <utility>
#include <vector>

#include "output/report.h"

namespace exactvq {

struct BatchPair {
  int line = 0;                      // the pair's line in the list, from 1
  std::string ref, dist, output;     // resolved against the list's folder
  std::vector<std::string> options;  // extra command-line arguments for this pair
};

// Reads a list: JSON lines when the name ends in .jsonl, .ndjson or .json, or its
// first entry starts with '{'; else CSV. Throws InputError "LIST:LINE: what" for
// the first malformed line (nothing is scored then), an empty list, or two pairs
// writing the same output.
std::vector<BatchPair> read_batch_list(const std::string& path);

// Splits an options string into arguments as a POSIX shell splits words: blanks
// separate, '...' is literal, "..." keeps blanks (\" \\ \$ \` escaped), a
// backslash outside quotes escapes the next character; no expansion of any kind.
// Throws UsageError on an unterminated quote or a trailing backslash.
std::vector<std::string> split_arguments(const std::string& text);

struct PairResult {
  BatchPair pair;
  bool ok = false;
  std::string error;  // why it failed
  int64_t frames = 0;
  std::vector<std::pair<std::string, double>> pooled_means;  // each output's mean over frames
  std::vector<std::string> warnings;
};

struct BatchOptions {
  // Every pair's command line: these, then -r REF -d DIST -o OUTPUT, then its options.
  std::vector<std::string> shared_args;
  int jobs = 0;  // pairs at once; 0: default_batch_jobs()
  // Called once per pair as it finishes (never two at once), e.g. to print it.
  std::function<void(const PairResult&)> on_done;
  // Device notices (which device scores, fallback to the CPU), one line each.
  std::function<void(const std::string&)> notice;
};

// Half the cores, at least 2 and at most 8, and no more than the pairs.
int default_batch_jobs(size_t pairs);

// Scores every pair; results in list order. Throws only on failures of the batch
// itself (not of a pair).
std::vector<PairResult> run_batch(const std::vector<BatchPair>& pairs, const BatchOptions& options);

// The summary: CSV (line,ref,dist,output,status,frames,ssim,error) or JSON
// ({"pairs": [...], "scored": N, "failed": N}, with every output's pooled mean).
void write_batch_summary(std::ostream& out, const std::vector<PairResult>& results, bool json,
                         const NumberFormat& nf);

}  // namespace exactvq
