#include "metrics/vif/reference.h"

#include <bit>
#include <cstring>
#include <vector>

#include <fmt/format.h>

#include "core/error.h"
#include "metrics/vif/blur.h"
#include "metrics/vif/edges.h"

namespace exactvq::vif {

namespace {

// The quiet NaN x86-64 gives for 0.0f / 0.0f (sign bit set), widened to double.
const double kLevelNaN = std::bit_cast<double>(uint64_t{0xfff8000000000000});

// Whether level 0 is read from the plane itself rather than a copy: from 16
// rows on no level has a single row, the only reader of rows a level did not
// write (a one-row level mirrors the rows after its own); libvmaf's buffer
// then holds nothing else that is read, and level 0's edge rows are the
// plane's rows mirrored (at least 9 rows: the reflection of each edge row lies
// inside). The plane's samples must be the rows' little-endian ones.
bool level0_in_place(const PlaneView& p, int bitdepth) {
  return p.height >= 16 && (bitdepth == 8 || std::endian::native == std::endian::little);
}

// One picture's pyramid rows: level 0 is the plane; each halving overwrites
// the start of the rows (libvmaf's one buffer). With level0_in_place, the
// rows' memory only (each halving writes the rows it reads).
LevelRows load_level0(const PlaneView& p, int bitdepth, std::vector<uint8_t>&& storage) {
  const size_t bytes = size_t(p.width) * (bitdepth > 8 ? 2 : 1);
  // From 2 rows on, the copies and the edge rows' mirror write every byte
  // (mirror_edge_rows reaches kMaxHalfTaps rows): no zeroing first.
  LevelRows rows(bytes, p.height, std::move(storage), /*zeroed=*/p.height < 2);
  if (level0_in_place(p, bitdepth)) return rows;
  for (int y = 0; y < p.height; ++y) {
    if (bitdepth == 8 || std::endian::native == std::endian::little) {
      // Little-endian samples: the host's own bytes.
      std::memcpy(rows.row(y), p.row<uint8_t>(y), bytes);
    } else {
      const uint16_t* in = p.row<uint16_t>(y);
      for (int x = 0; x < p.width; ++x) store_sample16(rows.row(y), x, in[x]);
    }
  }
  mirror_edge_rows(rows, p.height, half_taps(0));
  return rows;
}

// The rows y - half .. y + half of a level, for a vertical pass of `taps`, and
// with `rows` = taps + 1 the next one too (the rows of y and y + 1).
struct RowWindow {
  std::array<const uint8_t*, 2 * kMaxHalfTaps + 2> ref{}, dist{};
  size_t count = 0;
  RowWindow(const LevelRows& r, const LevelRows& d, int y, size_t taps, size_t rows) : count(rows) {
    const int half = int(taps / 2);
    for (size_t k = 0; k < rows; ++k) {
      ref[k] = r.row(y - half + int(k));
      dist[k] = d.row(y - half + int(k));
    }
  }
  // The same of planes of at least 9 rows, their edge rows mirrored
  // (mirror_edge_rows' rows).
  RowWindow(const PlaneView& r, const PlaneView& d, int y, size_t taps, size_t rows) : count(rows) {
    const int half = int(taps / 2), last = r.height - 1;
    for (size_t k = 0; k < rows; ++k) {
      int i = y - half + int(k);
      i = i < 0 ? -i : i > last ? 2 * last - i : i;
      ref[k] = r.row<uint8_t>(i);
      dist[k] = d.row<uint8_t>(i);
    }
  }
  std::span<const uint8_t* const> ref_rows() const { return {ref.data(), count}; }
  std::span<const uint8_t* const> dist_rows() const { return {dist.data(), count}; }
};

// The frame's working state: the pyramid rows and the lines of both passes,
// all kept from level to level as libvmaf keeps its buffers.
struct Pyramid {
  LevelRows ref, dist;
  MomentLines moments;
  BlurLines blur;
  int width, height;  // of the current level
  int level = 0;
  int bitdepth;
  const VifStages* stages;
  // Level 0 read in place (level0_in_place), else null.
  const PlaneView* plane_ref = nullptr;
  const PlaneView* plane_dist = nullptr;

  RowWindow window(int y, size_t taps, size_t rows) const {
    if (level == 0 && plane_ref) return RowWindow(*plane_ref, *plane_dist, y, taps, rows);
    return RowWindow(ref, dist, y, taps, rows);
  }

  SampleWidth sample() const {
    return level == 0 && bitdepth == 8 ? SampleWidth::k8 : SampleWidth::k16;
  }

  // Blurs the current level with the next level's taps, keeps even rows and
  // columns, and mirrors the new level's edge rows as far as the old level's
  // taps reach (libvmaf pads by the larger half-width).
  void halve() {
    const std::span<const uint16_t> taps = level_taps(level + 1);
    const Rounding round = rounding_by(level == 0 ? bitdepth : 16);
    const int w2 = width / 2, h2 = height / 2;
    // Every entry is written below: the buffers keep their memory from frame
    // to frame unzeroed.
    thread_local std::vector<uint16_t> ref_half, dist_half;
    ref_half.resize(size_t(w2) * size_t(h2));
    dist_half.resize(ref_half.size());
    // Only the rows kept (even, below 2 * h2) need their blur, except on a
    // one-column level, whose lines' edge columns carry over from row to row
    // (libvmaf blurs every row): from two columns on, mirroring rewrites every
    // edge column from the row's own columns.
    for (int y = 0; y < height; ++y) {
      if (width >= 2 && (y % 2 != 0 || y / 2 >= h2)) continue;
      const RowWindow win = window(y, taps.size(), taps.size());
      // A one-column level keeps nothing of a row (w2 is 0).
      const size_t kept = y % 2 == 0 && y / 2 < h2 ? size_t(w2) : 0;
      const size_t at = kept ? size_t(y / 2) * size_t(w2) : 0;
      stages->blur(win.ref_rows(), win.dist_rows(), sample(), width, taps, round, blur,
                   {ref_half.data() + at, kept}, {dist_half.data() + at, kept});
    }
    for (int y = 0; y < h2; ++y) {
      const uint16_t* r = ref_half.data() + size_t(y) * size_t(w2);
      const uint16_t* d = dist_half.data() + size_t(y) * size_t(w2);
      if constexpr (std::endian::native == std::endian::little) {
        // The level rows hold little-endian samples: the host's own bytes.
        std::memcpy(ref.row(y), r, size_t(w2) * 2);
        std::memcpy(dist.row(y), d, size_t(w2) * 2);
      } else {
        for (int x = 0; x < w2; ++x) {
          store_sample16(ref.row(y), x, r[x]);
          store_sample16(dist.row(y), x, d[x]);
        }
      }
    }
    mirror_edge_rows(ref, h2, half_taps(level));
    mirror_edge_rows(dist, h2, half_taps(level));
    width = w2;
    height = h2;
    ++level;
  }

  LevelSums statistic(double gain_limit) {
    const std::span<const uint16_t> taps = level_taps(level);
    const Rounding mean = vertical_mean_rounding(level, bitdepth);
    const Rounding square = vertical_square_rounding(level, bitdepth);
    LevelSums sums;
    int y = 0;
    // Row y + 1's rows lie inside the level's mirrored edge rows as row y's do.
    if (stages->statistics_pair)
      for (; y + 1 < height; y += 2) {
        const RowWindow win = window(y, taps.size(), taps.size() + 1);
        sums += stages->statistics_pair(win.ref_rows(), win.dist_rows(), sample(), width, taps,
                                        mean, square, gain_limit, moments);
      }
    for (; y < height; ++y) {
      const RowWindow win = window(y, taps.size(), taps.size());
      sums += stages->statistics(win.ref_rows(), win.dist_rows(), sample(), width, taps, mean,
                                 square, gain_limit, moments);
    }
    return sums;
  }
};

double level_score(const LevelRatio& r) {
  if (r.num == 0.0f && r.den == 0.0f) return kLevelNaN;
  return double(r.num / r.den);
}

}  // namespace

void check_vif_size(int width, int height, const VifOptions& options, const char* where) {
  const int min_width = options.skip_scale0 ? 4 : 2;
  if (height < kMinHeight)
    throw PictureError(fmt::format(
        "{}: vif cannot score a {}x{} picture: it needs at least {} rows (libvmaf's vif crashes "
        "on fewer: its pyramid's third halving leaves no rows)",
        where, width, height, kMinHeight));
  if (width < min_width)
    throw PictureError(fmt::format(
        "{}: vif cannot score a {}x{} picture: it needs at least {} columns{} (libvmaf's vif reads "
        "edge columns left from earlier frames on fewer)",
        where, width, height, min_width, options.skip_scale0 ? " with vif_skip_scale0" : ""));
}

VifScores vif_reference(const PlaneView& ref, const PlaneView& dist, int bitdepth,
                        const VifOptions& options) {
  return vif_with_stages(ref, dist, bitdepth, options, kReferenceStages);
}

VifScores vif_with_stages(const PlaneView& ref, const PlaneView& dist, int bitdepth,
                          const VifOptions& options, const VifStages& stages) {
  return vif_scores(vif_level_sums(ref, dist, bitdepth, options, stages), options);
}

VifLevelSums vif_level_sums(const PlaneView& ref, const PlaneView& dist, int bitdepth,
                            const VifOptions& options, const VifStages& stages) {
  if (bitdepth < 8 || bitdepth > 16)
    throw PictureError(fmt::format("vif: bit depth {} is outside 8..16", bitdepth));
  const int bps = bitdepth > 8 ? 2 : 1;
  if (ref.width != dist.width || ref.height != dist.height || ref.bytes_per_sample != bps ||
      dist.bytes_per_sample != bps)
    throw InputError(
        fmt::format("vif: reference {}x{} ({} bytes a sample) and distorted {}x{} ({}) do not "
                    "match {}-bit luma",
                    ref.width, ref.height, ref.bytes_per_sample, dist.width, dist.height,
                    dist.bytes_per_sample, bitdepth));
  check_vif_size(ref.width, ref.height, options, "vif");

  // The level rows' memory, kept by each thread from frame to frame (zeroed
  // again for each, as fresh buffers are).
  thread_local std::vector<uint8_t> ref_storage, dist_storage;
  Pyramid p{load_level0(ref, bitdepth, std::move(ref_storage)),
            load_level0(dist, bitdepth, std::move(dist_storage)),
            MomentLines(ref.width),
            BlurLines(ref.width),
            ref.width,
            ref.height,
            0,
            bitdepth,
            &stages};
  if (level0_in_place(ref, bitdepth)) {
    p.plane_ref = &ref;
    p.plane_dist = &dist;
  }
  VifLevelSums sums{};
  for (int level = 0; level < kLevels; ++level) {
    if (level > 0) {
      // A level of no pixels scores 0 / 0; nothing after it reads what its
      // passes would write, so they are left out.
      if (p.width / 2 == 0 || p.height / 2 == 0) break;
      p.halve();
    }
    if (level == 0 && options.skip_scale0) continue;
    sums[size_t(level)] = p.statistic(options.gain_limit);
  }
  ref_storage = std::move(p.ref).release();
  dist_storage = std::move(p.dist).release();
  return sums;
}

VifScores vif_scores(const VifLevelSums& sums, const VifOptions& options) {
  VifScores s;
  for (int level = 0; level < kLevels; ++level)
    s.levels[size_t(level)] = level_ratio(sums[size_t(level)]);
  for (int level = 0; level < kLevels; ++level)
    s.scale[size_t(level)] = level_score(s.levels[size_t(level)]);
  const std::array<LevelRatio, kLevels>& l = s.levels;
  if (options.skip_scale0) {
    s.scale[0] = 0.0;
    s.num = double(l[1].num) + double(l[2].num) + double(l[3].num);
    s.den = double(l[1].den) + double(l[2].den) + double(l[3].den);
  } else {
    s.num = double(l[0].num) + double(l[1].num) + double(l[2].num) + double(l[3].num);
    s.den = double(l[0].den) + double(l[1].den) + double(l[2].den) + double(l[3].den);
  }
  s.vif = s.den == 0.0 ? 1.0 : s.num / s.den;
  for (int level = 0; level < kLevels; ++level) {
    s.num_scale[size_t(level)] = double(l[size_t(level)].num);
    s.den_scale[size_t(level)] = double(l[size_t(level)].den);
  }
  if (options.skip_scale0) {
    s.num_scale[0] = 0.0;
    s.den_scale[0] = -1.0;
  }
  return s;
}

}  // namespace exactvq::vif
