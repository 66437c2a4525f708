// How exactvq-mpi's ranks reach each other over MPI_COMM_WORLD: rank 0's header
// and exit codes broadcast, each rank's results (wire.h's words) sent to rank 0.
#pragma once

#include <cstdint>
#include <vector>

#include "mpi/range_score.h"

namespace exactvq::mpi {

// The tag of every message a rank sends rank 0.
inline constexpr int kResultTag = 8;

// What rank 0 tells every rank after opening the inputs.
enum class Mode : int64_t {
  kAbort = 0,  // rank 0 failed (exit status in `code`); nothing more to do
  kSolo = 1,   // rank 0 scores every frame, as exactvq does
  kSplit = 2,  // every rank scores its piece of the plan
};

struct Header {
  Mode mode = Mode::kAbort;
  int64_t code = 1;
  int64_t ref_frames = 0, dist_frames = 0;
  int64_t width = 0, height = 0, chroma = 0, bitdepth = 0;
};

// Rank 0's header to every rank (every rank calls it).
void broadcast_header(Header& h);

// Rank 0's `code` to every rank (every rank calls it); returns it.
int broadcast_code(int code);

// This rank's result to rank 0: one message, or an error where it would not fit.
void send_result(const RankResult& r);

// Rank `from`'s result; a message that does not decode is a result with an error.
RankResult receive_result(int from);

// Rank 0's words to every rank.
std::vector<uint64_t> broadcast_words(std::vector<uint64_t> words);

// Rank `from`'s words, as they came (one message of kResultTag).
std::vector<uint64_t> receive_words(int from);

}  // namespace exactvq::mpi
