// Rows of the parallel raster-order sum (docs/spec/raster_sum.md) beside the sequential
// definition (ssim::add_in_raster_order): the host's chunked_raster_sum, the CUDA
// launch_raster_sums and the OpenCL RasterSums, on every adversarial term sequence
// (raster_sum_sequences.h), lengths on both sides of the chunk and block edges, several
// frames and arrays a launch at odd offsets, 2^20 terms, and a 4K plane of SSIM-like terms
// (timed). EXACTVQ_CUDA_SMALL=1 (compute-sanitizer runs) leaves out arrays above 2^16 terms;
// the OpenCL row (PoCL in CI) leaves out the 2^20-term arrays and the 4K plane unless
// EXACTVQ_OPENCL_LARGE=1.
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "core/raster_sum.h"
#include "metrics/ssim/raster_sum.h"
#include "raster_sum_sequences.h"
#include "twin_table.h"

#if defined(EXACTVQ_HAVE_CUDA)
#include <cuda_runtime_api.h>

#include "backends/cuda/cuda_resources.h"
#include "backends/cuda/raster_sum.h"
#include "backends/device.h"
#include "core/error.h"
#endif

#if defined(EXACTVQ_HAVE_OPENCL)
#include "backends/device.h"
#include "backends/opencl/opencl_device.h"
#include "backends/opencl/raster_sum.h"
#include "twin_devices.h"
#endif

namespace exactvq::twins {
namespace {

using testing::TermKind;

// A case's terms: `frames` frames of `arrays` arrays, array a of frame f at
// offset[a] + f * stride[a] in one buffer.
struct Terms {
  std::vector<double> buffer;
  int frames = 1, arrays = 1;
  int64_t offset[3] = {}, stride[3] = {}, count[3] = {};
};

// Case: a = the kind, b = 0 one array of width * height terms, 1 three frames of three
// arrays (width * height, a quarter of it plus 3, and 1 + seed % 300 terms) at odd offsets.
Terms make_terms(const Case& c) {
  Terms t;
  const auto kind = TermKind(c.a);
  const int64_t n = int64_t(c.width) * c.height;
  if (c.b == 0) {
    t.buffer = testing::term_sequence(kind, size_t(n), c.seed);
    t.count[0] = n;
    return t;
  }
  t.frames = 3;
  t.arrays = 3;
  const int64_t counts[3] = {n, n / 4 + 3, 1 + int64_t(c.seed % 300)};
  int64_t at = 5;
  for (int a = 0; a < 3; ++a) {
    t.offset[a] = at;
    t.count[a] = counts[a];
    t.stride[a] = counts[a] + 3;
    at += t.frames * t.stride[a] + 1;
  }
  t.buffer.assign(size_t(at), 0.0);
  for (int f = 0; f < t.frames; ++f)
    for (int a = 0; a < 3; ++a) {
      const auto seq =
          testing::term_sequence(kind, size_t(t.count[a]), c.seed + uint64_t(f * 3 + a));
      std::copy(seq.begin(), seq.end(), t.buffer.begin() + t.offset[a] + f * t.stride[a]);
    }
  return t;
}

Bytes sequential_sums(const Terms& t) {
  std::vector<double> sums;
  for (int f = 0; f < t.frames; ++f)
    for (int a = 0; a < t.arrays; ++a)
      sums.push_back(ssim::add_in_raster_order(0.0, t.buffer.data() + t.offset[a] + f * t.stride[a],
                                               size_t(t.count[a])));
  Bytes out;
  put(out, sums);
  return out;
}

Bytes chunked_sums(const Terms& t) {
  std::vector<double> sums;
  for (int f = 0; f < t.frames; ++f)
    for (int a = 0; a < t.arrays; ++a)
      sums.push_back(
          chunked_raster_sum(t.buffer.data() + t.offset[a] + f * t.stride[a], size_t(t.count[a])));
  Bytes out;
  put(out, sums);
  return out;
}

bool env_set(const char* name) {
  const char* v = std::getenv(name);
  return v && *v && *v != '0';
}

bool small_only() { return env_set("EXACTVQ_CUDA_SMALL"); }

std::vector<Case> sum_cases(bool with_4k) {
  std::vector<Case> all;
  auto add = [&](int kind, int w, int h, int layout, bool timed = false) {
    Case c;
    c.seed = case_seed(0x5a5'7e55, all.size());
    c.a = kind;
    c.b = layout;
    c.width = w;
    c.height = h;
    c.timed = timed;
    c.what = fmt::format("{} {} terms{}", testing::term_kind_name(TermKind(kind)), int64_t(w) * h,
                         layout ? ", 3 frames x 3 arrays" : "");
    all.push_back(c);
  };
  for (int k = 0; k < int(TermKind::kCount); ++k) {
    for (int n : {1, 2, 255, 256, 257, 8191, 8192, 8193, 100003}) add(k, n, 1, 0);
    add(k, 1000, 9, 1);
  }
  for (TermKind k : {TermKind::kSsimLike, TermKind::kSymmetric, TermKind::kHalfUlpTies,
                     TermKind::kBigTies, TermKind::kCancelToZero, TermKind::kSubnormal})
    add(int(k), 1024, 1025, 0);
  if (with_4k) add(int(TermKind::kSsimLike), 3840, 2160, 0, true);
  if (small_only())
    std::erase_if(all, [](const Case& c) { return int64_t(c.width) * c.height > (1 << 16); });
  return all;
}

#if defined(EXACTVQ_HAVE_CUDA)
std::string gpu_missing() {
  static const std::string why = [] {
    return count_devices(Backend::kCuda) == 0 ? std::string("no usable CUDA device")
                                              : std::string();
  }();
  return why;
}

Bytes device_sums(const Terms& t) {
  cuda::RasterSumLayout layout;
  layout.frames = t.frames;
  layout.arrays = t.arrays;
  for (int a = 0; a < t.arrays; ++a) layout.array[a] = {t.offset[a], t.stride[a], t.count[a]};
  cuda::DeviceBuffer terms(std::max<size_t>(8, t.buffer.size() * sizeof(double)));
  cuda::DeviceBuffer sums(size_t(t.frames * t.arrays) * sizeof(double));
  cuda::DeviceBuffer workspace(std::max<size_t>(8, cuda::raster_sum_workspace_bytes(layout)));
  cuda::check(cudaMemcpy(terms.get(), t.buffer.data(), t.buffer.size() * sizeof(double),
                         cudaMemcpyHostToDevice),
              "upload of the terms");
  layout.terms = terms.get<double>();
  cuda::launch_raster_sums(layout, sums.get<double>(), workspace.get(), nullptr);
  std::vector<double> host(size_t(t.frames * t.arrays));
  cuda::check(
      cudaMemcpy(host.data(), sums.get(), host.size() * sizeof(double), cudaMemcpyDeviceToHost),
      "read-back of the sums");
  Bytes out;
  put(out, host);
  return out;
}
#endif

#if defined(EXACTVQ_HAVE_OPENCL)
// The device the row runs on: none at all is a skip; one that cannot be opened or cannot
// build the kernels fails the row.
std::shared_ptr<opencl::OpenclDevice> raster_opencl_device() {
  static const std::shared_ptr<opencl::OpenclDevice> device =
      std::make_shared<opencl::OpenclDevice>(0);
  return device;
}

Bytes opencl_sums(const Terms& t) {
  opencl::OpenclDevice& device = *raster_opencl_device();
  opencl::DeviceContext& dc = device.context();
  opencl::RasterSumLayout layout;
  layout.frames = t.frames;
  layout.arrays = t.arrays;
  for (int a = 0; a < t.arrays; ++a) layout.array[a] = {t.offset[a], t.stride[a], t.count[a]};
  const size_t n = size_t(t.frames * t.arrays);
  const auto terms = dc.buffer(t.buffer.size() * sizeof(double), "terms");
  const auto sums = dc.buffer(n * sizeof(double), "sums");
  const auto workspace = dc.buffer(opencl::raster_sum_workspace_bytes(layout), "workspace");
  if (!t.buffer.empty())
    dc.write(terms.get(), t.buffer.size() * sizeof(double), t.buffer.data(), "terms");
  layout.terms = terms.get();
  device.raster_sums().enqueue(layout, sums.get(), workspace.get());
  std::vector<double> host(n);
  dc.read(sums.get(), n * sizeof(double), host.data(), "sums");
  Bytes out;
  put(out, host);
  return out;
}
#endif

EXACTVQ_TWIN_ROWS(raster_sum_rows) {
  Row cpu;
  cpu.name = "raster_sum.chunked/cpu";
  cpu.cases = [] { return sum_cases(false); };
  cpu.reference_key = "raster_sum.host";
  cpu.prepare = [](const Case& c) {
    auto t = std::make_shared<Terms>(make_terms(c));
    return Prepared{[t] { return chunked_sums(*t); }, [t] { return sequential_sums(*t); }};
  };
  register_row(std::move(cpu));
#if defined(EXACTVQ_HAVE_CUDA)
  Row gpu;
  gpu.name = "raster_sum.device/cuda";
  gpu.unavailable = gpu_missing;
  gpu.cases = [] { return sum_cases(true); };
  gpu.reference_key = "raster_sum.device";
  gpu.prepare = [](const Case& c) {
    auto t = std::make_shared<Terms>(make_terms(c));
    return Prepared{[t] { return device_sums(*t); }, [t] { return sequential_sums(*t); }};
  };
  register_row(std::move(gpu));
#endif
#if defined(EXACTVQ_HAVE_OPENCL)
  Row ocl;
  ocl.name = "raster_sum.device/opencl";
  ocl.unavailable = opencl_missing;
  ocl.cases = [] {
    const bool large = env_set("EXACTVQ_OPENCL_LARGE");
    std::vector<Case> all = sum_cases(large);
    if (!large)
      std::erase_if(all, [](const Case& c) { return int64_t(c.width) * c.height > (1 << 20); });
    return all;
  };
  ocl.reference_key = "raster_sum.device";
  ocl.prepare = [](const Case& c) {
    auto t = std::make_shared<Terms>(make_terms(c));
    return Prepared{[t] { return opencl_sums(*t); }, [t] { return sequential_sums(*t); }};
  };
  register_row(std::move(ocl));
#endif
}

}  // namespace
}  // namespace exactvq::twins
