// ssim and psnr sharing one OpenCL device in a run:
// each plane of a frame pair is uploaded once, and the SSE of a plane that ssim
// also scores comes out of the SSIM pass. The values must not change: the two
// features together equal each alone on the device and the CPU reference, bit
// for bit, in either order and at several batch sizes, on every public vector
// and on seeded random pairs (1x1 upward, 8 to 16 bits, 420/422/444/mono, both
// sum modes, psnr options). The device's counters prove the sharing happened.
#include "opencl_fixture.h"
#include "metrics/registry.h"
#include "metrics/ssim/opencl/fused_sse.h"

namespace exactvq::opencltest {
namespace {

// What the device did: planes uploaded, and SSEs from the SSIM pass or apart.
struct Counters {
  int64_t plane_uploads = 0;
  int64_t fused_sse = 0;
  int64_t separate_sse = 0;
};

Counters counters_of(opencl::OpenclDevice& dev) {
  const auto& sse = dev.state<ssim::opencl::FusedSse>().counters();
  return {dev.counters().plane_uploads, sse.fused, sse.separate};
}

struct FramePictures {
  Picture ref, dist;
};

// What one run of some features over some frames produced.
struct RunValues {
  std::vector<std::vector<double>> per_feature;  // frames x outputs, row after row
  std::vector<std::vector<std::pair<std::string, double>>> aggregates;
  Counters counters;  // what the device did in this run
};

// Scores `frames` with `specs` as score_run does: for each batch of `batch`
// pairs, each feature in order over the whole batch; frame numbers from 0.
RunValues run(const VideoFormat& f, const std::vector<std::string>& specs,
              const std::vector<FramePictures>& frames,
              const std::shared_ptr<opencl::OpenclDevice>& dev, size_t batch) {
  const Counters before = dev ? counters_of(*dev) : Counters{};
  std::vector<std::unique_ptr<Feature>> features;
  for (const auto& s : specs)
    features.push_back(make_feature(parse_feature_spec(s), FeatureContext{f, nullptr, dev}));
  RunValues r;
  r.per_feature.resize(features.size());
  std::vector<FramePair> pairs;
  std::vector<double> values;
  for (size_t start = 0; start < frames.size(); start += batch) {
    pairs.clear();
    for (size_t i = start; i < std::min(frames.size(), start + batch); ++i)
      pairs.push_back({&frames[i].ref, &frames[i].dist, int64_t(i)});
    for (size_t k = 0; k < features.size(); ++k) {
      values.assign(pairs.size() * features[k]->outputs().size(), 0.0);
      features[k]->extract_batch(pairs, values);
      r.per_feature[k].insert(r.per_feature[k].end(), values.begin(), values.end());
    }
  }
  for (auto& feature : features) r.aggregates.push_back(feature->aggregates());
  if (dev) {
    const Counters after = counters_of(*dev);
    r.counters.plane_uploads = after.plane_uploads - before.plane_uploads;
    r.counters.fused_sse = after.fused_sse - before.fused_sse;
    r.counters.separate_sse = after.separate_sse - before.separate_sse;
  }
  return r;
}

// Compares feature `a` of run `x` with feature `b` of run `y`; returns values compared.
size_t expect_same(const RunValues& x, size_t a, const RunValues& y, size_t b,
                   const std::string& where) {
  EXPECT_EQ(x.per_feature[a].size(), y.per_feature[b].size()) << where;
  size_t n = 0;
  for (size_t i = 0; i < std::min(x.per_feature[a].size(), y.per_feature[b].size()); ++i, ++n)
    EXPECT_TRUE(same_bits(x.per_feature[a][i], y.per_feature[b][i]))
        << where << " value " << i << ": " << fmt::format("{:a}", x.per_feature[a][i])
        << " against " << fmt::format("{:a}", y.per_feature[b][i]);
  EXPECT_EQ(x.aggregates[a].size(), y.aggregates[b].size()) << where;
  for (size_t i = 0; i < std::min(x.aggregates[a].size(), y.aggregates[b].size()); ++i, ++n)
    EXPECT_TRUE(x.aggregates[a][i].first == y.aggregates[b][i].first &&
                same_bits(x.aggregates[a][i].second, y.aggregates[b][i].second))
        << where << " aggregate " << x.aggregates[a][i].first;
  return n;
}

int ssim_planes(const VideoFormat& f, const std::string& ssim) {
  return f.chroma != ChromaFormat::kMono && ssim.find("chroma=true") != std::string::npos ? 3 : 1;
}

int psnr_planes(const VideoFormat& f, const std::string& psnr) {
  return f.chroma != ChromaFormat::kMono && psnr.find("enable_chroma=false") == std::string::npos
             ? 3
             : 1;
}

// ssim and psnr together on the device (both orders, batches of 1 and 3) against
// each alone on the device and on the CPU; checks the device's counters. Returns
// the number of values compared.
size_t check_together(const VideoFormat& f, const std::string& ssim, const std::string& psnr,
                      const std::vector<FramePictures>& frames, const std::string& where,
                      const std::vector<size_t>& batches = {1, 3}) {
  const auto dev = device();
  const RunValues cpu = run(f, {ssim, psnr}, frames, nullptr, 1);
  const RunValues ssim_alone = run(f, {ssim}, frames, dev, 1);
  const RunValues psnr_alone = run(f, {psnr}, frames, dev, 1);
  size_t n = expect_same(cpu, 0, ssim_alone, 0, where + " ssim alone") +
             expect_same(cpu, 1, psnr_alone, 0, where + " psnr alone");
  const int64_t count = int64_t(frames.size());
  const int sp = ssim_planes(f, ssim), pp = psnr_planes(f, psnr);
  const int shared = std::min(sp, pp), uploaded = std::max(sp, pp);
  EXPECT_EQ(ssim_alone.counters.plane_uploads, 2 * sp * count) << where;
  EXPECT_EQ(psnr_alone.counters.separate_sse, pp * count) << where;
  for (size_t batch : batches) {
    const std::string w = fmt::format("{} batch {}", where, batch);
    const RunValues both = run(f, {ssim, psnr}, frames, dev, batch);
    const RunValues reversed = run(f, {psnr, ssim}, frames, dev, batch);
    n += expect_same(cpu, 0, both, 0, w + " ssim, psnr: ssim") +
         expect_same(cpu, 1, both, 1, w + " ssim, psnr: psnr") +
         expect_same(cpu, 0, reversed, 1, w + " psnr, ssim: ssim") +
         expect_same(cpu, 1, reversed, 0, w + " psnr, ssim: psnr");
    for (const RunValues* r : {&both, &reversed}) {
      // Each plane of each pair written once; the SSE of the planes both score
      // from the SSIM pass, the others by the psnr kernel.
      EXPECT_EQ(r->counters.plane_uploads, 2 * uploaded * count) << w;
      EXPECT_EQ(r->counters.fused_sse, shared * count) << w;
      EXPECT_EQ(r->counters.separate_sse, (pp - shared) * count) << w;
    }
  }
  return n;
}

TEST_F(OpenclTest, SsimAndPsnrTogetherPublicVectors) {
  size_t compared = 0, frames = 0;
  const bool found =
      for_each_public_vector([&](const std::string& name, VideoSource& ref, VideoSource& dist) {
        const VideoFormat f = ref.format();
        std::vector<FramePictures> pictures;
        for (FramePictures p; ref.read_frame(p.ref) && dist.read_frame(p.dist);)
          pictures.push_back(std::move(p));
        frames += pictures.size();
        const bool mono = f.chroma == ChromaFormat::kMono;
        // Large frames on a CPU device: batches of 1 here, both sizes in the random pairs.
        compared += check_together(f, mono ? "ssim" : "ssim=chroma=true",
                                   "psnr=enable_mse=true:enable_apsnr=true", pictures,
                                   name + " exact", {1});
        if (name == "p8_420_576x324_testsrc2_x264")
          compared += check_together(f, "ssim=sum=raster", "psnr", pictures, name + " raster", {3});
      });
  if (!found) GTEST_SKIP() << "no shared vectors: public-vector check skipped";
  std::printf(
      "[ opencl   ] ssim+psnr together, public vectors: %zu frames, %zu values bit for bit\n",
      frames, compared);
  EXPECT_GT(compared, 0u);
}

TEST_F(OpenclTest, SsimAndPsnrTogetherRandomPairs) {
  std::mt19937_64 rng(20261201);
  const int sizes[][2] = {{1, 1}, {2, 3}, {9, 9}, {17, 9}, {33, 20}};
  const char* const ssim_specs[] = {"ssim", "ssim=chroma=true", "ssim=sum=raster:chroma=true",
                                    "ssim=sum=raster:enable_db=true:clip_db=true"};
  const char* const psnr_specs[] = {"psnr", "psnr=enable_mse=true:enable_apsnr=true",
                                    "psnr=reduced_hbd_peak=true:min_sse=0.5",
                                    "psnr=enable_chroma=false"};
  size_t compared = 0, frames = 0, runs = 0;
  for (int depth = 8; depth <= 16; ++depth)
    for (ChromaFormat chroma :
         {ChromaFormat::k420, ChromaFormat::k422, ChromaFormat::k444, ChromaFormat::kMono})
      for (const auto& size : sizes) {
        const VideoFormat f{size[0], size[1], chroma, depth};
        std::vector<FramePictures> pictures(4);
        for (size_t i = 0; i < pictures.size(); ++i)
          fill(pictures[i].ref, pictures[i].dist, f, int(i % 3), rng);
        frames += pictures.size();
        // A different pair of options for each format and size, every pair over the loop.
        const std::string ssim = ssim_specs[runs % 4], psnr = psnr_specs[(runs / 4 + runs) % 4];
        ++runs;
        if (chroma == ChromaFormat::kMono && ssim.find("chroma=true") != std::string::npos)
          continue;
        compared += check_together(f, ssim, psnr, pictures,
                                   fmt::format("{} {} {}", f.describe(), ssim, psnr));
      }
  std::printf("[ opencl   ] ssim+psnr together, random pairs: %zu frames, %zu values bit for bit\n",
              frames, compared);
}

// Feature::extract has no frame number: nothing is shared, values unchanged.
TEST_F(OpenclTest, UnnumberedFramesAreNotShared) {
  const VideoFormat f{24, 16, ChromaFormat::k420, 10};
  std::mt19937_64 rng(3);
  FramePictures p;
  fill(p.ref, p.dist, f, 0, rng);
  auto dev = device();
  auto ssim = make_feature(parse_feature_spec("ssim=chroma=true"), FeatureContext{f, nullptr, dev});
  auto psnr = make_feature(parse_feature_spec("psnr"), FeatureContext{f, nullptr, dev});
  Twins ssim_twin(f, "ssim=chroma=true"), psnr_twin(f, "psnr");
  const Counters before = counters_of(*dev);
  std::vector<double> a(3), b(3);
  ssim->extract(p.ref, p.dist, a);
  psnr->extract(p.ref, p.dist, b);
  EXPECT_EQ(counters_of(*dev).plane_uploads - before.plane_uploads, 12);
  EXPECT_EQ(counters_of(*dev).fused_sse - before.fused_sse, 0);
  ssim_twin.compare(p.ref, p.dist, "unnumbered");
  psnr_twin.compare(p.ref, p.dist, "unnumbered");
}

// The same frame number with other pictures (a caller breaking the contract, or
// a new run on the same device) is not taken for the held pair.
TEST_F(OpenclTest, OtherPicturesUnderTheSameNumberAreUploaded) {
  const VideoFormat f{20, 12, ChromaFormat::k444, 8};
  std::mt19937_64 rng(4);
  std::vector<FramePictures> first(1), second(1);
  fill(first[0].ref, first[0].dist, f, 0, rng);
  fill(second[0].ref, second[0].dist, f, 1, rng);
  const RunValues a = run(f, {"ssim=chroma=true", "psnr"}, first, device(), 1);
  const RunValues b = run(f, {"ssim=chroma=true", "psnr"}, second, device(), 1);
  const RunValues cpu = run(f, {"ssim=chroma=true", "psnr"}, second, nullptr, 1);
  expect_same(cpu, 0, b, 0, "second run ssim");
  expect_same(cpu, 1, b, 1, "second run psnr");
  EXPECT_EQ(a.counters.plane_uploads, 6);
  EXPECT_EQ(b.counters.plane_uploads, 6);
}

// Two device objects on the same OpenCL device (as a multi-device run may open
// them) share nothing: ssim on one and psnr on the other each upload their own
// planes, no SSE passes between them, and the values are the CPU's.
TEST_F(OpenclTest, TwoOpenedDevicesShareNothing) {
  const VideoFormat f{30, 22, ChromaFormat::k422, 12};
  std::mt19937_64 rng(5);
  std::vector<FramePictures> frames(3);
  for (auto& p : frames) fill(p.ref, p.dist, f, 1, rng);
  DeviceOptions o;
  o.backend = Backend::kOpenCL;
  auto a = std::dynamic_pointer_cast<opencl::OpenclDevice>(open_opencl_device(o, f));
  auto b = std::dynamic_pointer_cast<opencl::OpenclDevice>(open_opencl_device(o, f));
  ASSERT_TRUE(a && b && a != b);
  auto ssim = make_feature(parse_feature_spec("ssim=chroma=true"), FeatureContext{f, nullptr, a});
  auto psnr = make_feature(parse_feature_spec("psnr"), FeatureContext{f, nullptr, b});
  Twins ssim_twin(f, "ssim=chroma=true"), psnr_twin(f, "psnr");
  std::vector<double> got(3), want(3);
  auto cpu_ssim =
      make_feature(parse_feature_spec("ssim=chroma=true"), FeatureContext{f, nullptr, nullptr});
  auto cpu_psnr = make_feature(parse_feature_spec("psnr"), FeatureContext{f, nullptr, nullptr});
  for (size_t i = 0; i < frames.size(); ++i) {
    const FramePair pair{&frames[i].ref, &frames[i].dist, int64_t(i)};
    for (auto [gpu, cpu] :
         {std::pair{ssim.get(), cpu_ssim.get()}, std::pair{psnr.get(), cpu_psnr.get()}}) {
      gpu->extract_batch({&pair, 1}, got);
      cpu->extract(frames[i].ref, frames[i].dist, want);
      for (size_t k = 0; k < 3; ++k) EXPECT_TRUE(same_bits(got[k], want[k])) << i << " " << k;
    }
  }
  EXPECT_EQ(a->counters().plane_uploads, 18);
  EXPECT_EQ(b->counters().plane_uploads, 18);
  EXPECT_EQ(counters_of(*a).fused_sse + counters_of(*b).fused_sse, 0);
  EXPECT_EQ(counters_of(*b).separate_sse, 9);
}

}  // namespace
}  // namespace exactvq::opencltest
