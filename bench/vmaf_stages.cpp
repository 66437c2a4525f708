// vmaf_stages REF.y4m DIST.y4m [FRAMES [ROUNDS [THREADS...]]]: where a frame of VMAF v0.6.1 goes
// on the CPU, stage by stage, at each thread count: reading (the Y4M reader into reused
// pictures), allocation, vif (its blur and, per level, the vertical moments and the horizontal
// statistic), adm (DWT, decoupling, CSF, masking, denominator), motion's SAD and the model. T
// threads run T copies of the pipeline at once, copy t on frames t .. t + FRAMES - 1 (the clip
// needs FRAMES + T - 1 frames), as a run on T threads scores T frames at once. Rounds alternate
// the library's own stages (the rows vif, adm, motion: no timer inside) with timing copies of
// them (the rows below them, each call timed); every row is the least of its rounds (other
// processes only add time), the median of the copies. Then the memory bandwidth each thread
// count gets (memcpy and a read-only sum over 256 MiB per thread). Exits 1 where a timed round's
// sums differ from the library's.
#include <algorithm>
#include <array>
#include <atomic>
#include <barrier>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#if defined(__linux__)
#include <sys/resource.h>
#endif

#include "core_clock.h"
#include "core/picture.h"
#include "io/video_source.h"
#include "metrics/adm/cpu/adm_simd.h"
#include "metrics/adm/reference.h"
#include "metrics/adm/row_kernels.h"
#include "metrics/adm/scores.h"
#include "metrics/motion/motion_scores.h"
#include "metrics/motion/sad.h"
#include "metrics/vif/cpu/paired_lines.h"
#include "metrics/vif/cpu/vif_simd.h"
#include "metrics/vif/reference.h"
#include "metrics/vmaf/model.h"
#include "metrics/vmaf/predict.h"
#include "timed_calls.h"

namespace {

using namespace exactvq;

using bench::ticks;

// Ticks a millisecond, measured against the steady clock.
double ticks_per_ms() {
  const auto t0 = std::chrono::steady_clock::now();
  const uint64_t k0 = ticks();
  while (std::chrono::steady_clock::now() - t0 < std::chrono::milliseconds(200)) {
  }
  const double ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  return double(ticks() - k0) / ms;
}

// The rows, in the order printed; "plain" rows come from the library's own stages, the others
// from the timing copies.
enum Row {
  kFrame,
  kRead,
  kAllocation,
  kVif,
  kVifBlur01,  // the blur and halving of level 0 into level 1 (the next level's taps)
  kVifBlur12,
  kVifBlur23,
  kVifVertical0,  // + level: the vertical moments
  kVifVertical1,
  kVifVertical2,
  kVifVertical3,
  kVifHorizontal0,  // + level: the horizontal statistic
  kVifHorizontal1,
  kVifHorizontal2,
  kVifHorizontal3,
  kVifColumns,  // the lines' mirrored edges where no halves kernel runs (the tail's columns and
                // the halves' edges count in the horizontal rows)
  kVifTimed,    // the timed copy's whole vif
  kAdm,
  kAdmDwt,
  kAdmDecouple,
  kAdmCsf,
  kAdmMasking,  // masking and the flat sums it reads
  kAdmDenominator,
  kAdmTimed,  // the timed copy's whole adm
  kMotion,
  kFeatures,  // vif's, adm's and motion's scores from their sums
  kModel,     // predict: normalisation, SVM, transform, clip
  kRows
};
const char* const kRowNames[kRows] = {
    "frame (plain rounds)",
    "reading (Y4M, luma, ref + dist)",
    "allocation + first touch (pair)",
    "vif (plain)",
    "  vif blur + halving, level 0 -> 1",
    "  vif blur + halving, level 1 -> 2",
    "  vif blur + halving, level 2 -> 3",
    "  vif vertical moments level 0",
    "  vif vertical moments level 1",
    "  vif vertical moments level 2",
    "  vif vertical moments level 3",
    "  vif horizontal statistic level 0",
    "  vif horizontal statistic level 1",
    "  vif horizontal statistic level 2",
    "  vif horizontal statistic level 3",
    "  vif mirrored edges (rows without a halves kernel)",
    "  vif (timed copy, whole)",
    "adm (plain)",
    "  adm DWT",
    "  adm decoupling",
    "  adm CSF",
    "  adm masking + flat sums",
    "  adm denominator",
    "  adm (timed copy, whole)",
    "motion SAD (plain)",
    "features from sums",
    "model (predict)",
};
bool timed_row(int r) {
  return (r >= kVifBlur01 && r <= kVifTimed) || (r >= kAdmDwt && r <= kAdmTimed);
}

thread_local uint64_t tl_spent[kRows];

// adm's row table with each routine timed into its row.
adm::RowKernels g_adm;
template <int R>
struct Spent {
  static void add(uint64_t t) { tl_spent[R] += t; }
};
template <int R, auto M>
using TimedAdm = bench::TimedMember<g_adm, M, Spent<R>>;
adm::RowKernels timed_adm_table() {
  using K = adm::RowKernels;
  K k;
  k.dwt0_vertical8 = TimedAdm<kAdmDwt, &K::dwt0_vertical8>::call;
  k.dwt0_vertical16 = TimedAdm<kAdmDwt, &K::dwt0_vertical16>::call;
  k.dwt0_horizontal = TimedAdm<kAdmDwt, &K::dwt0_horizontal>::call;
  k.dwt_vertical_s123 = TimedAdm<kAdmDwt, &K::dwt_vertical_s123>::call;
  k.dwt_horizontal_s123 = TimedAdm<kAdmDwt, &K::dwt_horizontal_s123>::call;
  k.dwt_vertical_s1 = TimedAdm<kAdmDwt, &K::dwt_vertical_s1>::call;
  k.decouple_row_s0 = TimedAdm<kAdmDecouple, &K::decouple_row_s0>::call;
  k.decouple_row_s123 = TimedAdm<kAdmDecouple, &K::decouple_row_s123>::call;
  k.csf_row_s0 = TimedAdm<kAdmCsf, &K::csf_row_s0>::call;
  k.csf_row_s123 = TimedAdm<kAdmCsf, &K::csf_row_s123>::call;
  k.masking_row_s0 = TimedAdm<kAdmMasking, &K::masking_row_s0>::call;
  k.masking_row_s123 = TimedAdm<kAdmMasking, &K::masking_row_s123>::call;
  k.flat_sum_row_s0 = TimedAdm<kAdmMasking, &K::flat_sum_row_s0>::call;
  k.flat_sum_row_s123 = TimedAdm<kAdmMasking, &K::flat_sum_row_s123>::call;
  k.denominator_row_s0 = TimedAdm<kAdmDenominator, &K::denominator_row_s0>::call;
  k.denominator_row_s123 = TimedAdm<kAdmDenominator, &K::denominator_row_s123>::call;
  return k;
}

int vif_level(size_t taps) { return taps == 17 ? 0 : taps == 9 ? 1 : taps == 5 ? 2 : 3; }

// vif::cpu::row_statistics and row_statistics_pair (cpu/row_statistics.cpp) with their parts
// timed: the same calls in the same order; the timed rounds' sums are checked against the
// library's. The vertical pass into the halves of one row or two, then each row's finish (its
// tail columns, mirrored edges and horizontal pass).
vif::LevelSums timed_halves_rows(std::span<const uint8_t* const> ref_rows,
                                 std::span<const uint8_t* const> dist_rows, vif::SampleWidth sample,
                                 int width, std::span<const uint16_t> taps, vif::Rounding mean,
                                 vif::Rounding square, double gain_limit, vif::MomentLines& lines,
                                 bool pair, bool& done_any) {
  using vif::cpu::PairedLines;
  thread_local PairedLines halves[2];
  const size_t n = taps.size();
  const int level = vif_level(n), half = int(n / 2);
  done_any = false;
  if (width <= 2 * half) return {};
  for (PairedLines& h : halves) vif::cpu::size_halves(h, width, half);
  const uint64_t t0 = ticks();
  const int done = pair ? vif::cpu::vertical_moment_halves_pair(ref_rows, dist_rows, sample, width,
                                                                taps, mean, square, halves[0],
                                                                halves[1])
                        : vif::cpu::vertical_moment_halves(ref_rows, dist_rows, sample, width,
                                                           taps, mean, square, halves[0]);
  const uint64_t t1 = ticks();
  tl_spent[kVifVertical0 + level] += t1 - t0;
  if (done == 0) return {};
  done_any = true;
  vif::LevelSums s = vif::cpu::finish_row(ref_rows.first(n), dist_rows.first(n), sample, width,
                                          taps, mean, square, gain_limit, done, halves[0], lines);
  if (pair)
    s += vif::cpu::finish_row(ref_rows.subspan(1, n), dist_rows.subspan(1, n), sample, width, taps,
                              mean, square, gain_limit, done, halves[1], lines);
  tl_spent[kVifHorizontal0 + level] += ticks() - t1;
  return s;
}

// One row (kPair false) or rows i and i + 1 (true), as the library's stage of that name.
template <bool kPair>
vif::LevelSums timed_statistics(std::span<const uint8_t* const> ref_rows,
                                std::span<const uint8_t* const> dist_rows, vif::SampleWidth sample,
                                int width, std::span<const uint16_t> taps, vif::Rounding mean,
                                vif::Rounding square, double gain_limit, vif::MomentLines& lines) {
  bool done = false;
  const vif::LevelSums s = timed_halves_rows(ref_rows, dist_rows, sample, width, taps, mean, square,
                                             gain_limit, lines, kPair, done);
  if (done) return s;
  const size_t n = taps.size();
  if constexpr (kPair) {
    vif::LevelSums sums = timed_statistics<false>(ref_rows.first(n), dist_rows.first(n), sample,
                                                  width, taps, mean, square, gain_limit, lines);
    sums += timed_statistics<false>(ref_rows.subspan(1, n), dist_rows.subspan(1, n), sample, width,
                                    taps, mean, square, gain_limit, lines);
    return sums;
  }
  const int level = vif_level(n), half = int(n / 2);
  const uint64_t t0 = ticks();
  vif::cpu::vertical_moments(ref_rows, dist_rows, sample, width, taps, mean, square, lines);
  const uint64_t t1 = ticks();
  for (vif::EdgeLine* line : {&lines.mu1, &lines.mu2, &lines.xx, &lines.yy, &lines.xy})
    vif::mirror_edge_columns(*line, width, half);
  const uint64_t t2 = ticks();
  const vif::LevelSums sums = vif::cpu::horizontal_statistics(lines, width, taps, gain_limit);
  const uint64_t t3 = ticks();
  tl_spent[kVifVertical0 + level] += t1 - t0;
  tl_spent[kVifColumns] += t2 - t1;
  tl_spent[kVifHorizontal0 + level] += t3 - t2;
  return sums;
}

void timed_blur_row(std::span<const uint8_t* const> ref_rows,
                    std::span<const uint8_t* const> dist_rows, vif::SampleWidth sample, int width,
                    std::span<const uint16_t> taps, vif::Rounding round, vif::BlurLines& lines,
                    std::span<uint16_t> ref_out, std::span<uint16_t> dist_out) {
  const uint64_t t0 = ticks();
  vif::cpu::blur_row(ref_rows, dist_rows, sample, width, taps, round, lines, ref_out, dist_out);
  tl_spent[kVifBlur01 + vif_level(taps.size()) - 1] += ticks() - t0;
}

constexpr vif::VifStages kTimedVif{&timed_statistics<false>, &timed_blur_row,
                                   &timed_statistics<true>};
constexpr vif::VifStages kPlainVif{&vif::cpu::row_statistics, &vif::cpu::blur_row,
                                   &vif::cpu::row_statistics_pair};

struct Clip {
  std::string ref, dist;
  VideoFormat format;
};

// One copy's least time a frame of each row over its rounds, in ticks.
using RowTimes = std::array<double, kRows>;

struct CopyResult {
  RowTimes best;
  double faults_per_frame = 0;  // minor page faults a frame, least over the plain rounds
  bool same = true;             // the timed rounds' sums equal the plain rounds'
};

struct FrameSums {
  vif::VifLevelSums vif;
  adm::AdmSums adm;
  uint64_t sad = 0;
};
bool operator==(const FrameSums& a, const FrameSums& b) {
  for (int s = 0; s < 4; ++s)
    for (int o = 0; o < 3; ++o)
      if (a.adm[s].den[o] != b.adm[s].den[o] || a.adm[s].num[o] != b.adm[s].num[o] ||
          a.adm[s].aim_num[o] != b.adm[s].aim_num[o])
        return false;
  return a.vif == b.vif && a.sad == b.sad;
}

long minor_faults() {
#if defined(__linux__)
  rusage u{};
  getrusage(RUSAGE_THREAD, &u);
  return u.ru_minflt;
#else
  return 0;
#endif
}

// Copy `copy` of `threads`: ROUNDS rounds of FRAMES frames from frame `copy` on, each round
// begun and ended together with the other copies.
void run_copy(const Clip& clip, const vmaf::Model& model, int copy, int frames, int rounds,
              std::barrier<>& sync, CopyResult& out) {
  const adm::RowKernels& plain_adm = adm::cpu::simd_row_kernels();
  static const adm::RowKernels timed_adm = timed_adm_table();
  const vif::VifOptions vif_options;
  const adm::AdmOptions adm_options;
  const motion::MotionOptions motion_options;
  const int w = clip.format.width, h = clip.format.height, bits = clip.format.bitdepth;
  std::array<Picture, 2> ref, dist;  // this frame's and the one before, alternating
  std::vector<FrameSums> plain_sums(static_cast<size_t>(frames)),
      timed_sums(static_cast<size_t>(frames));
  out.best.fill(1e300);
  out.faults_per_frame = 1e300;
  std::vector<double> inputs(model.features.size());
  for (int round = 0; round < rounds; ++round) {
    const bool timed = round % 2 == 1;
    std::unique_ptr<VideoSource> ref_in = open_y4m(clip.ref), dist_in = open_y4m(clip.dist);
    ref_in->read_planes_only(1);
    dist_in->read_planes_only(1);
    for (int i = 0; i < copy; ++i) {
      ref_in->skip_frame();
      dist_in->skip_frame();
    }
    std::fill(std::begin(tl_spent), std::end(tl_spent), 0);
    // What a frame pair's pictures cost where they are not reused: allocated, their luma pages
    // touched (the reader writes them), freed.
    {
      const uint64_t t0 = ticks();
      Picture a, b;
      a.allocate(clip.format);
      b.allocate(clip.format);
      for (Picture* p : {&a, &b})
        for (size_t at = 0; at < p->planes[0].size(); at += 4096) p->planes[0][at] = 1;
      tl_spent[kAllocation] += ticks() - t0;
    }
    sync.arrive_and_wait();
    const long faults0 = minor_faults();
    const uint64_t frame0 = ticks();
    for (int i = 0; i < frames; ++i) {
      Picture& r = ref[size_t(i % 2)];
      Picture& d = dist[size_t(i % 2)];
      uint64_t t = ticks();
      if (!ref_in->read_frame(r) || !dist_in->read_frame(d)) {
        std::fprintf(stderr, "vmaf_stages: the clip needs %d frames\n", frames + copy);
        std::exit(2);
      }
      uint64_t t1 = ticks();
      tl_spent[kRead] += t1 - t;
      FrameSums sums;
      t = t1;
      sums.vif = vif::vif_level_sums(r.plane(0), d.plane(0), bits, vif_options,
                                     timed ? kTimedVif : kPlainVif);
      t1 = ticks();
      tl_spent[timed ? kVifTimed : kVif] += t1 - t;
      t = t1;
      sums.adm = adm::adm_integer_sums(r.plane(0), d.plane(0), bits, adm_options,
                                       timed ? timed_adm : plain_adm);
      t1 = ticks();
      tl_spent[timed ? kAdmTimed : kAdm] += t1 - t;
      t = t1;
      if (i > 0) sums.sad = motion::sad(ref[size_t((i + 1) % 2)].plane(0), r.plane(0), bits, 0, h);
      t1 = ticks();
      tl_spent[kMotion] += t1 - t;
      t = t1;
      const vif::VifScores vs = vif::vif_scores(sums.vif, vif_options);
      const adm::AdmScores as = adm::adm_scores_from_sums(sums.adm, w, h, adm_options);
      const double motion_score = motion::sad_score(sums.sad, w, h, motion_options);
      for (size_t k = 0; k < model.features.size(); ++k) {
        const std::string& name = model.features[k].name;
        inputs[k] = name.find("adm2") != std::string::npos     ? as.adm2
                    : name.find("motion") != std::string::npos ? motion_score
                    : name.find("scale0") != std::string::npos ? vs.scale[0]
                    : name.find("scale1") != std::string::npos ? vs.scale[1]
                    : name.find("scale2") != std::string::npos ? vs.scale[2]
                                                               : vs.scale[3];
      }
      t1 = ticks();
      tl_spent[kFeatures] += t1 - t;
      t = t1;
      const double score = vmaf::predict(model, inputs);
      t1 = ticks();
      tl_spent[kModel] += t1 - t;
      if (score < -1e300) std::puts("");  // keeps the call
      (timed ? timed_sums : plain_sums)[size_t(i)] = sums;
    }
    const uint64_t frame_ticks = ticks() - frame0;
    const long faults = minor_faults() - faults0;
    sync.arrive_and_wait();
    if (!timed) {
      tl_spent[kFrame] = frame_ticks;
      out.faults_per_frame = std::min(out.faults_per_frame, double(faults) / frames);
    }
    for (int k = 0; k < kRows; ++k) {
      if (timed_row(k) != timed && k != kRead && k != kAllocation && k != kMotion &&
          k != kFeatures && k != kModel)
        continue;
      const double per_frame =
          k == kAllocation ? double(tl_spent[k])
                           : double(tl_spent[k]) / (k == kMotion ? frames - 1 : frames);
      out.best[size_t(k)] = std::min(out.best[size_t(k)], per_frame);
    }
  }
  if (rounds > 1) out.same = plain_sums.size() == timed_sums.size() &&
                             std::equal(plain_sums.begin(), plain_sums.end(), timed_sums.begin());
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

// GB/s that `threads` threads get together: memcpy (bytes read + written) and a read-only sum,
// 256 MiB a thread, the best of `rounds`.
std::array<double, 2> bandwidth(int threads, int rounds) {
  constexpr size_t kBytes = size_t(256) << 20;
  std::vector<std::vector<uint64_t>> src(static_cast<size_t>(threads)),
      dst(static_cast<size_t>(threads));
  for (int t = 0; t < threads; ++t) {
    src[size_t(t)].assign(kBytes / 8, uint64_t(t + 1));
    dst[size_t(t)].assign(kBytes / 8, 0);
  }
  std::array<double, 2> best{0, 0};
  std::atomic<uint64_t> keep{0};
  for (int kind = 0; kind < 2; ++kind)
    for (int r = 0; r < rounds; ++r) {
      std::barrier<> sync(threads + 1);
      std::vector<std::thread> pool;
      for (int t = 0; t < threads; ++t)
        pool.emplace_back([&, t] {
          sync.arrive_and_wait();
          if (kind == 0) {
            std::memcpy(dst[size_t(t)].data(), src[size_t(t)].data(), kBytes);
          } else {
            const uint64_t* p = src[size_t(t)].data();
            uint64_t a[8] = {};
            for (size_t i = 0; i < kBytes / 8; i += 8)
              for (int j = 0; j < 8; ++j) a[j] += p[i + size_t(j)];
            keep += a[0] + a[1] + a[2] + a[3] + a[4] + a[5] + a[6] + a[7];
          }
          sync.arrive_and_wait();
        });
      sync.arrive_and_wait();
      const auto t0 = std::chrono::steady_clock::now();
      sync.arrive_and_wait();
      const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      for (std::thread& th : pool) th.join();
      const double bytes = double(kBytes) * threads * (kind == 0 ? 2 : 1);
      best[size_t(kind)] = std::max(best[size_t(kind)], bytes / s / 1e9);
    }
  if (keep == 1) std::puts("");
  return best;
}

VideoFormat probe(const std::string& path) {
  std::unique_ptr<VideoSource> in = open_y4m(path);
  return in->format();
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr,
                 "usage: vmaf_stages REF.y4m DIST.y4m [FRAMES [ROUNDS [THREADS...]]]\n");
    return 2;
  }
  Clip clip{argv[1], argv[2], probe(argv[1])};
  const int frames = argc > 3 ? std::max(2, std::atoi(argv[3])) : 16;
  const int rounds = argc > 4 ? std::max(2, std::atoi(argv[4])) : 6;
  std::vector<int> thread_counts;
  for (int i = 5; i < argc; ++i) thread_counts.push_back(std::max(1, std::atoi(argv[i])));
  if (thread_counts.empty()) thread_counts = {1, int(std::max(1u, std::thread::hardware_concurrency()))};
  g_adm = adm::cpu::simd_row_kernels();
  const vmaf::Model model = vmaf::builtin_model("vmaf_v0.6.1");
  const double tpm = ticks_per_ms();

  std::vector<RowTimes> rows;  // per thread count, the copies' median
  std::vector<double> faults;
  bool same = true;
  for (const int threads : thread_counts) {
    std::vector<CopyResult> results(static_cast<size_t>(threads));
    std::barrier<> sync(threads);
    std::vector<std::thread> pool;
    for (int t = 0; t < threads; ++t)
      pool.emplace_back([&, t] {
        run_copy(clip, model, t, frames, rounds, sync, results[size_t(t)]);
      });
    for (std::thread& th : pool) th.join();
    RowTimes m{};
    std::vector<double> f;
    for (int k = 0; k < kRows; ++k) {
      std::vector<double> v;
      for (const CopyResult& c : results) v.push_back(c.best[size_t(k)] / tpm);
      m[size_t(k)] = median(v);
    }
    for (const CopyResult& c : results) {
      f.push_back(c.faults_per_frame);
      same = same && c.same;
    }
    rows.push_back(m);
    faults.push_back(median(f));
  }

  std::printf("VMAF v0.6.1 stages, %dx%d %d-bit, %d frames a copy, least of %d rounds (half "
              "plain, half timed), median of the copies; ms a frame of one copy (thread)\n",
              clip.format.width, clip.format.height, clip.format.bitdepth, frames, rounds / 2);
  std::printf("| row | share of a 1-thread frame |");
  for (const int t : thread_counts) std::printf(" %d thread%s |", t, t > 1 ? "s" : "");
  std::printf("\n|---|---:|");
  for (size_t i = 0; i < thread_counts.size(); ++i) std::printf("---:|");
  std::printf("\n");
  const double whole = rows[0][kFrame];
  for (int k = 0; k < kRows; ++k) {
    std::printf("| %s | %.1f%% |", kRowNames[k], 100.0 * rows[0][size_t(k)] / whole);
    for (const RowTimes& r : rows) std::printf(" %.4f |", r[size_t(k)]);
    std::printf("\n");
  }
  std::printf("| minor page faults a frame (plain rounds) | |");
  for (const double f : faults) std::printf(" %.2f |", f);
  std::printf("\n(allocation: a fresh pair's allocation and first touch of its luma, which the "
              "steady loop above does not pay: it reuses its pictures)\n");
  if (const double ghz = twins::core_clock_ghz(0.5); ghz > 0)
    std::printf("core clock %.2f GHz (one thread, dependent additions)\n", ghz);
  std::printf("memory bandwidth, GB/s of all threads together (best of 3):\n");
  for (const int t : thread_counts) {
    const std::array<double, 2> bw = bandwidth(t, 3);
    std::printf("  %d thread%s: memcpy (read + write) %.1f, read-only sum %.1f\n", t,
                t > 1 ? "s" : "", bw[0], bw[1]);
  }
  if (!same) {
    std::fprintf(stderr, "vmaf_stages: the timed rounds' sums differ from the library's\n");
    return 1;
  }
  return 0;
}
