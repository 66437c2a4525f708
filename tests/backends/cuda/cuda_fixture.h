// Shared by the CUDA tests: the device (or a visible skip), random pictures and
// bit comparison, as device_fixture.h has them for every backend.
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <random>
#include <string>

#include "device_fixture.h"

namespace exactvq::cudatest {

using device_testing::Content;
using device_testing::fill_pair;
using device_testing::same_bits;

// The CUDA device, opened once; null (and `why`) when none can be used.
inline std::shared_ptr<Device> gpu(std::string* why = nullptr) {
  const device_testing::OpenedDevice& d = device_testing::shared_device(Backend::kCuda);
  if (why) *why = d.reason;
  return d.device;
}

using CudaTest = device_testing::OneBackendTest<Backend::kCuda>;

}  // namespace exactvq::cudatest
