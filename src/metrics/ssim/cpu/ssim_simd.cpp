#include "metrics/ssim/cpu/ssim_simd.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <cassert>
#include <cstdlib>
#include <string_view>
#include <vector>

#include "metrics/ssim/cpu/ssim_kernels.h"
#include "metrics/ssim/raster_sum.h"
#include "metrics/ssim/taps.h"
#include "metrics/ssim/term.h"

namespace exactvq::cpu {

namespace {

using ssim::kRadius;
using ssim::kTaps;

// Lane types per bit depth (bounds in ssim_kernels.h): horizontal
// second-order moments in H, window ones in V.
template <typename SampleT, typename HT, typename VT>
struct Widths {
  using Sample = SampleT;
  using H = HT;
  using V = VT;
};

// Per-thread buffers, kept between calls so a frame allocates nothing.
std::vector<uint64_t>& thread_storage() {
  thread_local std::vector<uint64_t> storage;
  return storage;
}

// Hands out consecutive arrays from one buffer, each starting on a 64-byte
// line: a vector store to an array then splits no cache line (a split store
// costs about twice a whole one, and the kernels store every output).
class Carver {
 public:
  static constexpr size_t kLineWords = 8;  // 64 bytes
  explicit Carver(uint64_t* base)
      : next_(base +
              (kLineWords - reinterpret_cast<uintptr_t>(base) / 8 % kLineWords) % kLineWords) {}
  template <typename T>
  T* take(size_t n) {
    T* p = reinterpret_cast<T*>(next_);
    next_ += words(n, sizeof(T));
    return p;
  }
  template <typename W>
  MomentRow<W> row(size_t n) {
    return {take<uint32_t>(n), take<uint32_t>(n), take<W>(n), take<W>(n), take<W>(n)};
  }
  // Words an array of n values of `bytes` takes, whole lines.
  static size_t words(size_t n, size_t bytes) { return ((n * bytes + 63) / 64) * kLineWords; }

 private:
  uint64_t* next_;
};

// Which pipeline runs after the horizontal pass (see ssim_simd.h).
bool default_fused() {
  const char* v = std::getenv("EXACTVQ_CPU_FUSED");
  return v != nullptr && std::string_view(v) != "0";
}

std::atomic<bool>& fused_flag() {
  static std::atomic<bool> fused{default_fused()};
  return fused;
}

// Calls sink(q, weight) for every output row (or two consecutive rows at once)
// of `region`, top to bottom: the `exact` sum q of the rows' terms and the sum
// of their weights. Unless raster_sum is null, the terms are also added to
// *raster_sum one at a time in raster order (rows top to bottom, each left to
// right).
template <typename Widths, typename Sink>
void for_each_term_row(const PlaneView& ref, const PlaneView& dist, int bitdepth, ssim::Rect region,
                       double* raster_sum, Sink&& sink) {
  using Sample = typename Widths::Sample;
  using H = typename Widths::H;
  using V = typename Widths::V;
  assert(ref.width == dist.width && ref.height == dist.height);
  const int width = ref.width, height = ref.height;
  const int out_width = region.x1 - region.x0;
  if (out_width <= 0 || region.y1 <= region.y0) return;
  const size_t n = size_t(out_width);

  // Ten rows of horizontal moments: two consecutive windows at once (below).
  constexpr int kRing = kTaps + 1;
  const size_t words =
      kRing * (2 * Carver::words(n, 4) + 3 * Carver::words(n, sizeof(H))) +
      2 * (2 * Carver::words(n, 4) + 3 * Carver::words(n, sizeof(V))) /* window rows */ +
      Carver::words(2 * n, 8) /* terms of two rows */ + Carver::words(n, 4) /* column weights */ +
      Carver::words(n, sizeof(V)) /* a row of zeros */ +
      Carver::words(horizontal_scratch_size(region.x0, region.x1), 4) +
      Carver::kLineWords /* aligning the first array */;
  std::vector<uint64_t>& storage = thread_storage();
  if (storage.size() < words) storage.resize(words);
  Carver carve(storage.data());
  std::array<MomentRow<H>, kRing> ring;  // horizontal moments of plane row r in slot r % 10
  for (auto& row : ring) row = carve.row<H>(n);
  std::array<MomentRow<V>, 2> window = {carve.row<V>(n), carve.row<V>(n)};
  double* terms = carve.take<double>(2 * n);
  uint32_t* column_weight = carve.take<uint32_t>(n);
  uint32_t* scratch = carve.take<uint32_t>(horizontal_scratch_size(region.x0, region.x1));
  uint64_t column_weight_sum = 0;
  for (int x = region.x0; x < region.x1; ++x) {
    column_weight[x - region.x0] = ssim::kept_weight(x, width);
    column_weight_sum += column_weight[x - region.x0];
  }
  const ssim::TermConstants constants = ssim::term_constants(bitdepth);
  const bool fused = fused_flag().load(std::memory_order_relaxed);

  // At 9 and 10 bits the stage-by-stage pipeline filters xx + yy instead of xx
  // and yy, and hands the term x2 + y2 in place of x2 and 0 in place of y2: the
  // same bits. At b <= 10, x2, y2 < 2^(2b+16) <= 2^36, wd <= 2^16, mux, muy <
  // 2^(b+16): every integer D's first steps form, x2 * wd, y2 * wd, (x2 + y2) *
  // wd, mx2, my2 and each partial sum of ((x2 * wd - mx2) + y2 * wd) - my2, is
  // below 2^53 in magnitude, so each of those binary64 operations is exact and
  // both orders give the exact integer (x2 + y2) * wd - mx2 - my2 before c2 is
  // added. One filter fewer each way (and xx + yy < 2^29 fits the horizontal
  // lanes). Above 10 bits x2 * wd can pass 2^53; at 8 bits x2 + y2 can pass the
  // 32-bit window lanes.
  constexpr bool kMaySumSquares = sizeof(Sample) == 2 && sizeof(H) == 4;
  const bool sum_squares = kMaySumSquares && bitdepth <= 10 && !fused;
  if (sum_squares) {
    V* zeros = carve.take<V>(n);
    std::fill(zeros, zeros + n, V{0});
    for (auto& row : window) row.yy = zeros;
  }

  // The exact sum of the terms of `rows` (1 or 2) consecutive window rows, each
  // of weight row_weight, summed as formed; or raster's sequential sum of them,
  // row after row, from the stored terms.
  const auto finish_rows = [&](const MomentRow<V>* win, int rows,
                               uint32_t row_weight) -> ssim::int128 {
    if (!raster_sum) {
      WindowRow<V> rows_of[2];
      for (int j = 0; j < rows; ++j)
        rows_of[j] = WindowRow<V>{win[j].m, win[j].n, win[j].xx, win[j].xy, win[j].yy};
      return terms_exact_sum(rows_of, rows, column_weight, row_weight, n, constants);
    }
    for (int j = 0; j < rows; ++j)
      ssim_terms(WindowRow<V>{win[j].m, win[j].n, win[j].xx, win[j].xy, win[j].yy}, column_weight,
                 row_weight, n, constants, terms + size_t(j) * n);
    *raster_sum = ssim::add_in_raster_order(*raster_sum, terms, size_t(rows) * n);
    return 0;
  };

  // A strip reads a few cache lines of each row, a stride apart, which the
  // hardware prefetchers do not follow: ask for the samples of the row
  // kPrefetchRows ahead while this one is filtered.
  constexpr int kPrefetchRows = 4;
  const int read_x0 = std::max(0, region.x0 - kRadius),
            read_x1 = std::min(width, region.x1 + kRadius);
  const auto prefetch_samples = [&](int row) {
    if (row >= height) return;
    for (const PlaneView* plane : {&ref, &dist}) {
      const char* begin = reinterpret_cast<const char*>(plane->row<Sample>(row) + read_x0);
      const char* end = reinterpret_cast<const char*>(plane->row<Sample>(row) + read_x1);
      for (const char* p = begin; p < end; p += 64) __builtin_prefetch(p);
      __builtin_prefetch(end - 1);
    }
  };

  int next_row = std::max(0, region.y0 - kRadius);  // next plane row to filter
  for (int y = region.y0; y < region.y1;) {
    // Rows y and y + 1 together when both windows lie wholly in the plane (the
    // ten rows y-4 .. y+5): each row's moments are read once for both.
    const bool pair = !fused && y + 1 < region.y1 && y - kRadius >= 0 && y + 1 + kRadius < height;
    const int last = pair ? y + 1 : y;
    for (const int r_end = std::min(height, last + kRadius + 1); next_row < r_end; ++next_row) {
      prefetch_samples(next_row + kPrefetchRows);
      if constexpr (kMaySumSquares) {
        if (sum_squares) {
          horizontal_moments_summed_squares(ref.row<Sample>(next_row), dist.row<Sample>(next_row),
                                            width, region.x0, region.x1, scratch,
                                            ring[size_t(next_row % kRing)]);
          continue;
        }
      }
      horizontal_moments(ref.row<Sample>(next_row), dist.row<Sample>(next_row), width, region.x0,
                         region.x1, scratch, ring[size_t(next_row % kRing)]);
    }

    if (pair) {
      const uint32_t* m[kRing];
      const uint32_t* nn[kRing];
      const H *xx[kRing], *xy[kRing], *yy[kRing];
      for (int k = 0; k < kRing; ++k) {
        const MomentRow<H>& row = ring[size_t((y - kRadius + k) % kRing)];
        m[k] = row.m, nn[k] = row.n, xx[k] = row.xx, xy[k] = row.xy, yy[k] = row.yy;
      }
      vertical_moments_pair(m, window[0].m, window[1].m, n);
      vertical_moments_pair(nn, window[0].n, window[1].n, n);
      vertical_moments_pair(xx, window[0].xx, window[1].xx, n);
      vertical_moments_pair(xy, window[0].xy, window[1].xy, n);
      if (!sum_squares) vertical_moments_pair(yy, window[0].yy, window[1].yy, n);
      sink(finish_rows(window.data(), 2, 256), 2 * column_weight_sum * 256);
      y += 2;
      continue;
    }

    // One row: the vertical pass over the window's rows that lie in the plane.
    TapRows<H> taps;
    for (int k = 0; k < kTaps; ++k) {
      const int r = y - kRadius + k;
      const MomentRow<H>* row = (r >= 0 && r < height) ? &ring[size_t(r % kRing)] : nullptr;
      taps.m[k] = row ? row->m : nullptr;
      taps.n[k] = row ? row->n : nullptr;
      taps.xx[k] = row ? row->xx : nullptr;
      taps.xy[k] = row ? row->xy : nullptr;
      taps.yy[k] = row ? row->yy : nullptr;
    }
    const uint32_t row_weight = ssim::kept_weight(y, height);
    ssim::int128 q;
    if (!fused) {
      // Stage by stage: the window row's moments, its terms, their exact sum.
      vertical_moments(taps.m, window[0].m, n);
      vertical_moments(taps.n, window[0].n, n);
      vertical_moments(taps.xx, window[0].xx, n);
      vertical_moments(taps.xy, window[0].xy, n);
      if (!sum_squares) vertical_moments(taps.yy, window[0].yy, n);
      q = finish_rows(window.data(), 1, row_weight);
    } else if constexpr (sizeof(H) == 4 && sizeof(V) == 8)
      q = window_terms_widening(taps, column_weight, row_weight, n, constants, nullptr, raster_sum);
    else
      q = window_terms(taps, column_weight, row_weight, n, constants, nullptr, raster_sum);
    sink(q, column_weight_sum * row_weight);
    ++y;
  }
}

template <typename Sink>
void dispatch(const PlaneView& ref, const PlaneView& dist, int bitdepth, ssim::Rect region,
              double* raster_sum, Sink&& sink) {
  if (bitdepth == 8)
    for_each_term_row<Widths<uint8_t, uint32_t, uint32_t>>(ref, dist, bitdepth, region, raster_sum,
                                                           sink);
  else if (bitdepth <= 12)
    for_each_term_row<Widths<uint16_t, uint32_t, uint64_t>>(ref, dist, bitdepth, region, raster_sum,
                                                            sink);
  else
    for_each_term_row<Widths<uint16_t, uint64_t, uint64_t>>(ref, dist, bitdepth, region, raster_sum,
                                                            sink);
}

// Strip widths measured best on AVX-512 machines (docs/figures.md): 8 bits
// keep ten rows of 20 bytes a column, 128 columns in 26 KiB of the first-level
// data cache; 9 to 12 bits read 64-bit window lanes whose conversions, not the
// cache, bound the vertical pass: in whole runs (the frame just read) strips of
// up to 2048 columns, whole 1080p rows, beat narrower ones.
int automatic_strip_columns(int bitdepth) {
  if (bitdepth == 8) return 128;
  return bitdepth <= 12 ? 2048 : 128;
}

int strip_columns_from_environment() {
  const char* v = std::getenv("EXACTVQ_CPU_STRIP");
  return v ? std::max(0, std::atoi(v)) : 0;
}

std::atomic<int>& strip_columns_setting() {
  static std::atomic<int> columns{strip_columns_from_environment()};
  return columns;
}

}  // namespace

void use_fused_window_terms(bool fused) { fused_flag() = fused; }
bool fused_window_terms() { return fused_flag(); }

void use_strip_columns(int columns) { strip_columns_setting() = std::max(0, columns); }
int strip_columns(int bitdepth) {
  const int set = strip_columns_setting().load(std::memory_order_relaxed);
  return set > 0 ? set : automatic_strip_columns(bitdepth);
}

StripSplit StripSplit::of(int width, int bitdepth) {
  const int most = strip_columns(bitdepth);  // about this many columns a strip
  return {width, width > most ? (width + most - 1) / most : 1};
}

ssim::ExactSum exact_sum(const PlaneView& ref, const PlaneView& dist, int bitdepth,
                         ssim::Rect region) {
  ssim::ExactSum sum;
  const auto add = [&sum](ssim::int128 q, uint64_t w) {
    sum.sum_q += q;
    sum.sum_w += w;
  };
  // Strips scored whole one after another: integer sums, so any split gives
  // these bits.
  const StripSplit strips = StripSplit::of(region.x1 - region.x0, bitdepth);
  for (int s = 0; s < strips.count; ++s)
    dispatch(ref, dist, bitdepth,
             {region.x0 + strips.x0(s), region.y0, region.x0 + strips.x1(s), region.y1}, nullptr,
             add);
  return sum;
}

double score_exact(const PlaneView& ref, const PlaneView& dist, int bitdepth) {
  return cpu::exact_sum(ref, dist, bitdepth, ssim::whole(ref)).score();
}

double raster_sum(const PlaneView& ref, const PlaneView& dist, int bitdepth) {
  // The kernels add each term to `sum` in raster order, one addition at a time.
  double sum = 0.0;
  dispatch(ref, dist, bitdepth, ssim::whole(ref), &sum, [](ssim::int128, uint64_t) {});
  return sum;
}

double score_raster(const PlaneView& ref, const PlaneView& dist, int bitdepth) {
  return raster_sum(ref, dist, bitdepth) /
         static_cast<double>(ssim::plane_weight_sum(ref.width, ref.height));
}

}  // namespace exactvq::cpu
