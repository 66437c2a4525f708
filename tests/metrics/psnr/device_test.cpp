// psnr on every device backend (device SSE, host decibels) against the CPU,
// bit for bit, values and aggregates, on every public vector (seeded random
// pairs of every depth and format are rows of tests/twins/). CUDA scores each
// pair in one batch; OpenCL frame by frame as loose pairs. Without a device a
// backend's cases skip with a message.
#include <cstdio>

#include "device_fixture.h"
#include "libvmaf_vector_pairs.h"

namespace exactvq::device_testing {
namespace {

class PsnrOnDevice : public DeviceTest {};

TEST_P(PsnrOnDevice, PublicVectorsEqualCpu) {
  if (!testing_vectors::vectors_present())
    GTEST_SKIP() << "no shared vectors at " << testing_vectors::kVectors
                 << ": public-vector check skipped";
  const Pace pace = backend() == Backend::kCuda ? Pace::kOneBatch : Pace::kLoosePairs;
  const std::string spec = "psnr=enable_mse=true:enable_apsnr=true";
  int compared = 0;
  size_t frames = 0;
  for (const testing_vectors::Pair& p : testing_vectors::load_pairs()) {
    const PictureFrames pictures(read_pictures(p.ref, p.raw), read_pictures(p.dist, p.raw));
    frames += pictures.pairs.size();
    compared += compare_on_device(device(), pictures.format(), spec, {spec}, pictures.pairs,
                                  p.info.at("name").get<std::string>(), pace)
                    .compared;
  }
  std::printf("%s psnr public vectors: %zu frames, %d values bit for bit\n", tag().c_str(), frames,
              compared);
  EXPECT_GT(compared, 0);
}

EXACTVQ_ON_EVERY_DEVICE_BACKEND(PsnrOnDevice);

}  // namespace
}  // namespace exactvq::device_testing
