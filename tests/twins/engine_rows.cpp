// Rows of every metric's engine (the narrow table each device implements:
// backends/device.h) on every device present: the CPU on each SIMD target, three
// CPU devices as one (the split engine), CUDA with native and emulated fp64,
// OpenCL. Each case is a batch of frame pairs, numbered as a run numbers them,
// and its first pair again alone (a loose pair: no sharing, no page-locking);
// the engine's sums are compared with the scalar reference's, plane by plane
// (float_ssim's engines: every mean of every scale).
#include <memory>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "backends/cpu/cpu_device.h"
#include "backends/device.h"
#include "backends/multi/multi_device.h"
#include "core/error.h"
#include "cpu_rows.h"
#include "cuda_twin_device.h"
#include "frame_pairs.h"
#include "metrics/float_ssim/engine.h"
#include "metrics/psnr/engine.h"
#include "metrics/psnr/sse.h"
#include "metrics/ssim/engine.h"
#include "metrics/ssim/reference.h"

namespace exactvq::twins {
namespace {

ThreadPool& pool() {
  static ThreadPool p(2);
  return p;
}

// OpenCL: no device at all is a skip; a device present that cannot be opened (or
// cannot build the kernels) fails the row.
std::shared_ptr<Device> opencl_device() {
  static const std::shared_ptr<Device> device = [] {
    DeviceOptions options;
    options.backend = Backend::kOpenCL;
    return open_opencl_device(options, VideoFormat{16, 16, ChromaFormat::k420, 8});
  }();
  return device;
}

std::shared_ptr<Device> split_cpu_device() {
  static const std::shared_ptr<Device> device = std::make_shared<MultiDevice>(std::vector<std::shared_ptr<Device>>{
      std::make_shared<CpuDevice>(), std::make_shared<CpuDevice>(), std::make_shared<CpuDevice>()});
  return device;
}

enum class Op { kExactSums, kRasterSums, kSse };

int planes_of(const VideoFormat& f) { return f.plane_count(); }

// The engine's output bytes for the batch, then for its first pair alone.
Bytes engine_bytes(Device& device, Op op, ssim::Fp64Mode fp64, const FramePairs& in) {
  const VideoFormat& f = in.format;
  const int planes = planes_of(f);
  Bytes out;
  const auto run = [&](std::span<const FramePair> pairs) {
    const size_t n = pairs.size() * size_t(planes);
    if (op == Op::kSse) {
      auto engine = psnr::make_engine(device, psnr::EngineSetup{f, planes, &pool()});
      std::vector<uint64_t> sums(n);
      engine->score(pairs, sums);
      put(out, sums);
      return;
    }
    const ssim::SumMode mode = op == Op::kExactSums ? ssim::SumMode::kExact : ssim::SumMode::kRaster;
    auto engine = ssim::make_engine(device, ssim::EngineSetup{f, planes, mode, fp64, &pool()});
    std::vector<ssim::PlaneSum> plane_sums(n);
    engine->score(pairs, plane_sums);
    if (mode == ssim::SumMode::kExact) {
      std::vector<ssim::int128> sums;
      for (const ssim::PlaneSum& s : plane_sums) sums.push_back(s.exact);
      put(out, sums);
    } else {
      std::vector<double> sums;
      for (const ssim::PlaneSum& s : plane_sums) sums.push_back(s.raster);
      put(out, sums);
    }
  };
  run(in.pairs);
  const FramePair loose{in.pairs[0].ref, in.pairs[0].dist, FramePair::kLoose};
  run({&loose, 1});
  return out;
}

Bytes reference_bytes(Op op, const FramePairs& in) {
  const VideoFormat& f = in.format;
  Bytes out;
  const auto frame = [&](const FramePair& pair) {
    for (int p = 0; p < planes_of(f); ++p) {
      const PlaneView r = pair.ref->plane(p), d = pair.dist->plane(p);
      if (op == Op::kSse) {
        const uint64_t sse = psnr::sse_reference(r, d, 0, r.height);
        put(out, &sse, 1);
      } else if (op == Op::kExactSums) {
        const ssim::int128 q = ssim::exact_sum(r, d, f.bitdepth, ssim::whole(r)).sum_q;
        put(out, &q, 1);
      } else {
        const double sum = ssim::raster_sum(r, d, f.bitdepth);
        put(out, &sum, 1);
      }
    }
  };
  for (const FramePair& pair : in.pairs) frame(pair);
  frame(in.pairs[0]);  // the loose pair
  return out;
}

std::vector<Case> engine_cases() {
  const int sizes[][2] = {{1, 1},     {1, 13},   {13, 1},   {2, 2},    {2, 3},    {5, 5},
                          {8, 8},     {9, 9},    {17, 9},   {33, 31},  {63, 31},  {64, 32},
                          {65, 33},   {70, 41},  {72, 40},  {127, 31}, {128, 32}, {129, 33},
                          {136, 9},   {129, 97}, {200, 97}, {257, 65}, {7, 300},  {383, 97}};
  const int depths[] = {8, 9, 10, 12, 14, 16};
  const ChromaFormat chromas[] = {ChromaFormat::k420, ChromaFormat::k422, ChromaFormat::k444, ChromaFormat::kMono};
  std::vector<Case> all;
  auto add = [&](int w, int h, int bits, int chroma, int frames, bool timed) {
    Case c;
    c.seed = case_seed(0x5eed'0c0da, all.size());
    c.width = w;
    c.height = h;
    c.bits = bits;
    c.fill = chroma;
    c.a = frames;
    c.timed = timed;
    c.what = fmt::format("{} frames of {}x{} {} {}-bit", frames, w, h, chroma_name(chromas[chroma]), bits);
    all.push_back(c);
  };
  size_t k = 0;
  for (const auto& s : sizes)
    for (int bits : depths) add(s[0], s[1], bits, int(k++ % 4), 3, false);
  add(96, 64, 10, 0, 70, false);  // many frames: several lanes and launches a batch
  for (int bits : {8, 10, 16}) add(1920, 1080, bits, 0, 2, bits != 16);
  return all;
}

VideoFormat format_of(const Case& c) {
  const ChromaFormat chromas[] = {ChromaFormat::k420, ChromaFormat::k422, ChromaFormat::k444, ChromaFormat::kMono};
  return VideoFormat{c.width, c.height, chromas[c.fill], c.bits};
}

// A row of `op` on the device `device()` returns (opened on first use).
Row engine_row(const std::string& name, Op op, std::function<std::shared_ptr<Device>()> device,
               ssim::Fp64Mode fp64 = ssim::Fp64Mode::kAuto) {
  Row r;
  r.name = name;
  r.cases = engine_cases;
  r.reference_key = name.substr(0, name.find('/'));
  r.prepare = [op, device, fp64](const Case& c) {
    auto in = std::make_shared<FramePairs>(format_of(c), c.a, c.seed);
    Prepared p;
    p.twin = [in, op, device, fp64] { return engine_bytes(*device(), op, fp64, *in); };
    p.reference = [in, op] { return reference_bytes(op, *in); };
    return p;
  };
  r.work = [](const Case& c) { return double(c.width) * c.height * c.a * 2; };  // batch and loose pair
  return r;
}

EXACTVQ_TWIN_ROWS(engine_rows) {
  const struct {
    const char* name;
    Op op;
  } ops[] = {{"ssim.exact_sums", Op::kExactSums}, {"ssim.raster_sums", Op::kRasterSums}, {"psnr.sse", Op::kSse}};
  for (const auto& o : ops) {
    const std::string name = o.name;
    // The CPU device on each target (register_per_target forces it).
    register_per_target(engine_row(name, o.op, [] { return std::shared_ptr<Device>(&cpu_device(), [](Device*) {}); }));
    register_row(engine_row(name + "/split-cpu3", o.op, split_cpu_device));
    const bool ssim = o.op != Op::kSse;
    Row cuda = engine_row(name + (ssim ? "/cuda-native" : "/cuda"), o.op, [] { return cuda_device().device; },
                          ssim::Fp64Mode::kNative);
    cuda.unavailable = [] { return cuda_device().why; };
    register_row(cuda);
    if (ssim) {
      Row emulated = engine_row(name + "/cuda-emulate", o.op, [] { return cuda_device().device; },
                                ssim::Fp64Mode::kEmulate);
      emulated.unavailable = [] { return cuda_device().why; };
      register_row(emulated);
    }
    Row opencl = engine_row(name + "/opencl", o.op, opencl_device);
    opencl.unavailable = [] {
      return count_devices(Backend::kOpenCL) == 0 ? std::string("no OpenCL device (the ICD loader found none)")
                                                  : std::string();
    };
    register_row(opencl);
  }
}

// ---- float_ssim.means, float_ms_ssim.means: every mean of every scale of a
// batch and of its first pair alone, all four means asked for, at each depth
// libvmaf converts (others and MS-SSIM under 176 have no value: no bytes).

std::vector<Case> float_ssim_engine_cases() {
  // Small sizes at every depth; MS-SSIM's sizes (176 and more) at fewer, to keep
  // the scalar reference's time in CI to seconds.
  struct Size {
    int w, h;
    std::vector<int> depths;
  };
  const std::vector<int> every = {8, 10, 12, 16};
  const Size sizes[] = {{1, 1, every},     {18, 10, every}, {10, 18, every},   {11, 11, every},
                        {17, 9, every},    {33, 31, every}, {129, 33, every},  {176, 176, every},
                        {203, 181, {8, 12}}, {390, 385, {10}}};
  std::vector<Case> all;
  for (const Size& s : sizes)
    for (int bits : s.depths) {
      Case c;
      c.seed = case_seed(0x5eed'f55e, all.size());
      c.width = s.w;
      c.height = s.h;
      c.bits = bits;
      c.a = s.w * s.h > 30'000 ? 2 : 3;
      c.what = fmt::format("{} frames of {}x{} {}-bit", c.a, s.w, s.h, bits);
      all.push_back(c);
    }
  return all;
}

bool float_ssim_scores(const VideoFormat& f, bool multiscale) {
  return float_ssim::converts_bit_depth(f.bitdepth) &&
         (!multiscale || (f.width >= float_ssim::kMsSsimMinSide && f.height >= float_ssim::kMsSsimMinSide));
}

void put_means(Bytes& out, const float_ssim::FrameMeans& m, bool multiscale) {
  put(out, m.scales.data(), multiscale ? m.scales.size() : 1);
}

Bytes float_ssim_engine_bytes(Device& device, bool multiscale, ssim::Fp64Mode fp64, const FramePairs& in) {
  const VideoFormat& f = in.format;
  Bytes out;
  if (!float_ssim_scores(f, multiscale)) return out;
  float_ssim::EngineSetup setup;
  setup.format = f;
  setup.multiscale = multiscale;
  setup.factor = multiscale ? 1 : float_ssim::ssim_scale(f.width, f.height, 0);
  setup.ssim_mean = setup.lcs_means = true;
  setup.fp64 = fp64;
  setup.pool = &pool();
  auto engine = float_ssim::make_engine(device, setup);
  const auto run = [&](std::span<const FramePair> pairs) {
    std::vector<float_ssim::FrameMeans> means(pairs.size());
    engine->score(pairs, means);
    for (const auto& m : means) put_means(out, m, multiscale);
  };
  run(in.pairs);
  const FramePair loose{in.pairs[0].ref, in.pairs[0].dist, FramePair::kLoose};
  run({&loose, 1});
  return out;
}

Bytes float_ssim_reference_bytes(bool multiscale, const FramePairs& in) {
  const VideoFormat& f = in.format;
  Bytes out;
  if (!float_ssim_scores(f, multiscale)) return out;
  const auto frame = [&](const FramePair& pair) {
    const PlaneView r = pair.ref->plane(0), d = pair.dist->plane(0);
    float_ssim::FrameMeans m;
    if (multiscale) m.scales = float_ssim::float_ms_ssim_means(r, d, f.bitdepth, float_ssim::kReferenceStages);
    else
      m.scales[0] = float_ssim::float_ssim_means(r, d, f.bitdepth, float_ssim::ssim_scale(f.width, f.height, 0),
                                                 float_ssim::kReferenceStages);
    put_means(out, m, multiscale);
  };
  for (const FramePair& pair : in.pairs) frame(pair);
  frame(in.pairs[0]);
  return out;
}

Row float_ssim_engine_row(const std::string& name, bool multiscale, std::function<std::shared_ptr<Device>()> device,
                          ssim::Fp64Mode fp64 = ssim::Fp64Mode::kNative) {
  Row r;
  r.name = name;
  r.cases = float_ssim_engine_cases;
  r.reference_key = name.substr(0, name.find('/'));
  r.prepare = [multiscale, device, fp64](const Case& c) {
    auto in = std::make_shared<FramePairs>(VideoFormat{c.width, c.height, ChromaFormat::k420, c.bits}, c.a, c.seed);
    Prepared p;
    p.twin = [in, multiscale, device, fp64] { return float_ssim_engine_bytes(*device(), multiscale, fp64, *in); };
    p.reference = [in, multiscale] { return float_ssim_reference_bytes(multiscale, *in); };
    return p;
  };
  r.work = [](const Case& c) { return double(c.width) * c.height * (c.a + 1); };
  return r;
}

EXACTVQ_TWIN_ROWS(float_ssim_engine_rows) {
  for (const bool multiscale : {false, true}) {
    const std::string name = multiscale ? "float_ms_ssim.means" : "float_ssim.means";
    register_per_target(float_ssim_engine_row(
        name, multiscale, [] { return std::shared_ptr<Device>(&cpu_device(), [](Device*) {}); }));
    register_row(float_ssim_engine_row(name + "/split-cpu3", multiscale, split_cpu_device));
    Row cuda = float_ssim_engine_row(name + "/cuda", multiscale, [] { return cuda_device().device; });
    cuda.unavailable = [] { return cuda_device().why; };
    register_row(cuda);
    Row emulated = float_ssim_engine_row(name + "/cuda-emulate", multiscale, [] { return cuda_device().device; },
                                         ssim::Fp64Mode::kEmulate);
    emulated.unavailable = [] { return cuda_device().why; };
    register_row(emulated);
    Row opencl = float_ssim_engine_row(name + "/opencl", multiscale, opencl_device);
    opencl.unavailable = [] {
      return count_devices(Backend::kOpenCL) == 0 ? std::string("no OpenCL device (the ICD loader found none)")
                                                  : std::string();
    };
    register_row(opencl);
  }
}

}  // namespace
}  // namespace exactvq::twins
