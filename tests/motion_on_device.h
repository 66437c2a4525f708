// motion on a device against the CPU in batches, for the CUDA and OpenCL tests:
// both features score the same pictures, `batch` frames a call, after start_at
// with the frames before `first` (as MPI ranks start), every value compared
// bit for bit.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "backends/device.h"
#include "core/thread_pool.h"
#include "metrics/registry.h"

namespace exactvq::testing_devices {

// Scores pictures[first..] with `spec` on the CPU and on `device`; returns the
// values compared.
inline int compare_motion(const std::shared_ptr<Device>& device, const VideoFormat& f, const std::string& spec,
                          const std::vector<Picture>& refs, const std::vector<Picture>& dists, size_t first,
                          size_t batch, const std::string& what) {
  ThreadPool pool(2);
  const FeatureSpec parsed = parse_feature_spec(spec);
  auto cpu = make_feature(parsed, FeatureContext{f, &pool, nullptr});
  auto on_device = make_feature(parsed, FeatureContext{f, &pool, device});
  std::vector<FramePair> pairs;
  for (size_t i = 0; i < refs.size(); ++i) pairs.push_back({&refs[i], &dists[i], int64_t(i)});
  if (first > 0) {
    const size_t before = std::min(first, size_t(cpu->frames_before()));
    const std::span<const FramePair> held(pairs.data() + first - before, before);
    cpu->start_at(held, int64_t(first));
    on_device->start_at(held, int64_t(first));
  }
  const size_t n = cpu->outputs().size();
  int compared = 0;
  for (size_t at = first; at < pairs.size(); at += batch) {
    const std::span<const FramePair> frames(pairs.data() + at, std::min(batch, pairs.size() - at));
    std::vector<double> want(frames.size() * n), got(frames.size() * n, -12345.0);
    cpu->extract_batch(frames, want);
    on_device->extract_batch(frames, got);
    for (size_t i = 0; i < want.size(); ++i, ++compared)
      EXPECT_EQ(0, std::memcmp(&got[i], &want[i], sizeof(double)))
          << what << " " << f.describe() << " " << spec << " batch " << batch << " from " << first << " frame "
          << at + i / n << " " << cpu->outputs()[i % n] << ": device " << fmt::format("{:a}", got[i])
          << ", cpu " << fmt::format("{:a}", want[i]);
  }
  return compared;
}

}  // namespace exactvq::testing_devices
