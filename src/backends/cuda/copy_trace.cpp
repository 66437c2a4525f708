#include "backends/cuda/copy_trace.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>

namespace exactvq::cuda {

namespace {
std::unique_ptr<Event> record(cudaStream_t s) {
  auto e = std::make_unique<Event>(cudaEventDefault);
  check(cudaEventRecord(e->get(), s), "cudaEventRecord (trace)");
  return e;
}
double us_between(const Event& a, const Event& b) {
  float ms = 0;
  check(cudaEventElapsedTime(&ms, a.get(), b.get()), "cudaEventElapsedTime (trace)");
  return 1e3 * double(ms);
}
double us_of(std::chrono::steady_clock::duration d) {
  return std::chrono::duration<double, std::micro>(d).count();
}
double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}
}  // namespace

bool CopyTrace::enabled() {
  const char* v = std::getenv("EXACTVQ_CUDA_TRACE");
  return v && *v && std::atoi(v) != 0;
}

void CopyTrace::upload_begin() {
  upload_begin_ = Clock::now();
  current_ = Upload{};
  if (have_sync_end_) current_.host_between_us = us_of(upload_begin_ - sync_end_);
  folded_this_upload_ = false;
}
void CopyTrace::pinned() { pinned_ = Clock::now(); }

void CopyTrace::copies_begin(cudaStream_t copies) {
  chunks_.emplace_back().copy_begin = record(copies);
}

void CopyTrace::copies_end(cudaStream_t copies, size_t bytes) {
  chunks_.back().copy_end = record(copies);
  chunks_.back().bytes = bytes;
}

void CopyTrace::work_begin(cudaStream_t lane) { chunks_.back().work_begin = record(lane); }
void CopyTrace::work_end(cudaStream_t lane) { chunks_.back().work_end = record(lane); }

void CopyTrace::upload_end() { upload_end_ = Clock::now(); }
void CopyTrace::sync_begin() { sync_begin_ = Clock::now(); }

void CopyTrace::fold() {
  const Clock::time_point now = Clock::now();
  if (folded_this_upload_ || chunks_.empty()) return;
  folded_this_upload_ = true;
  sync_end_ = now;
  have_sync_end_ = true;
  Upload u = current_;
  u.host_pin_us = us_of(pinned_ - upload_begin_);
  u.host_enqueue_us = us_of(upload_end_ - pinned_);
  u.host_wait_us = us_of(now - sync_begin_);
  const Event* last_work_end = nullptr;
  const Event* last_copy_end = nullptr;
  for (size_t i = 0; i < chunks_.size(); ++i) {
    const Chunk& c = chunks_[i];
    if (!c.copy_end || !c.work_end) continue;
    u.bytes += double(c.bytes);
    u.copy_us += us_between(*c.copy_begin, *c.copy_end);
    if (last_copy_end) u.within_idle_us += us_between(*last_copy_end, *c.copy_begin);
    last_copy_end = c.copy_end.get();
    last_work_end = c.work_end.get();
  }
  if (last_copy_end && last_work_end) {
    // The GPU's work after the upload's last copy: the latest work end.
    double drain = 0;
    for (const Chunk& c : chunks_)
      if (c.work_end) drain = std::max(drain, us_between(*last_copy_end, *c.work_end));
    u.drain_us = drain;
  }
  if (last_work_end_ && chunks_.front().copy_begin)
    u.turnaround_us = us_between(*last_work_end_, *chunks_.front().copy_begin);
  if (u.bytes > 0) uploads_.push_back(u);
  // Keep the latest work end for the next upload's turn-around.
  for (Chunk& c : chunks_)
    if (c.work_end && (!last_work_end_ || us_between(*last_work_end_, *c.work_end) > 0))
      last_work_end_ = std::move(c.work_end);
  chunks_.clear();
}

CopyTrace::~CopyTrace() {
  try {
    fold();
  } catch (...) {}
  if (uploads_.size() < 2) return;
  auto med = [&](double Upload::*field) {
    std::vector<double> v;
    for (const Upload& u : uploads_) v.push_back(u.*field);
    return median(v);
  };
  std::vector<double> rate;
  for (const Upload& u : uploads_) rate.push_back(u.bytes / (u.copy_us * 1e3));
  std::fprintf(
      stderr,
      "exactvq cuda trace (medians over %zu uploads of %.1f MB): copies busy %.1f us (%.1f GB/s "
      "while busy), copy stream idle within the upload %.1f us; after the last copy: GPU work "
      "%.1f us, then %.1f us to the next upload's first copy; host: pin %.1f us, enqueue %.1f us, "
      "wait %.1f us, caller between uploads %.1f us\n",
      uploads_.size(), med(&Upload::bytes) / 1e6, med(&Upload::copy_us), median(rate),
      med(&Upload::within_idle_us), med(&Upload::drain_us), med(&Upload::turnaround_us),
      med(&Upload::host_pin_us), med(&Upload::host_enqueue_us), med(&Upload::host_wait_us),
      med(&Upload::host_between_us));
}

}  // namespace exactvq::cuda
