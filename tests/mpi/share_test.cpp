// The MPI front end's sharing out, in one process and without MPI: for every rank
// count, every rank's piece scored by score_range() on its own opened inputs and put
// together by combine() must write the bytes score_videos() writes, and a failing
// run must fail with score_videos()'s message and exit status.
#include <gtest/gtest.h>

#include <bit>
#include <sstream>

#include <fmt/format.h>

#include "app/score_run.h"
#include "cli/cli_fixture.h"
#include "core/error.h"
#include "mpi/range_score.h"
#include "mpi/wire.h"
#include "output/report.h"

namespace exactvq::mpi {
namespace {

using namespace exactvq::clitest;

struct Outcome {
  int code = 0;
  std::string message;  // the error, or the end-of-input warning on success
  std::string report;   // every format's text, fps 0
  bool shared = true;   // false: the driver would not share this run out
};

std::string all_formats(ScoreReport report) {
  report.fps = 0;
  std::ostringstream s;
  for (const OutputFormat f : {OutputFormat::kXml, OutputFormat::kJson, OutputFormat::kCsv})
    write_report(s, report, f, NumberFormat{6, false});
  write_report(s, report, OutputFormat::kJson, NumberFormat{0, true});
  return s.str();
}

Outcome one_process(RunOptions o) {
  Outcome out;
  o.warn = [&](const std::string& w) { out.message = w; };
  try {
    out.report = all_formats(score_videos(o));
  } catch (...) {
    RankResult r;
    record_exception(r, std::current_exception());
    out.code = r.exit_code;
    out.message = r.error;
  }
  return out;
}

// What exactvq-mpi does with `ranks` ranks, each rank in turn.
Outcome ranks_in_turn(const RunOptions& o, int ranks) {
  Outcome out;
  std::vector<RankSetup> setups;
  try {
    setups.push_back(open_rank(o));
  } catch (...) {
    RankResult r;
    record_exception(r, std::current_exception());
    out.code = r.exit_code;
    out.message = r.error;
    return out;
  }
  const auto ref_frames = setups[0].ref->frame_count();
  const auto dist_frames = setups[0].dist->frame_count();
  if (!ref_frames || !dist_frames) {
    out.shared = false;
    return out;
  }
  const SharePlan plan = plan_shares(*ref_frames, *dist_frames, o, ranks);
  if (plan.scored == 0) {
    out.shared = false;
    return out;
  }
  EXPECT_EQ(plan.ranges.size(), size_t(ranks));
  std::vector<RankResult> results;
  for (int r = 0; r < ranks; ++r) {
    const FrameRange& range = plan.ranges[size_t(r)];
    if (range.empty()) {
      results.emplace_back();
      continue;
    }
    RankResult result;
    try {
      RankSetup s = r == 0 ? std::move(setups[0]) : open_rank(o);
      result = score_range(s, o, range);
      if (r == 0) setups[0] = std::move(s);
    } catch (...) {
      record_exception(result, std::current_exception());
    }
    results.push_back(std::move(result));
  }
  if (const RankResult* failed = first_failure(results)) {
    out.code = failed->exit_code;
    out.message = failed->error;
    return out;
  }
  try {
    std::string warning;
    out.report = all_formats(combine(setups[0], o, plan, results, warning));
    out.message = warning;
  } catch (const std::exception& e) {
    out.code = exit_status_of(std::current_exception(), FailedWhile::kRunning);
    out.message = e.what();
  }
  return out;
}

class Share : public CliTest {
 protected:
  // Every rank count from 1 to 6 against one process.
  void expect_same(const RunOptions& o, const std::string& what) {
    const Outcome want = one_process(o);
    for (int ranks = 1; ranks <= 6; ++ranks) {
      SCOPED_TRACE(what + ", " + std::to_string(ranks) + " ranks");
      const Outcome got = ranks_in_turn(o, ranks);
      if (!got.shared) continue;
      ++shared_runs_;
      EXPECT_EQ(got.code, want.code);
      EXPECT_EQ(got.message, want.message);
      EXPECT_EQ(got.report, want.report);
    }
  }

  RunOptions options(const std::string& ref, const std::string& dist) const {
    RunOptions o;
    o.ref_path = ref;
    o.dist_path = dist;
    o.features = features_;
    return o;
  }

  // Every frame selection of interest on this pair.
  void expect_same_selections(const std::string& ref, const std::string& dist,
                              const std::string& what) {
    for (const std::optional<int64_t> count :
         {std::optional<int64_t>(), std::optional<int64_t>(1), std::optional<int64_t>(4),
          std::optional<int64_t>(7), std::optional<int64_t>(12)})
      for (const int64_t skip_ref : {0, 1, 3})
        for (const int64_t skip_dist : {0, 2})
          for (const int sub : {1, 2, 3}) {
            RunOptions o = options(ref, dist);
            o.frame_count = count;
            o.skip_ref = skip_ref;
            o.skip_dist = skip_dist;
            o.subsample = sub;
            expect_same(o, what + fmt::format(": frame_cnt {} skip {}/{} subsample {}",
                                              count ? *count : -1, skip_ref, skip_dist, sub));
          }
  }

  std::vector<FeatureSpec> features_{
      {"ssim", {}},
      {"psnr", {{"enable_apsnr", "true"}, {"enable_mse", "true"}}},
  };
  int shared_runs_ = 0;
};

TEST_F(Share, EightBitY4mEveryFrameSelection) {
  const VideoFormat f = make_format(23, 17);
  const auto ref = write_y4m("ref.y4m", f, 8, 0);
  const auto dist = write_y4m("dist.y4m", f, 8, 1);
  expect_same_selections(ref, dist, "8-bit 4:2:0");
  EXPECT_GT(shared_runs_, 500);
}

TEST_F(Share, TenBitShorterDistortedWarns) {
  const VideoFormat f = make_format(20, 14, ChromaFormat::k422, 10);
  const auto ref = write_y4m("ref.y4m", f, 9, 0);
  const auto dist = write_y4m("dist.y4m", f, 6, 2);
  expect_same_selections(ref, dist, "10-bit 4:2:2, dist shorter");
  expect_same(options(dist, ref), "ref shorter");
  const Outcome o = one_process(options(ref, dist));
  EXPECT_NE(o.message.find("ended before"), std::string::npos) << o.message;
}

TEST_F(Share, RasterSsimAndChroma) {
  features_ = {{"ssim", {{"sum", "raster"}, {"chroma", "true"}}}};
  const VideoFormat f = make_format(33, 21, ChromaFormat::k444, 12);
  const auto ref = write_y4m("ref.y4m", f, 7, 0);
  const auto dist = write_y4m("dist.y4m", f, 7, 3);
  for (const int sub : {1, 2}) {
    RunOptions o = options(ref, dist);
    o.subsample = sub;
    expect_same(o, "raster");
  }
  features_ = {{"ssim", {{"enable_db", "true"}, {"clip_db", "true"}}},
               {"psnr", {{"enable_apsnr", "true"}, {"reduced_hbd_peak", "true"}}}};
  expect_same(options(ref, dist), "db, apsnr reduced peak");
}

TEST_F(Share, RawYuvWithAPartialLastFrameFailsAsOneProcess) {
  const VideoFormat f = make_format(16, 12, ChromaFormat::k420, 10);
  const std::string whole = raw_bytes(f, make_frames(f, 6, 1));
  const auto ref = write("ref.yuv", raw_bytes(f, make_frames(f, 6, 0)));
  const auto dist = write("dist.yuv", whole.substr(0, whole.size() - 100));
  RunOptions o = options(ref, dist);
  o.raw.width = 16;
  o.raw.height = 12;
  o.raw.bitdepth = 10;
  o.raw.chroma = ChromaFormat::k420;
  expect_same(o, "truncated raw");
  const Outcome one = one_process(o);
  EXPECT_EQ(one.code, kExitPicture);
  EXPECT_NE(one.message.find("truncated frame 5"), std::string::npos) << one.message;
  EXPECT_GT(shared_runs_, 0);
  // Whole files, raw at 10 bits.
  const auto dist_whole = write("dist_whole.yuv", whole);
  o.dist_path = dist_whole;
  expect_same(o, "raw");
}

TEST_F(Share, BadSampleInTheMiddleFailsAsOneProcess) {
  const VideoFormat f = make_format(16, 12, ChromaFormat::k420, 10);
  auto frames = make_frames(f, 7, 1);
  frames[4][0][17] = 1023 + 9;  // above the 10-bit maximum, frame 4
  frames[5][1][3] = 4000;       // and a later one: the first is reported
  const auto ref = write_y4m("ref.y4m", f, 7, 0);
  const auto dist = write("dist.y4m", y4m_bytes(f, frames));
  expect_same(options(ref, dist), "bad sample");
  const Outcome one = one_process(options(ref, dist));
  EXPECT_EQ(one.code, kExitFailure);
  EXPECT_NE(one.message.find("frame 4"), std::string::npos) << one.message;
  // Skipped (unscored) frames are not checked, by either.
  RunOptions o = options(ref, dist);
  o.subsample = 3;
  expect_same(o, "bad sample, subsample 3");
  // Both inputs bad at frame 4: the reference's error is the one reported.
  auto ref_frames = make_frames(f, 7, 0);
  ref_frames[4][2][1] = 1100;
  const auto bad_ref = write("bad_ref.y4m", y4m_bytes(f, ref_frames));
  expect_same(options(bad_ref, dist), "both bad");
  EXPECT_NE(one_process(options(bad_ref, dist)).message.find("bad_ref.y4m"), std::string::npos);
  // The reference ends at frame 4 where the distorted input is bad: the error wins.
  const auto short_ref = write_y4m("short_ref.y4m", f, 4, 0);
  expect_same(options(short_ref, dist), "end and error at one frame");
  EXPECT_EQ(one_process(options(short_ref, dist)).code, kExitFailure);
}

TEST_F(Share, ErrorsBeforeScoringAreOneProcessErrors) {
  const VideoFormat f = make_format(16, 12);
  const auto ref = write_y4m("ref.y4m", f, 4, 0);
  const auto dist = write_y4m("dist.y4m", make_format(18, 12), 4, 1);
  expect_same(options(ref, path("missing.y4m")), "missing");
  expect_same(options(ref, dist), "sizes differ");
  features_ = {{"ssim", {}}, {"ssim", {}}};
  expect_same(options(ref, ref), "twice");
  features_ = {{"psnr", {{"bogus", "1"}}}};
  expect_same(options(ref, ref), "bad option");
}

TEST(SharePlan, PiecesAreContiguousAndEven) {
  RunOptions o;
  o.subsample = 3;
  const SharePlan p = plan_shares(20, 17, o, 4);  // 17 run frames, 6 scored
  EXPECT_EQ(p.run_frames, 17);
  EXPECT_EQ(p.scored, 6);
  ASSERT_EQ(p.ranges.size(), 4u);
  int64_t next = 0;
  for (const FrameRange& r : p.ranges) {
    EXPECT_EQ(r.first, next * 3);
    next += r.scored;
    EXPECT_TRUE(r.scored == 1 || r.scored == 2);
  }
  EXPECT_EQ(next, 6);
  EXPECT_TRUE(p.ranges[3].last);
  EXPECT_FALSE(p.ranges[3].end.has_value());  // reads to the end, as one process
  EXPECT_EQ(p.ranges[0].end, 3);
  // More ranks than frames: the last ranks have nothing.
  const SharePlan q = plan_shares(2, 2, RunOptions{}, 5);
  int with_frames = 0;
  for (const FrameRange& r : q.ranges) with_frames += !r.empty();
  EXPECT_EQ(with_frames, 2);
  EXPECT_TRUE(q.ranges[4].last);
  // A huge --frame_cnt does not overflow.
  RunOptions big;
  big.frame_count = INT64_MAX;
  const SharePlan h = plan_shares(2, 2, big, 7);
  EXPECT_EQ(h.scored, INT64_MAX);
  EXPECT_EQ(h.ranges[6].end, INT64_MAX);
  // With --subsample too (UBSan caught ceil(n / sub) computed as (n + sub - 1) / sub).
  big.subsample = 3;
  const SharePlan hs = plan_shares(2, 2, big, 7);
  EXPECT_EQ(hs.scored, INT64_MAX / 3 + 1);
  for (size_t r = 0; r + 1 < hs.ranges.size(); ++r)
    EXPECT_EQ(hs.ranges[r].end, hs.ranges[r + 1].first);
}

}  // namespace
}  // namespace exactvq::mpi

namespace exactvq::mpi {
namespace {

TEST(Wire, ResultsRoundTripBitForBit) {
  RankResult r;
  r.exit_code = 2;
  r.error = "an error of 17 chars";
  r.warning = "warning: \xff\x00 bytes";
  r.frames = 3;
  const double nan_with_payload = std::bit_cast<double>(uint64_t{0x7ff8000000001234});
  r.columns = {{0.1, -0.0, nan_with_payload}, {1e300, 5e-324, -1.0 / 3}};
  r.states = {{}, {AggregateWord(1) << 100 | 7, ~AggregateWord(0)}};
  r.unmergeable = {1, 0};
  const RankResult back = decode(encode(r));
  EXPECT_EQ(back.exit_code, 2);
  EXPECT_EQ(back.error, r.error);
  EXPECT_EQ(back.warning, r.warning);
  EXPECT_EQ(back.frames, 3);
  ASSERT_EQ(back.columns.size(), 2u);
  for (size_t c = 0; c < 2; ++c)
    for (size_t i = 0; i < 3; ++i)
      EXPECT_EQ(std::bit_cast<uint64_t>(back.columns[c][i]),
                std::bit_cast<uint64_t>(r.columns[c][i]));
  EXPECT_TRUE(back.states == r.states);
  EXPECT_EQ(back.unmergeable, r.unmergeable);
  std::vector<uint64_t> cut = encode(r);
  cut.pop_back();
  EXPECT_THROW(decode(cut), std::runtime_error);
  cut = encode(r);
  cut[0] ^= 1;
  EXPECT_THROW(decode(cut), std::runtime_error);
}

TEST(Wire, BatchPairsAndResultsRoundTrip) {
  std::vector<BatchPair> pairs(2);
  pairs[0] = {2, "a.y4m", "b.y4m", "out/a.json", {"--feature", "psnr", ""}};
  pairs[1] = {7, "c d.yuv", "e.yuv", "f.xml", {}};
  const auto back = decode_pairs(encode_pairs(pairs));
  ASSERT_EQ(back.size(), 2u);
  EXPECT_EQ(back[0].line, 2);
  EXPECT_EQ(back[0].options, pairs[0].options);
  EXPECT_EQ(back[1].ref, "c d.yuv");
  PairResult ok;
  ok.ok = true;
  ok.frames = 10;
  ok.pooled_means = {{"ssim", 0.933136123}, {"psnr_y", 25.5}};
  ok.warnings = {"warning: x"};
  PairResult bad;
  bad.error = "cannot open";
  const auto results = decode_pair_results(encode_pair_results({{4, ok}, {9, bad}}));
  ASSERT_EQ(results.size(), 2u);
  EXPECT_EQ(results[0].first, 4u);
  EXPECT_TRUE(results[0].second.ok);
  EXPECT_EQ(results[0].second.pooled_means, ok.pooled_means);
  EXPECT_EQ(results[0].second.warnings, ok.warnings);
  EXPECT_EQ(results[1].first, 9u);
  EXPECT_FALSE(results[1].second.ok);
  EXPECT_EQ(results[1].second.error, "cannot open");
}

}  // namespace
}  // namespace exactvq::mpi
