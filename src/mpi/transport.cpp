#include "mpi/transport.h"

#include <mpi.h>

#include <algorithm>
#include <climits>
#include <exception>

#include <fmt/format.h>

#include "cli/exit_status.h"
#include "mpi/wire.h"

namespace exactvq::mpi {

void broadcast_header(Header& h) {
  int64_t w[8] = {int64_t(h.mode), h.code,   h.ref_frames, h.dist_frames,
                  h.width,         h.height, h.chroma,     h.bitdepth};
  MPI_Bcast(w, 8, MPI_INT64_T, 0, MPI_COMM_WORLD);
  h = Header{Mode(w[0]), w[1], w[2], w[3], w[4], w[5], w[6], w[7]};
}

int broadcast_code(int code) {
  int c = code;
  MPI_Bcast(&c, 1, MPI_INT, 0, MPI_COMM_WORLD);
  return c;
}

void send_result(const RankResult& r) {
  const std::vector<uint64_t> words = encode(r);
  if (words.size() > size_t(INT32_MAX)) {
    RankResult too_big;
    too_big.exit_code = kExitFailure;
    too_big.error = "a rank's results exceed one MPI message (2^31 words); use more ranks";
    const std::vector<uint64_t> small = encode(too_big);
    MPI_Send(small.data(), int(small.size()), MPI_UINT64_T, 0, kResultTag, MPI_COMM_WORLD);
    return;
  }
  MPI_Send(words.data(), int(words.size()), MPI_UINT64_T, 0, kResultTag, MPI_COMM_WORLD);
}

RankResult receive_result(int from) {
  MPI_Status status;
  MPI_Probe(from, kResultTag, MPI_COMM_WORLD, &status);
  int count = 0;
  MPI_Get_count(&status, MPI_UINT64_T, &count);
  std::vector<uint64_t> words(size_t(std::max(count, 0)));
  MPI_Recv(words.data(), count, MPI_UINT64_T, from, kResultTag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  try {
    return decode(words);
  } catch (const std::exception& e) {
    RankResult r;
    r.exit_code = kExitFailure;
    r.error = fmt::format("rank {}: {}", from, e.what());
    return r;
  }
}

std::vector<uint64_t> broadcast_words(std::vector<uint64_t> words) {
  uint64_t size = words.size();
  MPI_Bcast(&size, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD);
  words.resize(size_t(size));
  for (uint64_t at = 0; at < size;) {  // in pieces that an int counts
    const int n = int(std::min<uint64_t>(size - at, uint64_t(1) << 30));
    MPI_Bcast(words.data() + at, n, MPI_UINT64_T, 0, MPI_COMM_WORLD);
    at += uint64_t(n);
  }
  return words;
}

std::vector<uint64_t> receive_words(int from) {
  MPI_Status status;
  MPI_Probe(from, kResultTag, MPI_COMM_WORLD, &status);
  int count = 0;
  MPI_Get_count(&status, MPI_UINT64_T, &count);
  std::vector<uint64_t> words(size_t(std::max(count, 0)));
  MPI_Recv(words.data(), count, MPI_UINT64_T, from, kResultTag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  return words;
}

}  // namespace exactvq::mpi
