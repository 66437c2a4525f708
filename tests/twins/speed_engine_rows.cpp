// SpEED's engine rows (engine_matrix.h): speed_chroma's frame engine (each
// frame's U and V scores) and speed_temporal's temporal one (each frame's score
// of the luma differences with the frame before, none for a run's first);
// the scalar reference is the Scorer with the reference covariance sums, over
// the same planes. case.fill: the chroma format (kChromas); case.b: the
// options, 0 the defaults, 1 a set of others.
#include <span>
#include <vector>

#include <fmt/format.h>

#include "engine_cases.h"
#include "engine_matrix.h"
#include "metrics/speed/engine.h"
#include "metrics/speed/reference.h"

namespace exactvq::twins {
namespace {

// Every value's bytes: the score's four, then whether it was singular (the
// struct's padding is not compared).
template <typename Setup>
void put_scores(Bytes& out, std::span<const speed::PairScore> v, const Setup&) {
  for (const speed::PairScore& s : v) {
    put(out, &s.score, 1);
    const unsigned char singular = s.singular ? 1 : 0;
    put(out, &singular, 1);
  }
}

std::vector<Case> speed_cases(const std::vector<std::array<int, 4>>& list, const char* what) {
  std::vector<Case> all;
  for (const auto& [w, h, bits, chroma] : list)
    for (int b : {0, 1}) {
      Case c;
      c.seed = case_seed(0x5eed'05ee, all.size());
      c.width = w;
      c.height = h;
      c.bits = bits;
      c.fill = chroma;
      c.a = 3;
      c.b = b;
      c.timed = int64_t(w) * h >= 1280 * 720 && b == 0;
      c.what =
          fmt::format("3 frames of {}x{} {} {}-bit, {} {}", w, h, chroma_name(kChromas[chroma]),
                      bits, what, b ? "with options" : "defaults");
      all.push_back(c);
    }
  return all;
}

speed::SpeedOptions case_options(speed::Feature f, const Case& c) {
  speed::SpeedOptions o;
  o.feature = f;
  if (c.b == 0) return o;
  if (f == speed::Feature::kChroma) {
    o.prescale = 1.5;
    o.prescale_method = speed::ScaleMethod::kBilinear;
    o.weight_var_mode = 3;
    o.nn_floor = 0.1;
  } else {
    o.use_ref_diff = true;
    o.prescale = 0.8;
    o.prescale_method = speed::ScaleMethod::kBicubic;
    o.kernelscale = 2.0;
  }
  return o;
}

struct SpeedChromaScores {
  using Setup = speed::chroma::EngineSetup;
  static constexpr const char* kName = "speed.chroma_scores";
  static std::vector<Case> cases() {
    return speed_cases({{160, 160, 8, 0},
                        {164, 96, 10, 1},
                        {81, 97, 12, 2},
                        {120, 90, 16, 2},
                        {321, 243, 8, 0},
                        {1920, 1080, 8, 0}},
                       "speed_chroma");
  }
  static Setup setup(const Case& c) {
    Setup s;
    s.format = every_format_of(c);
    s.options = case_options(speed::Feature::kChroma, c);
    return s;
  }
  static void reference(const FramePairs& in, size_t i, const Setup& s,
                        std::span<speed::PairScore> out) {
    const int w = speed::chroma_width(s.format), h = speed::chroma_height(s.format);
    for (int plane = 1; plane <= 2; ++plane) {
      speed::Scorer scorer(w, h, s.options);
      speed::load_plane(in.pairs[i].ref->plane(plane), w, h, s.format.bitdepth, scorer.ref(),
                        scorer.stride());
      speed::load_plane(in.pairs[i].dist->plane(plane), w, h, s.format.bitdepth, scorer.dis(),
                        scorer.stride());
      out[size_t(plane - 1)] = scorer.score();
    }
  }
  static void put_values(Bytes& out, std::span<const speed::PairScore> v, const Setup& s) {
    put_scores(out, v, s);
  }
};

struct SpeedTemporalScores {
  using Setup = speed::temporal::EngineSetup;
  static constexpr const char* kName = "speed.temporal_scores";
  static std::vector<Case> cases() {
    return speed_cases({{160, 160, 8, 3},
                        {131, 201, 10, 3},
                        {200, 100, 12, 0},
                        {100, 120, 16, 2},
                        {1920, 1080, 8, 0}},
                       "speed_temporal");
  }
  static Setup setup(const Case& c) {
    Setup s;
    s.format = every_format_of(c);
    s.options = case_options(speed::Feature::kTemporal, c);
    return s;
  }
  static void reference(const FramePairs& in, size_t i, const Setup& s,
                        std::span<speed::PairScore> out) {
    out[0] = speed::PairScore{};
    if (i == 0) return;
    const int w = s.format.width, h = s.format.height, bits = s.format.bitdepth;
    speed::Scorer scorer(w, h, s.options);
    const size_t stride = scorer.stride();
    std::vector<float> current(stride * size_t(h));
    const auto difference = [&](const Picture& before, const Picture& now, float* into) {
      speed::load_plane(before.plane(0), w, h, bits, into, stride);
      speed::load_plane(now.plane(0), w, h, bits, current.data(), stride);
      for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x)
          into[size_t(y) * stride + size_t(x)] -= current[size_t(y) * stride + size_t(x)];
    };
    difference(*in.pairs[i - 1].ref, *in.pairs[i].ref, scorer.ref());
    difference(*in.pairs[i - 1].dist, s.options.use_ref_diff ? *in.pairs[i].ref : *in.pairs[i].dist,
               scorer.dis());
    out[0] = scorer.score();
  }
  static void put_values(Bytes& out, std::span<const speed::PairScore> v, const Setup& s) {
    put_scores(out, v, s);
  }
};

EXACTVQ_TWIN_ROWS(speed_engine_rows) {
  register_engine_rows<SpeedChromaScores>();
  register_engine_rows<SpeedTemporalScores>();
}

}  // namespace
}  // namespace exactvq::twins
