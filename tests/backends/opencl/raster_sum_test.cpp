// The OpenCL raster-order sum (backends/opencl/raster_sum.h) with every work-group size its
// kernels take (32 to 256 items), against the sequential sum: the twin row
// raster_sum.device/opencl runs the device's own choice on every sequence kind; this runs the
// smaller groups (a GPU whose registers limit the group gets one) on a few of them.
#include "opencl_fixture.h"

#include "backends/opencl/raster_sum.h"
#include "metrics/ssim/raster_sum.h"
#include "raster_sum_sequences.h"

namespace exactvq::opencltest {
namespace {

using exactvq::testing::TermKind;

TEST_F(OpenclTest, RasterSumEveryWorkGroupSize) {
  opencl::OpenclDevice& d = *device();
  opencl::DeviceContext& dc = d.context();
  // Two frames of two arrays: 20011 and 8193 terms (blocks cut inside and at a chunk edge).
  const int64_t counts[2] = {20011, 8193};
  for (TermKind kind : {TermKind::kSsimLike, TermKind::kHalfUlpTies, TermKind::kCancelToZero,
                        TermKind::kSubnormal, TermKind::kNanInside}) {
    std::vector<double> terms;
    opencl::RasterSumLayout layout;
    layout.frames = 2;
    layout.arrays = 2;
    std::vector<double> want;
    for (int a = 0; a < 2; ++a) {
      layout.array[a] = {int64_t(terms.size()) + 1, counts[a] + 2, counts[a]};
      terms.resize(terms.size() + 1 + 2 * size_t(counts[a] + 2));
    }
    for (int f = 0; f < 2; ++f)
      for (int a = 0; a < 2; ++a) {
        const auto seq = exactvq::testing::term_sequence(kind, size_t(counts[a]),
                                                         uint64_t(7 * f + a + int(kind)));
        std::copy(seq.begin(), seq.end(),
                  terms.begin() + layout.array[a].offset + f * layout.array[a].frame_stride);
        want.push_back(ssim::add_in_raster_order(0.0, seq.data(), seq.size()));
      }
    const auto buffer = dc.buffer(terms.size() * sizeof(double), "terms");
    const auto sums = dc.buffer(want.size() * sizeof(double), "sums");
    const auto workspace = dc.buffer(opencl::raster_sum_workspace_bytes(layout), "workspace");
    dc.write(buffer.get(), terms.size() * sizeof(double), terms.data(), "terms");
    layout.terms = buffer.get();
    for (size_t group = opencl::RasterSums::kLeastGroup; group <= opencl::RasterSums::kLargestGroup;
         group *= 2) {
      opencl::RasterSums summer(dc, d.raster_sum_program(), group);
      summer.enqueue(layout, sums.get(), workspace.get());
      std::vector<double> got(want.size());
      dc.read(sums.get(), got.size() * sizeof(double), got.data(), "sums");
      for (size_t i = 0; i < want.size(); ++i)
        EXPECT_TRUE(same_bits(got[i], want[i]))
            << exactvq::testing::term_kind_name(kind) << ", group " << group << ", sum " << i
            << ": " << got[i] << " against " << want[i];
    }
  }
}

}  // namespace
}  // namespace exactvq::opencltest
